import Foundation

/// Writes files whole or not at all: into a temporary file beside the target, flushed to
/// disk, then renamed over it, so a run that dies leaves the previous file in place.
enum AtomicFile {
    struct WriteError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "cannot write \(path): \(reason)" }
    }

    static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let temporary = path + ".tmp-" + String(getpid())
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        var written = 0
        var failure: String?
        bytes.withUnsafeBytes { raw in
            while written < raw.count, let base = raw.baseAddress {
                let count = Foundation.write(descriptor, base + written, raw.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                written += count
            }
        }
        if failure == nil && fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if failure == nil && rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw WriteError(path: path, reason: failure)
        }
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
