import Foundation

/// Writing files whole or not at all (see ``ReportWriter``), and making folders.
package enum AtomicFile {
    package struct WriteError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        package var description: String { "cannot write \(path): \(reason)" }
    }

    /// Writes `bytes` to a temporary file beside `path`, flushed to disk, then renamed over it.
    package static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let writer = try ReportWriter(path: path)
        writer.append(bytes)
        try writer.commit()
    }

    /// Copies the file at `source` to `path` as ``write(_:to:)`` writes, a chunk at a time.
    package static func copy(_ source: String, to path: String) throws(WriteError) {
        let descriptor = open(source, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw WriteError(path: path, reason: "cannot read \(source): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let writer = try ReportWriter(path: path)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                let reason = "cannot read \(source): \(String(cString: strerror(errno)))"
                writer.discard()
                throw WriteError(path: path, reason: reason)
            }
            if count == 0 { break }
            writer.append(Array(chunk[0..<count]))
        }
        try writer.commit()
    }

    /// Creates a directory and its parents, like `mkdir -p`.
    package static func makeDirectory(_ path: String) throws(WriteError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw WriteError(path: path, reason: "cannot create the directory (\(error.localizedDescription))")
        }
    }
}
