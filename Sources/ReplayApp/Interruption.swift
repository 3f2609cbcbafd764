import Foundation
import Synchronization

/// What a run does when it is told to stop (SIGINT from the terminal's Ctrl-C, SIGTERM from
/// `kill`, systemd or cron's timeout): it removes what it was writing and exits with
/// 128 + the signal (130, 143), saying in one line that the previous reports and state are as
/// they were.
///
/// The signals are blocked in every thread (``install()`` runs before the first thread of
/// the program starts, and threads inherit the mask) and taken by a thread of their own with
/// `sigwait`, so that the removals run as ordinary code, not in a signal handler. Each
/// temporary place (the workspace of a report folder, a staged state, `check`'s temporary
/// folder) registers its removal while it exists. While a run commits (``beginCommit()``: the
/// new set switched in, the metrics pushed, the state moved on, `run.json`), a signal waits
/// for the commit to end, so that the reports and the state always move together; the run
/// then exits as interrupted, saying that they are this run's.
package enum Interruption {
    private struct Registry {
        var removals: [Int: @Sendable () -> Void] = [:]
        var nextToken = 0
        var commits = 0
        var pending: Int32?
        /// The signals taken and left pending until a commit ends (``raiseAndWait(_:)``).
        var deferred = 0
    }

    private static let registry = Mutex(Registry())
    private static let signals: [Int32] = [SIGINT, SIGTERM]

    /// Blocks SIGINT and SIGTERM in this thread, and so in every thread it starts, and starts
    /// the thread that takes them. Call it once, before any other thread starts.
    package static func install() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let waiting = set
        let thread = Thread {
            var set = waiting
            while true {
                var signal: Int32 = 0
                guard sigwait(&set, &signal) == 0 else { continue }
                stop(signal)
            }
        }
        thread.name = "avt-signals"
        thread.start()
    }

    /// Registers what removes a temporary place of the run; returns the token that
    /// ``unregister(_:)`` takes once the place is gone or kept.
    package static func register(_ removal: @escaping @Sendable () -> Void) -> Int {
        registry.withLock { registry in
            registry.nextToken += 1
            registry.removals[registry.nextToken] = removal
            return registry.nextToken
        }
    }

    package static func unregister(_ token: Int) {
        _ = registry.withLock { $0.removals.removeValue(forKey: token) }
    }

    /// Marks the start of a commit: a signal from now on waits for ``endCommit()``.
    package static func beginCommit() {
        registry.withLock { $0.commits += 1 }
    }

    /// Marks the end of a commit; a signal that came meanwhile ends the run now.
    package static func endCommit() {
        let pending: Int32? = registry.withLock { registry in
            registry.commits -= 1
            return registry.commits == 0 ? registry.pending : nil
        }
        if let pending {
            exit(
                pending,
                "interrupted (\(name(of: pending))) as it committed: the reports and state are this run's, complete")
        }
    }

    private static func stop(_ signal: Int32) {
        let committing = registry.withLock { registry in
            if registry.commits > 0 {
                registry.pending = registry.pending ?? signal
                registry.deferred += 1
            }
            return registry.commits > 0
        }
        if committing {
            printError(
                "avt-replay: \(name(of: signal)): the run is committing its reports and state; it stops once they "
                    + "are in place")
            return
        }
        exit(signal, "interrupted (\(name(of: signal))): the previous reports and state are as they were")
    }

    /// Sends this process `signal` and waits for the signals' thread to take it: the process
    /// then ends, or (during a commit) goes on with the signal pending. For the tests, at a
    /// numbered step (``DiskStep``'s `AVT_REPLAY_SIGNAL_AT`).
    static func raiseAndWait(_ signal: Int32) {
        let before = registry.withLock { $0.deferred }
        kill(getpid(), signal)
        while registry.withLock({ $0.deferred }) == before { sched_yield() }
    }

    /// Removes every temporary place registered, newest first, says why the run ends, and
    /// exits with 128 + the signal.
    private static func exit(_ signal: Int32, _ message: String) -> Never {
        let removals = registry.withLock { $0.removals.sorted { $0.key > $1.key }.map(\.value) }
        for removal in removals { removal() }
        printError("avt-replay: \(message)")
        _exit(128 + signal)
    }

    private static func name(of signal: Int32) -> String {
        signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)"
    }
}
