import Foundation
import ProcessFiles

/// Batches that could not be delivered, kept on disk until a server takes them.
///
/// One file per batch, `<sequence>.<sink>` (`00000003.influx`), sent again in name order, which
/// is the order they were kept, and removed only after the server accepted it: nothing is
/// dropped, and nothing is sent twice on purpose (``SpoolLock`` keeps two pushes from one spool
/// apart).
///
/// **Names that cannot collide.** A batch is written whole to a temporary file of its own,
/// `.<sink>.<n>.tmp-<pid>` (the first `n` from 1 that is free), created exclusively (`O_EXCL`) and flushed to disk; then it is
/// hard-linked (`link(2)`) to the next sequence number, one more than the largest in the folder.
/// A link never replaces a file: where another process took that number in the meantime, it
/// fails (`EEXIST`) and the next number is tried. Then the temporary name is removed and the
/// folder flushed. So processes keeping batches into one folder at once (even without the lock)
/// each keep every batch under a name of its own, a name is taken only by a whole batch, and
/// names still sort in the order the batches were kept.
///
/// **Leftovers.** A process killed while keeping a batch leaves its temporary file behind.
/// Taking the lock (``SpoolLock``, at the start of every push that has a spool folder, or before
/// its first batch is kept) removes every temporary file whose pid (the end of its name) is no
/// running process. A live process's temporary file is never removed, this process's own
/// included; a pid taken again by a new process only delays the removal. A process in another
/// pid namespace sharing the folder (containers on one volume) may look dead: its keep then
/// fails and says so (the batch is reported lost, with why), never silently; pushes that take
/// the lock are kept apart anyway. Temporary files of earlier versions
/// (`.<sequence>.<sink>.tmp`, with no pid) are left alone.
package struct Spool: Sendable {
    package let directory: String

    /// Called with a batch's file name once it is chosen and before the file is made: tests
    /// pause a keep there, to let another process take the same name first.
    package var beforeCreating: (@Sendable (String) -> Void)?
    /// Called before each change on disk (a file created, linked or removed), with what it is:
    /// where the tests stop a run (`avt-replay`'s `DiskStep`).
    package var beforeStep: (@Sendable (String) -> Void)?

    package init(directory: String) {
        self.directory = directory
    }

    /// The batches waiting for a sink, oldest first.
    package func pending(for sink: String) -> [String] {
        names().filter { Self.sequence(of: $0, sink: sink) != nil }.sorted().map(path(of:))
    }

    /// A batch that could not be kept, and why.
    package struct KeepError: Error, CustomStringConvertible {
        package var directory: String
        package var reason: String
        package var description: String { "cannot keep a batch in \(directory): \(reason)" }

        package init(directory: String, reason: String) {
            self.directory = directory
            self.reason = reason
        }
    }

    /// Keeps a batch for a sink; returns its file. The batch counts as kept only once its file
    /// is written, flushed to disk and linked to its name, and the folder flushed too; when this
    /// throws, no file of the batch is left.
    package func keep(_ batch: [UInt8], for sink: String) throws(KeepError) -> String {
        try makeFolder()
        let temporary = try writeTemporary(batch, for: sink)
        let taken = names().compactMap { $0.first == "." ? nil : Int($0.prefix { $0 != "." }) }
        var sequence = (taken.max() ?? 0) + 1
        var path: String
        while true {
            let name = Self.name(sequence: sequence, sink: sink)
            path = self.path(of: name)
            beforeCreating?(name)
            beforeStep?("link \(temporary) to \(path)")
            if link(temporary, path) == 0 { break }
            guard errno == EEXIST else {
                let error = failure("link to \(name)")
                unlink(temporary)
                throw error
            }
            sequence += 1
        }
        beforeStep?("remove \(temporary)")
        unlink(temporary)
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else {
            let error = failure("open the folder")
            unlink(path)
            throw error
        }
        defer { close(folder) }
        guard fsync(folder) == 0 else {
            let error = failure("fsync of the folder")
            unlink(path)
            throw error
        }
        return path
    }

    /// Forgets a batch the server took.
    package func remove(_ path: String) {
        beforeStep?("remove \(path), delivered")
        unlink(path)
    }

    /// The bytes of a kept batch, or why it is not sent: a batch file is the tool's own, so a
    /// link or anything but a plain file in its place is never followed nor read.
    package func batch(at path: String) -> Result<[UInt8], BatchError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            let error = errno
            return .failure(
                BatchError(
                    description: error == ELOOP
                        ? "\(path) is a symbolic link, which avt-replay does not follow: not sent (remove it)"
                        : "cannot read \(path): \(String(cString: strerror(error)))"))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return .failure(BatchError(description: "\(path) is not a plain file: not sent (remove it)"))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                return .failure(BatchError(description: "cannot read \(path): \(String(cString: strerror(errno)))"))
            }
            if count == 0 { return .success(bytes) }
            bytes += chunk[0..<count]
        }
    }

    /// Why a kept batch is not sent.
    package struct BatchError: Error, CustomStringConvertible {
        package var description: String
    }

    /// Removes the temporary files of processes that are gone (``Spool``'s leftover rule).
    package func removeLeftovers() {
        let own = getpid()
        for name in names() {
            guard let pid = Self.temporaryOwner(of: name), pid != own else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                unlink(path(of: name))
            }
        }
    }

    /// The pid a temporary file's name ends in: `.<sink>.<n>.tmp-<pid>`.
    static func temporaryOwner(of name: String) -> pid_t? {
        name.first == "." ? TemporaryName.owner(of: name) : nil
    }

    /// `00000003.influx` for 3 and `influx`.
    static func name(sequence: Int, sink: String) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits + "." + sink
    }

    /// The sequence number of a batch file of `sink`, or nil for any other name.
    static func sequence(of name: String, sink: String) -> Int? {
        guard name.hasSuffix("." + sink) else { return nil }
        let digits = name.dropLast(sink.utf8.count + 1)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    func path(of name: String) -> String {
        (directory as NSString).appendingPathComponent(name)
    }

    func makeFolder() throws(KeepError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw KeepError(directory: directory, reason: "\(error.localizedDescription)")
        }
    }

    private func names() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    }

    private func failure(_ what: String) -> KeepError {
        KeepError(directory: directory, reason: "\(what): \(String(cString: strerror(errno)))")
    }

    /// Writes the batch to a new temporary file, flushed to disk; returns its path.
    private func writeTemporary(_ batch: [UInt8], for sink: String) throws(KeepError) -> String {
        var temporary: String
        var descriptor: Int32
        var number = 0
        repeat {
            number += 1
            temporary = path(of: TemporaryName.of(".\(sink).\(number)", pid: getpid()))
            beforeStep?("create \(temporary)")
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        } while descriptor < 0 && errno == EEXIST
        guard descriptor >= 0 else { throw failure("open a temporary file") }
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
        guard close(descriptor) == 0 else {
            let error = failure("close")
            unlink(temporary)
            throw error
        }
        return temporary
    }
}
