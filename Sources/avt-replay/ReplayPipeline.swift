import Foundation
import Replay

/// Replays closed sessions and writes their reports on a second thread while the main
/// thread goes on reading, in closing order.
///
/// Sessions are handed over in batches through a queue of at most `maxBatchesQueued`
/// batches (the reading thread waits when it is full), which bounds the memory the pipeline
/// adds. One worker thread, not a pool: reading and decoding keep the other core busy, and
/// a pool's threads and malloc arenas made peak memory grow with the length of the input
/// (measured with scripts/memory-test.sh).
final class ReplayPipeline: @unchecked Sendable {
    // Confinement: `reports` and `counts` are touched only by the worker until `finish`
    // joins it; `batch` only by the reading thread; `queue` and `closed` under `condition`.
    private let reports: ReportSet
    private var counts = RunCounts()
    private var batch: [ClosedSession] = []
    private var batchRecords = 0
    private var queue: [[ClosedSession]] = []
    private var closed = false
    private let condition = NSCondition()
    private let finished = DispatchSemaphore(value: 0)

    /// Sessions handed over together, and the records they may hold at most.
    static let batchSize = 64
    static let batchRecords = 2_048
    static let maxBatchesQueued = 2

    init(reports: ReportSet) {
        self.reports = reports
        let worker = Thread { [self] in work() }
        worker.name = "avt-replay.replay"
        worker.start()
    }

    /// Takes closed sessions, in closing order.
    func submit(_ sessions: [ClosedSession]) {
        for session in sessions {
            batch.append(session)
            batchRecords += session.records.count
            if batch.count >= Self.batchSize || batchRecords >= Self.batchRecords { handOver() }
        }
    }

    /// Replays and writes everything submitted, then returns what was written, counted.
    func finish() -> RunCounts {
        handOver()
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
        finished.wait()
        return counts
    }

    private func handOver() {
        guard !batch.isEmpty else { return }
        condition.lock()
        while queue.count >= Self.maxBatchesQueued { condition.wait() }
        queue.append(batch)
        condition.broadcast()
        condition.unlock()
        batch = []
        batchRecords = 0
    }

    private func work() {
        while true {
            condition.lock()
            while queue.isEmpty && !closed { condition.wait() }
            if queue.isEmpty {
                condition.unlock()
                finished.signal()
                return
            }
            let sessions = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            for session in sessions {
                let report = session.replay()
                counts.count(report)
                reports.write(report)
            }
        }
    }
}
