import Foundation

/// The steps of publishing a run where the tests kill it (`AVT_REPLAY_KILL_AT=<step>`), to
/// check that a run killed there leaves reports and a state a later run can go on from.
/// Without the variable nothing happens.
enum KillPoint: String {
    /// Every report complete beside its target; the state not written yet.
    case staged
    /// The state written; the reports not published yet.
    case stateWritten = "state-written"

    /// Kills the process (SIGKILL, as a crash or `kill -9` would) when `AVT_REPLAY_KILL_AT`
    /// names this step.
    func reach() {
        guard ProcessInfo.processInfo.environment["AVT_REPLAY_KILL_AT"] == rawValue else { return }
        kill(getpid(), SIGKILL)
    }
}
