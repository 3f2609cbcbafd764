import Foundation

/// Writing files whole or not at all (see ``ReportWriter``), and making folders.
enum AtomicFile {
    struct WriteError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "cannot write \(path): \(reason)" }
    }

    /// Writes `bytes` to a temporary file beside `path`, flushed to disk, then renamed over it.
    static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let writer = try ReportWriter(path: path)
        writer.append(bytes)
        try writer.commit()
    }

    /// Creates a directory and its parents, like `mkdir -p`.
    static func makeDirectory(_ path: String) throws(WriteError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw WriteError(path: path, reason: "cannot create the directory (\(error.localizedDescription))")
        }
    }
}
