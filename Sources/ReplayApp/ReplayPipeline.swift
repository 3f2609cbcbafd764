import Foundation
import Replay

/// Encodes and writes the engine's reports on a thread of its own, in the order they are
/// submitted, while the main thread goes on reading, merging and replaying.
///
/// Reports are handed over in batches through a queue of at most `maxBatchesQueued` batches
/// (the main thread waits when it is full), which bounds the memory the pipeline adds.
final class ReplayPipeline: @unchecked Sendable {
    // Confinement: `batch` and `batchOutputs` belong to the main thread; `reports` and `counts`
    // to the writing thread, which hands `counts` back through `written` when it is done.
    private let reports: ReportSet
    /// The lists submitted since the last hand-over, kept as they came: appending their
    /// reports to one array copied each (a retain and a release of each of its rows' and
    /// points' references).
    private var batch: [[SessionReport]] = []
    private var batchOutputs = 0
    private let queue = BoundedQueue<[[SessionReport]]>(capacity: ReplayPipeline.maxBatchesQueued)
    private let written = BoundedQueue<RunCounts>(capacity: 1)
    /// Batches written, for the freeing thread to destroy, when there is one; then `freed`
    /// says it is done.
    private let spent: BoundedQueue<[[SessionReport]]>?
    private let freed = BoundedQueue<Bool>(capacity: 1)

    /// Outputs (rows, trace lines, points) handed over together, and batches queued at most.
    static let batchOutputs = 4_096
    static let maxBatchesQueued = 4

    /// A pipeline into `reports`. `freesOnAThreadOfItsOwn`: the reports written are destroyed
    /// on a third thread: freeing what the engines' threads allocated for a report (its rows,
    /// points and trace) took the writing thread as long as writing it, and the writing thread
    /// is one for the whole run.
    init(reports: ReportSet, freesOnAThreadOfItsOwn: Bool = false) {
        self.reports = reports
        spent = freesOnAThreadOfItsOwn ? BoundedQueue(capacity: Self.maxBatchesQueued) : nil
        Thread.start(named: "avt-write") { [self] in write() }
        if let spent {
            Thread.start(named: "avt-free") { [spent, freed] in
                while spent.take() != nil {}
                freed.put(true)
            }
        }
    }

    /// Takes reports, in order.
    func submit(_ handed: consuming [SessionReport]) {
        for index in handed.indices {
            batchOutputs +=
                handed[index].points.count + handed[index].trace.count + handed[index].playbacks.count
                + handed[index].vpSessions.count + handed[index].marconiItems.count + 1
        }
        batch.append(handed)
        if batchOutputs >= Self.batchOutputs { handOver() }
    }

    /// Writes everything submitted, then returns what was written, counted.
    func finish() -> RunCounts {
        handOver()
        queue.finish()
        // The writing thread puts its counts once it has written every batch.
        guard let counts = written.take() else { preconditionFailure("the writing thread ended without its counts") }
        if spent != nil { _ = freed.take() }
        return counts
    }

    private func handOver() {
        guard !batch.isEmpty else { return }
        var handed: [[SessionReport]] = []
        swap(&handed, &batch)
        batchOutputs = 0
        queue.put(handed)
    }

    private func write() {
        var counts = RunCounts()
        while let next = queue.take() {
            // Read where they lie: `for report in list` copied each report out.
            for list in next.indices {
                for index in next[list].indices where reports.includes(next[list][index]) {
                    counts.count(next[list][index])
                    reports.write(next[list][index])
                }
            }
            spent?.put(next)
        }
        spent?.finish()
        written.put(counts)
    }
}
