import Foundation
import ProcessFiles

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
    private var file: LockFile?

    package init(spool: Spool, waiting: @escaping (_ holder: pid_t?) -> Void = { _ in }) {
        self.spool = spool
        self.waiting = waiting
    }

    /// The lock file of a spool's folder.
    package static func path(in spool: Spool) -> String {
        spool.path(of: ".lock")
    }

    /// Whether this holds the lock.
    package var isHeld: Bool { file != nil }

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
        do {
            file = try LockFile(path: Self.path(in: spool), waiting: waiting)
        } catch {
            switch error {
            case .failed(let reason):
                throw Spool.KeepError(directory: spool.directory, reason: reason)
            case .held(let holder):
                // Not thrown to a process that waits; said all the same, should it be.
                throw Spool.KeepError(directory: spool.directory, reason: "its lock is held by pid \(holder ?? 0)")
            }
        }
        spool.removeLeftovers()
        return true
    }

    /// Lets the lock go (closing the file releases it); the file stays.
    package func release() {
        file = nil
    }
}
