import CMemoryHints
import EventLog
import EventModel
import Foundation
import Replay
import ReportEncoding

/// What a replay does with the lives open when the input ends.
enum ReplayEnding {
    /// Ends them all (``ReplayEngine/finish(_:)``).
    case finish
    /// Hands over what they have pending and keeps them for the next run, `--state`
    /// (``ReplayEngine/handOverPending(_:)``).
    case handOverPending
}

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
        /// A record to replay, at its place in the merged stream; `movesClock` false for one
        /// ahead of every input's clock (``EventTimeMerge/Released``).
        case record(Record, StreamPlace, movesClock: Bool)
        /// A rejected line, or a file that could not be read whole.
        case problem(InputProblem)
        /// The clock moved to the time the merged stream ends at, before the records ahead of
        /// every input's clock: the other lives' flushes and ends due by then come out first.
        case advance(Timestamp)

        /// A record's ``Record/attributesStorageAddress``; 0 for other items.
        var attributesStorageAddress: UInt {
            guard case .record(let record, _, _) = self else { return 0 }
            return record.attributesStorageAddress
        }
    }

    static let batchSize = 2_048
    static let maxBatchesQueued = 4
    static let prefetchDistance = 8
    /// The cache lines of a record's attributes prefetched: most records' whole attributes.
    static let linesPrefetched: UInt = 3

    /// Items handed from the reading thread to the replaying one, with each record's
    /// ``Record/attributesStorageAddress`` (0 for other items), noted as it was read: read from
    /// the item in the batch, to prefetch, it was copied out (a retain and a release of each
    /// of its references).
    private struct Batch {
        var items: [Item?] = []
        var attributeAddresses: [UInt] = []

        init() {
            items.reserveCapacity(ReplayFeed.batchSize)
            attributeAddresses.reserveCapacity(ReplayFeed.batchSize)
        }
    }

    var engine: ReplayEngine
    let pipeline: ReplayPipeline
    /// The problems noted, counted.
    var problems: ProblemLog

    init(engine: consuming ReplayEngine, pipeline: ReplayPipeline, problems: consuming ProblemLog) {
        self.engine = engine
        self.pipeline = pipeline
        self.problems = problems
    }

    /// Reads with `reader` on a thread of its own while this thread replays what it hands
    /// over, then ends the replay as `ending` says; returns the reader when it is done.
    mutating func run(_ reader: consuming InputReader, ending: ReplayEnding) -> InputReader {
        let queue = BoundedQueue<Batch>(capacity: Self.maxBatchesQueued)
        let box = ThreadBox(reader)
        defer {
            // The clock where one run's last record leaves it (a shard's last own record may be earlier).
            if let end = box.value.merge.endTime {
                let due = engine.advance(to: end)
                if !due.isEmpty { pipeline.submit(due) }
            }
            switch ending {
            case .finish: engine.finish { pipeline.submit([$0]) }
            case .handOverPending: engine.handOverPending { pipeline.submit([$0]) }
            }
        }
        Thread.start(named: "avt-read") { [box, queue] in
            var batch = Batch()
            box.value.run { item in
                batch.attributeAddresses.append(item.attributesStorageAddress)
                batch.items.append(consume item)
                if batch.items.count >= Self.batchSize {
                    // Handed over as the only reference: the replaying thread takes the items
                    // out of it in place, which a second reference would make it copy.
                    var full = Batch()
                    swap(&full, &batch)
                    queue.put(consume full)
                }
            }
            if !batch.items.isEmpty {
                var last = Batch()
                swap(&last, &batch)
                queue.put(consume last)
            }
            queue.finish()
        }
        while var batch = queue.take() {
            // Each item moved out of the batch, not copied.
            for index in batch.items.indices {
                if index + Self.prefetchDistance < batch.items.count,
                    case let address = batch.attributeAddresses[index + Self.prefetchDistance], address != 0
                {
                    for line in 0..<Self.linesPrefetched {
                        avt_prefetch(UnsafeRawPointer(bitPattern: address + 64 * line))
                    }
                }
                if let item = batch.items[index].take() { take(item) }
            }
        }
        return box.value
    }

    /// Replays a record, or notes a problem.
    private mutating func take(_ item: consuming Item) {
        switch consume item {
        case .record(let record, let place, let movesClock):
            problems.counts.replayed += 1
            switch engine.add(consume record, at: place, movesClock: movesClock) {
            case .replayed(let due):
                if !due.isEmpty { pipeline.submit(due) }
            case .late(let by, let record, let due):
                if !due.isEmpty { pipeline.submit(due) }
                problems.noteLate(ProblemLog.LateRecord(record, by: by, at: place.position))
            }
        case .problem(let problem):
            problems.note(problem)
        case .advance(let time):
            let due = engine.advance(to: time)
            if !due.isEmpty { pipeline.submit(due) }
        }
    }

}
