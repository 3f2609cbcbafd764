import Foundation
import Synchronization

/// The steps of a run that change what is on disk (a file created, renamed, linked or
/// removed while the run publishes), numbered in the order the run takes them, so that the
/// tests can stop a run before any one of them: `AVT_REPLAY_KILL_AT=N` kills the process just
/// before its Nth step (SIGKILL, as a crash or `kill -9` would), `AVT_REPLAY_PAUSE_AT=N` stops
/// it there (SIGSTOP) until the test lets it go on, `AVT_REPLAY_SIGNAL_AT=N` sends it SIGTERM
/// (SIGINT with `AVT_REPLAY_SIGNAL=INT`) there and waits for ``Interruption`` to take it. Each
/// says first on standard error which step it stops before. Without them nothing happens. `AVT_REPLAY_SWITCH=rename` makes a
/// run publish as on a file system that cannot swap two folders (``ReportFolder``).
package enum DiskStep {
    private static let killAt = number(in: "AVT_REPLAY_KILL_AT")
    private static let pauseAt = number(in: "AVT_REPLAY_PAUSE_AT")
    private static let signalAt = number(in: "AVT_REPLAY_SIGNAL_AT")
    private static let signal = ProcessInfo.processInfo.environment["AVT_REPLAY_SIGNAL"] == "INT" ? SIGINT : SIGTERM
    private static let taken = Mutex(0)
    /// Whether report folders are swapped in one step where the file system can.
    static let swapsFolders = ProcessInfo.processInfo.environment["AVT_REPLAY_SWITCH"] != "rename"

    private static func number(in variable: String) -> Int? {
        ProcessInfo.processInfo.environment[variable].flatMap { Int($0) }
    }

    /// Marks the next step, `what` (for the message).
    package static func reach(_ what: @autoclosure () -> String) {
        guard killAt != nil || pauseAt != nil || signalAt != nil else { return }
        let number = taken.withLock { count in
            count += 1
            return count
        }
        if number == killAt {
            printError("avt-replay: AVT_REPLAY_KILL_AT: killed before step \(number), \(what())")
            kill(getpid(), SIGKILL)
        }
        if number == pauseAt {
            printError("avt-replay: AVT_REPLAY_PAUSE_AT: stopped before step \(number), \(what())")
            kill(getpid(), SIGSTOP)
        }
        if number == signalAt {
            printError("avt-replay: AVT_REPLAY_SIGNAL_AT: signalled before step \(number), \(what())")
            Interruption.raiseAndWait(signal)
        }
    }
}
