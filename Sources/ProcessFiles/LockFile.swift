import Foundation

/// An exclusive lock on a file that holds the pid of the process that has it: `flock(2)`, which
/// the kernel lets go of when that process ends, however it ends, so a lock is never left behind
/// by a killed run. The file itself stays (removing it would let a later process lock another
/// file of the same name while one waits on the removed one).
package final class LockFile {
    private let descriptor: Int32

    /// Why a lock was not taken.
    package enum Failure: Error {
        /// Another process holds it (its pid, when it wrote it yet); only without waiting.
        case held(by: pid_t?)
        /// The file could not be opened or locked: what failed, with the system's reason.
        case failed(String)
    }

    /// Takes the lock on `path` (the file made if missing) and writes this process's pid into
    /// it. Held by another process, it throws ``Failure/held(by:)``; or, with `waiting`, tells
    /// `waiting` once who holds it and waits for it, without using the processor.
    package init(path: String, waiting: ((_ holder: pid_t?) -> Void)? = nil) throws(Failure) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .failed("open \(path): \(String(cString: strerror(errno)))") }
        var told = false
        while flock(descriptor, LOCK_EX | (told ? 0 : LOCK_NB)) != 0 {
            let error = errno
            if error == EINTR { continue }
            guard error == EWOULDBLOCK, !told else {
                close(descriptor)
                throw .failed("lock \(path): \(String(cString: strerror(error)))")
            }
            let holder = Self.holder(descriptor)
            guard let waiting else {
                close(descriptor)
                throw .held(by: holder)
            }
            waiting(holder)
            told = true
        }
        self.descriptor = descriptor
        // The pid is only for the message of another process: a disk too full to take it does
        // not keep the lock from working.
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) == 0 {
            _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
    }

    deinit {
        close(descriptor)
    }

    /// The pid the holder wrote into the lock file, if it did yet.
    private static func holder(_ descriptor: Int32) -> pid_t? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return pid_t(text).flatMap { $0 > 0 ? $0 : nil }
    }
}
