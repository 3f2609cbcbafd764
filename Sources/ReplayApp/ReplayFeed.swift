import CMemoryHints
import EventLog
import EventModel
import Foundation
import Replay
import ReportEncoding

/// Runs a replay on three threads: a reading thread reads, decodes and merges the inputs
/// (``InputReader``); the calling thread replays the records in order (``ReplayEngine``) and
/// notes the problems; the pipeline's thread encodes and writes the reports (``ReplayPipeline``).
///
/// Only the items cross from the reading thread, in batches, through a queue of at most
/// ``maxBatchesQueued`` batches: records are moved, never copied. Problems travel in the same
/// stream as records, so that `rejects.jsonl` lists them in one order, whatever the threads do.
struct ReplayFeed {
    /// What the reading thread hands over.
    enum Item {
        /// A record to replay; `late` when it came after a record already replayed was
        /// handed over (it does not move the replay's clock).
        case record(Record, SourcePosition, late: Bool)
        /// A rejected line, or a file that could not be read whole.
        case problem(InputProblem)
    }

    /// How many problems are printed before the rest are only counted.
    static let problemsShown = 10
    static let batchSize = 2_048
    static let maxBatchesQueued = 4
    static let prefetchDistance = 8
    /// The cache lines of a record's attributes prefetched: most records' whole attributes.
    static let linesPrefetched: UInt = 3

    var engine: ReplayEngine
    let reports: ReportSet
    let pipeline: ReplayPipeline
    let quiet: Bool
    /// What the replay counted: problems, late records rejected.
    var counts = RunCounts()
    /// The records of each input rejected as late, by rank.
    var lateRejected: [Int]
    /// The problems with whole files, as printed (`file: reason`), in order.
    var fileProblems: [String] = []
    private let names: [String]

    init(engine: ReplayEngine, reports: ReportSet, pipeline: ReplayPipeline, quiet: Bool, names: [String]) {
        self.engine = engine
        self.reports = reports
        self.pipeline = pipeline
        self.quiet = quiet
        self.names = names
        lateRejected = Array(repeating: 0, count: names.count)
    }

    /// Reads with `reader` on a thread of its own while this thread replays what it hands
    /// over; returns the reader when it is done.
    mutating func run(_ reader: consuming InputReader) -> InputReader {
        let queue = ItemQueue()
        let box = ReaderBox(reader)
        let thread = Thread { [box, queue] in
            var batch: [Item?] = []
            batch.reserveCapacity(Self.batchSize)
            box.reader.run { item in
                batch.append(item)
                if batch.count >= Self.batchSize {
                    // Handed over as the only reference: the replaying thread takes the items
                    // out of it in place, which a second reference would make it copy.
                    var full: [Item?] = []
                    full.reserveCapacity(Self.batchSize)
                    swap(&full, &batch)
                    queue.put(consume full)
                }
            }
            if !batch.isEmpty {
                var last: [Item?] = []
                swap(&last, &batch)
                queue.put(consume last)
            }
            queue.finish()
        }
        thread.name = "avt-replay.read"
        thread.start()
        while var batch = queue.take() {
            // Each item moved out of the batch, not copied.
            for index in batch.indices {
                if index + Self.prefetchDistance < batch.count,
                    case .record(let record, _, _)? = batch[index + Self.prefetchDistance],
                    case let address = record.attributesStorageAddress, address != 0
                {
                    for line in 0..<Self.linesPrefetched {
                        avt_prefetch(UnsafeRawPointer(bitPattern: address + 64 * line))
                    }
                }
                if let item = batch[index].take() { take(item) }
            }
        }
        return box.reader
    }

    /// Replays a record, or notes a problem.
    private mutating func take(_ item: consuming Item) {
        switch consume item {
        case .record(let record, let position, let late):
            counts.replayed += 1
            switch engine.add(record, at: position, movesFrontier: !late) {
            case .replayed(let due):
                if !due.isEmpty { pipeline.submit(due) }
            case .late(let by, let record, let due):
                if !due.isEmpty { pipeline.submit(due) }
                counts.replayed -= 1
                var excerpt: [UInt8] = []
                EventLogEncoder.encode(record, into: &excerpt)
                if excerpt.last == UInt8(ascii: "\n") { excerpt.removeLast() }
                let known = names.indices.contains(position.fileRank)
                if known { lateRejected[position.fileRank] += 1 }
                let name = known ? names[position.fileRank] : "<state>"
                note(.late(RejectedLine(file: name, line: position.line, reason: "late", excerpt: excerpt), by: by))
            }
        case .problem(let problem):
            note(problem)
        }
    }

    /// Counts a problem, writes it to `rejects.jsonl` and prints it: every problem with a
    /// whole file, and the first ``problemsShown`` problems with lines.
    mutating func note(_ problem: InputProblem) {
        switch problem {
        case .line: counts.rejectedLines += 1
        case .late: counts.lateRejected += 1
        case .file:
            counts.damagedFiles += 1
            fileProblems.append(problem.message)
        }
        reports.write(problem)
        guard !quiet else { return }
        if case .file = problem {
            printError("avt-replay: \(problem.message)")
        } else if counts.lineProblems <= Self.problemsShown {
            printError("avt-replay: \(problem.message)")
        }
    }

    /// The reader, on the reading thread until it is done, then back to the caller.
    ///
    /// Unchecked: only the reading thread touches `reader` until it calls
    /// ``ItemQueue/finish()``; the caller reads it only after ``ItemQueue/take()`` returned
    /// `nil`, which the queue's lock orders after `finish()`.
    private final class ReaderBox: @unchecked Sendable {
        var reader: InputReader
        init(_ reader: consuming InputReader) { self.reader = reader }
    }

    /// Batches of items from the reading thread to the replaying one.
    ///
    /// Unchecked: every stored property is read and written with `condition` locked.
    private final class ItemQueue: @unchecked Sendable {
        // Guarded by `condition`.
        private var batches: [[Item?]] = []
        private var finished = false
        private let condition = NSCondition()

        func put(_ batch: consuming [Item?]) {
            condition.lock()
            while batches.count >= ReplayFeed.maxBatchesQueued { condition.wait() }
            batches.append(batch)
            condition.broadcast()
            condition.unlock()
        }

        func finish() {
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }

        /// The next batch, or `nil` once the reading thread is done and every batch was taken.
        func take() -> [Item?]? {
            condition.lock()
            defer { condition.unlock() }
            while batches.isEmpty && !finished { condition.wait() }
            guard !batches.isEmpty else { return nil }
            let batch = batches.removeFirst()
            condition.broadcast()
            return batch
        }
    }
}
