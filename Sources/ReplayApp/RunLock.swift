import ProcessFiles

/// The lock one run holds on a report folder or a state file (``LockFile``), so that two runs
/// never interleave their writes: another run is refused at once, told who holds it.
package final class RunLock {
    private let file: LockFile

    /// Why a lock was not taken: held by another run, or the lock file cannot be made.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        /// Whether another run holds it (else: the file could not be opened or locked).
        package var isHeld: Bool
    }

    /// Takes the lock at `path` at once, or throws: a lock another run holds is named with that
    /// run's pid, and `what` (`"the reports in out/"`). The lock file is removed when the lock
    /// is let go: a run leaves none behind.
    package init(path: String, for what: String) throws(Failure) {
        do {
            file = try LockFile(path: path, removedWhenReleased: true)
        } catch {
            switch error {
            case .held(let holder):
                let who = holder.map { "another avt-replay run (pid \($0))" } ?? "another avt-replay run"
                throw Failure(
                    description: "\(who) is writing \(what) (it holds \(path)); nothing was written. "
                        + "Run again once it has ended.",
                    isHeld: true)
            case .failed(let reason):
                throw Failure(description: "cannot take the lock: \(reason)", isHeld: false)
            }
        }
    }

    /// Lets the lock go and removes its file; the lock's end does it too.
    package func release() {
        file.release()
    }
}
