import Foundation

/// An exclusive lock that one run holds on a report folder, a state file or a spool, so that
/// two runs never interleave their writes: `flock(2)` on a lock file, which holds the pid of
/// the run that has it. The kernel lets go of it when that process ends, however it ends, so
/// a lock is never left behind by a killed run; the lock file itself stays (removing it would
/// let a third run lock another file of the same name).
package final class RunLock {
    private let descriptor: Int32

    /// Why a lock was not taken: held by another run, or the lock file cannot be made.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        /// Whether another run holds it (else: the file could not be opened or locked).
        package var isHeld: Bool
    }

    /// Takes the lock at `path` (created if missing) at once, or throws: a lock another run
    /// holds is named with that run's pid, and `what` (`"the reports in out/"`).
    package init(path: String, for what: String) throws(Failure) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw Failure(
                description: "cannot open the lock file \(path): \(String(cString: strerror(errno)))", isHeld: false)
        }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let error = errno
            let holder = Self.holder(descriptor)
            close(descriptor)
            guard error == EWOULDBLOCK else {
                throw Failure(
                    description: "cannot lock \(path): \(String(cString: strerror(error)))", isHeld: false)
            }
            let who = holder.map { "another avt-replay run (pid \($0))" } ?? "another avt-replay run"
            throw Failure(
                description: "\(who) is writing \(what) (it holds \(path)); nothing was written. "
                    + "Run again once it has ended.",
                isHeld: true)
        }
        self.descriptor = descriptor
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) == 0 {
            _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
    }

    deinit {
        close(descriptor)
    }

    /// The pid the lock file holds, if any.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
