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
    private var batch: [SessionReport] = []
    private var batchOutputs = 0
    private let queue = BoundedQueue<[SessionReport]>(capacity: ReplayPipeline.maxBatchesQueued)
    private let written = BoundedQueue<RunCounts>(capacity: 1)

    /// Outputs (rows, trace lines, points) handed over together, and batches queued at most.
    static let batchOutputs = 4_096
    static let maxBatchesQueued = 4

    init(reports: ReportSet) {
        self.reports = reports
        let writer = Thread { [self] in write() }
        writer.name = "avt-replay.write"
        writer.start()
    }

    /// Takes reports, in order.
    func submit(_ handed: consuming [SessionReport]) {
        for report in handed {
            batchOutputs +=
                report.points.count + report.trace.count + report.playbacks.count + report.vpSessions.count
                + report.marconiItems.count + 1
            batch.append(report)
        }
        if batchOutputs >= Self.batchOutputs { handOver() }
    }

    /// Writes everything submitted, then returns what was written, counted.
    func finish() -> RunCounts {
        handOver()
        queue.finish()
        // The writing thread puts its counts once it has written every batch.
        guard let counts = written.take() else { preconditionFailure("the writing thread ended without its counts") }
        return counts
    }

    private func handOver() {
        guard !batch.isEmpty else { return }
        var handed: [SessionReport] = []
        swap(&handed, &batch)
        batchOutputs = 0
        queue.put(handed)
    }

    private func write() {
        var counts = RunCounts()
        while let next = queue.take() {
            for report in next where reports.includes(report) {
                counts.count(report)
                reports.write(report)
            }
        }
        written.put(counts)
    }
}
