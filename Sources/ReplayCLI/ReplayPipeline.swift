import Foundation
import Replay

/// Replays closed sessions on worker threads while the main thread goes on decoding and
/// routing records, and writes their reports in closing order.
///
/// Sessions are handed over in small batches through a queue of at most `maxBatchesQueued`
/// batches (the main thread waits when it is full), which bounds the memory the pipeline
/// adds. Two workers replay batches; whichever finishes the batch that is next in order writes
/// it, and any finished batches after it, so writing is ordered and never concurrent.
/// Measured: replaying and encoding were two thirds of the work and reading one third, so one
/// worker left a core idle a third of the time; a pool of many threads made peak memory grow
/// with the length of the input (their malloc arenas), so the workers are few and the batches
/// small (`scripts/memory-test.sh`).
final class ReplayPipeline: @unchecked Sendable {
    // Confinement: `batch` and `batchRecords` belong to the main thread; everything else
    // is guarded by `condition`, except `reports` and `counts`, which only the thread that set
    // `isWriting` touches until it clears it.
    private let reports: ReportSet
    private var counts = RunCounts()
    private var batch: [ClosedSession] = []
    private var batchRecords = 0
    private var queue: [(sequence: Int, sessions: [ClosedSession])] = []
    private var replayed: [Int: [SessionReport]] = [:]
    private var nextToQueue = 0
    private var nextToWrite = 0
    private var isWriting = false
    private var busyWorkers = 0
    private var closed = false
    private let condition = NSCondition()

    /// Sessions handed over together, and the records they may hold at most. Measured at 1M
    /// records (mean of 5 runs): batches of 64 sessions or 2,048 records kept 1.65 of the two
    /// cores busy, these 1.70 (each hand-over wakes a worker, and waking costs), twice these
    /// 1.74 but with too little room left under `scripts/memory-test.sh`'s limit.
    static let batchSize = 128
    static let batchRecords = 4_096
    static let maxBatchesQueued = 2
    static let workers = 2

    init(reports: ReportSet) {
        self.reports = reports
        for index in 0..<Self.workers {
            let worker = Thread { [self] in work() }
            worker.name = "avt-replay.replay.\(index)"
            worker.start()
        }
    }

    /// Takes closed sessions, in closing order.
    ///
    /// Sessions are moved, never copied, from here to the worker that replays them: a worker
    /// takes each record out of its session only when nothing else holds the session's records
    /// (see ``ClosedSession/replay()``); otherwise it would copy them all.
    func submit(_ sessions: consuming [ClosedSession]) {
        sessions.reverse()
        while let session = sessions.popLast() {
            batchRecords += session.recordCount
            batch.append(consume session)
            if batch.count >= Self.batchSize || batchRecords >= Self.batchRecords { handOver() }
        }
    }

    /// Replays and writes everything submitted, then returns what was written, counted.
    func finish() -> RunCounts {
        handOver()
        condition.lock()
        closed = true
        condition.broadcast()
        while nextToWrite < nextToQueue || isWriting || busyWorkers > 0 { condition.wait() }
        condition.unlock()
        return counts
    }

    private func handOver() {
        guard !batch.isEmpty else { return }
        var handed: [ClosedSession] = []
        swap(&handed, &batch)
        batchRecords = 0
        condition.lock()
        while queue.count >= Self.maxBatchesQueued { condition.wait() }
        queue.append((nextToQueue, consume handed))
        nextToQueue += 1
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        condition.lock()
        while true {
            while queue.isEmpty && !closed { condition.wait() }
            if queue.isEmpty { break }
            let (sequence, sessions) = queue.removeFirst()
            busyWorkers += 1
            condition.broadcast()
            condition.unlock()
            let result = (consume sessions).replayed()
            condition.lock()
            busyWorkers -= 1
            replayed[sequence] = result
            writeInOrder()
            condition.broadcast()
        }
        condition.unlock()
    }

    /// Writes the finished batches that are next in order; called with `condition` locked.
    private func writeInOrder() {
        guard !isWriting else { return }
        isWriting = true
        while let ready = replayed.removeValue(forKey: nextToWrite) {
            condition.unlock()
            for report in ready where reports.includes(report) {
                counts.count(report)
                reports.write(report)
            }
            condition.lock()
            nextToWrite += 1
        }
        isWriting = false
    }
}
