import Foundation

/// Batches that could not be delivered, kept on disk until a server takes them.
///
/// One file per batch, `<sequence>.<sink>` (`00000003.influx`), written whole or not at all
/// (a temporary name, then a rename), sent again in sequence order, and removed only after
/// the server accepted it: nothing is dropped, and nothing is sent twice on purpose.
package struct Spool {
    package let directory: String

    package init(directory: String) {
        self.directory = directory
    }

    /// The batches waiting for a sink, oldest first.
    package func pending(for sink: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix("." + sink) }.sorted().map {
            (directory as NSString).appendingPathComponent($0)
        }
    }

    /// A batch that could not be kept, and why.
    package struct KeepError: Error, CustomStringConvertible {
        package var path: String
        package var reason: String
        package var description: String { "cannot keep a batch in \(path): \(reason)" }
    }

    /// Keeps a batch for a sink; returns its file. The batch counts as kept only once its file
    /// is written, flushed to disk and renamed into place, and the folder flushed too.
    package func keep(_ batch: [UInt8], for sink: String) throws(KeepError) -> String {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw KeepError(path: directory, reason: "\(error.localizedDescription)")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let last = names.compactMap { Int($0.split(separator: ".").first ?? "") }.max() ?? 0
        let name = String(format: "%08d.%@", last + 1, sink)
        let path = (directory as NSString).appendingPathComponent(name)
        let temporary = (directory as NSString).appendingPathComponent(".\(name).tmp")
        func failure(_ what: String) -> KeepError {
            KeepError(path: path, reason: "\(what): \(String(cString: strerror(errno)))")
        }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("open") }
        var written = 0
        while written < batch.count {
            let count = batch.withUnsafeBytes { bytes in
                bytes.baseAddress.map { write(descriptor, $0 + written, bytes.count - written) } ?? 0
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let error = failure("write")
                close(descriptor)
                unlink(temporary)
                throw error
            }
            written += count
        }
        guard fsync(descriptor) == 0 else {
            let error = failure("fsync")
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let error = failure("rename")
            unlink(temporary)
            throw error
        }
        let folder = open(directory, O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            defer { close(folder) }
            guard fsync(folder) == 0 else { throw failure("fsync of the folder") }
        }
        return path
    }

    /// Forgets a batch the server took.
    package func remove(_ path: String) {
        unlink(path)
    }
}
