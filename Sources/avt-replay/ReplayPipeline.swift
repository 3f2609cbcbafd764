import Dispatch
import Replay

/// Replays closed sessions on every core while the main thread goes on reading, and writes
/// their reports in closing order.
///
/// Sessions are handed over in batches; each batch is replayed with `concurrentPerform`
/// on a background queue, and written by a serial queue that takes the batches in the
/// order they were submitted. At most `maxBatchesInFlight` batches are held at once, which
/// bounds the memory the pipeline adds.
final class ReplayPipeline: @unchecked Sendable {
    // Confinement: `reports` and `counts` are touched only on `writer`, `batch` only on the
    // thread that calls `submit` and `finish`.
    private let reports: ReportSet
    private var counts: RunCounts
    private var batch: [ClosedSession] = []
    private let workers = DispatchQueue(label: "avt-replay.replay", attributes: .concurrent)
    private let writer = DispatchQueue(label: "avt-replay.write")
    private let inFlight: DispatchSemaphore

    /// Sessions replayed together.
    static let batchSize = 64
    static let maxBatchesInFlight = 4

    init(reports: ReportSet) {
        self.reports = reports
        self.counts = RunCounts()
        self.inFlight = DispatchSemaphore(value: Self.maxBatchesInFlight)
    }

    /// Takes closed sessions, in closing order.
    func submit(_ sessions: [ClosedSession]) {
        batch += sessions
        if batch.count >= Self.batchSize { flush() }
    }

    /// Replays and writes everything submitted, then returns what was written, counted.
    func finish() -> RunCounts {
        flush()
        return writer.sync { counts }
    }

    private func flush() {
        guard !batch.isEmpty else { return }
        let sessions = batch
        batch = []
        inFlight.wait()
        let done = DispatchSemaphore(value: 0)
        let results = ResultSlots(count: sessions.count)
        workers.async {
            DispatchQueue.concurrentPerform(iterations: sessions.count) { index in
                results.store(sessions[index].replay(), at: index)
            }
            done.signal()
        }
        writer.async { [self] in
            done.wait()
            for report in results.reports {
                counts.count(report)
                reports.write(report)
            }
            inFlight.signal()
        }
    }
}

/// Reports written by several threads, each into its own slot.
private final class ResultSlots: @unchecked Sendable {
    // Each index is written once by one thread before `done` is signalled, and read only after.
    private var slots: [SessionReport?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func store(_ report: SessionReport, at index: Int) {
        slots.withUnsafeMutableBufferPointer { $0[index] = report }
    }

    var reports: [SessionReport] { slots.compactMap { $0 } }
}
