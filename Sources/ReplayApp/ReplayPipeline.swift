import Foundation
import Replay

/// Encodes and writes the engine's reports on a thread of its own, in the order they are
/// submitted, while the main thread goes on reading, merging and replaying.
///
/// Reports are handed over in batches through a queue of at most `maxBatchesQueued` batches
/// (the main thread waits when it is full), which bounds the memory the pipeline adds.
final class ReplayPipeline: @unchecked Sendable {
    // Confinement: `batch` and `batchOutputs` belong to the main thread; `queue` and `closed`
    // are guarded by `condition`; `reports` and `counts` belong to the writing thread until
    // `finish()` has waited for it.
    private let reports: ReportSet
    private var counts = RunCounts()
    private var batch: [SessionReport] = []
    private var batchOutputs = 0
    private var queue: [[SessionReport]] = []
    private var closed = false
    private var done = false
    private let condition = NSCondition()

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
        condition.lock()
        closed = true
        condition.broadcast()
        while !done { condition.wait() }
        condition.unlock()
        return counts
    }

    private func handOver() {
        guard !batch.isEmpty else { return }
        var handed: [SessionReport] = []
        swap(&handed, &batch)
        batchOutputs = 0
        condition.lock()
        while queue.count >= Self.maxBatchesQueued { condition.wait() }
        queue.append(handed)
        condition.broadcast()
        condition.unlock()
    }

    private func write() {
        condition.lock()
        while true {
            while queue.isEmpty && !closed { condition.wait() }
            if queue.isEmpty { break }
            let next = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            for report in next where reports.includes(report) {
                counts.count(report)
                reports.write(report)
            }
            condition.lock()
        }
        done = true
        condition.broadcast()
        condition.unlock()
    }
}
