import Foundation

/// A spool's lock, held for a whole push, so that two pushes from one spool (two runs, a run
/// and `avt-replay flush`, two flushes) never interleave and never send one spooled batch twice.
///
/// It is `flock(2)` on the file `.lock` in the spool's folder: another push waits for it
/// without using the processor, after ``waiting`` was told once who holds it (the holder writes
/// its pid into the file). The kernel releases it when its holder exits or is killed, so it never
/// goes stale; the file is never removed (a process waiting on a removed file would then hold
/// a lock that no later process sees).
///
/// It is taken lazily: at the start of a push only where the folder exists (where it does not,
/// nothing is spooled yet, and a push that delivers everything leaves no folder behind), else
/// before the first batch is kept, making the folder.
package final class SpoolLock {
    package let spool: Spool
    /// Told once, with the holder's pid where the file names it, when the lock must be waited for.
    package let waiting: (_ holder: pid_t?) -> Void
    private var descriptor: Int32 = -1

    package init(spool: Spool, waiting: @escaping (_ holder: pid_t?) -> Void = { _ in }) {
        self.spool = spool
        self.waiting = waiting
    }

    deinit {
        release()
    }

    /// The lock file of a spool's folder.
    package static func path(in spool: Spool) -> String {
        spool.path(of: ".lock")
    }

    /// Whether this holds the lock.
    package var isHeld: Bool { descriptor >= 0 }

    /// Takes the lock unless it is held already, waiting for another holder to let it go; then
    /// removes the temporary files of processes that are gone. Where the spool's folder does not
    /// exist, makes it if `creatingFolder`, else returns false without locking.
    @discardableResult
    package func take(creatingFolder: Bool) throws(Spool.KeepError) -> Bool {
        if isHeld { return true }
        if creatingFolder {
            try spool.makeFolder()
        } else {
            var status = stat()
            guard stat(spool.directory, &status) == 0 else { return false }
        }
        let file = Self.path(in: spool)
        let descriptor = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("open \(file)") }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK else {
                let error = failure("lock \(file)")
                close(descriptor)
                throw error
            }
            waiting(Self.holder(descriptor))
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let error = failure("lock \(file)")
                    close(descriptor)
                    throw error
                }
            }
        }
        // The pid is only for the message of a process that waits: a disk too full to take it
        // does not keep the lock from working.
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) == 0 {
            _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
        self.descriptor = descriptor
        spool.removeLeftovers()
        return true
    }

    /// Lets the lock go (closing the file releases it); the file stays.
    package func release() {
        guard isHeld else { return }
        close(descriptor)
        descriptor = -1
    }

    /// The pid the holder wrote into the lock file, if it did yet.
    private static func holder(_ descriptor: Int32) -> pid_t? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return pid_t(text).flatMap { $0 > 0 ? $0 : nil }
    }

    private func failure(_ what: String) -> Spool.KeepError {
        Spool.KeepError(directory: spool.directory, reason: "\(what): \(String(cString: strerror(errno)))")
    }
}
