/// What a replay leaves: its status and counts and, once its reports are published, the new
/// state waiting to be committed. It holds the locks of the report folder and the state until
/// ``end()``, so that the push and `run.json` of the run come before any other run's.
package final class RunOutcome {
    package var status: ExitStatus
    package var counts: RunCounts
    /// The report folder, when its lock was taken (`nil`: another run holds it, or it cannot
    /// be a report folder).
    private var folder: ReportFolder?
    /// The state file, locked until ``end()``.
    private var state: StateFile?
    /// Whether a new state waits for ``commitState()``.
    package private(set) var hasStagedState: Bool
    private let replacesLastRun: Bool
    /// Whether the run's reports replaced the previous ones.
    package let published: Bool

    init(
        status: ExitStatus, counts: RunCounts = RunCounts(), folder: ReportFolder? = nil, state: StateFile? = nil,
        replacesLastRun: Bool = false
    ) {
        self.status = status
        self.counts = counts
        self.folder = folder
        self.state = state
        hasStagedState = state != nil
        self.replacesLastRun = replacesLastRun
        published = status == .success || status == .inputSkipped
        committing = published
    }

    /// Whether this run holds a report folder that was there before it: then a run that
    /// failed may write its `run.json` there (a run that fails creates no folder).
    package var holdsFolder: Bool { folder?.existed ?? false }

    /// Puts the new state in place (``StateFile``), once the run's metrics are delivered or
    /// kept: from then on its inputs count as consumed.
    package func commitState() throws(AtomicFile.WriteError) {
        guard hasStagedState else { return }
        hasStagedState = false
        try state?.commit(replacingLastRun: replacesLastRun)
    }

    /// Drops the new state: the state file stays the one before this run, so that the same run
    /// can be made again (its metrics were lost).
    package func keepPreviousState() {
        hasStagedState = false
        state?.discard()
    }

    /// Whether the run's commit (``Interruption/beginCommit()``) is still to be ended.
    private var committing: Bool

    /// Lets the locks go, and ends the run's commit: a signal that came meanwhile ends the
    /// process now.
    package func end() {
        state?.discard()
        state = nil
        folder = nil
        if committing {
            committing = false
            Interruption.endCommit()
        }
    }
}
