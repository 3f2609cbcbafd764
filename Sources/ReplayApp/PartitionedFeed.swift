import CMemoryHints
import EventModel
import Foundation
import Replay

/// Runs a replay on several engines (``ReplayEngines``), each on a thread of its own: the
/// reading thread reads and merges the inputs (``InputReader``) and deals each record to the
/// engine of its key; every engine replays its records and, at the end of each batch, moves
/// its clock to the batch's last time, so that its flushes and ends come out before any later
/// record's (every hand-over's order comes from its own life: ``SessionOrder``); the
/// calling thread merges the engines' reports by ``SessionReport/order`` and hands them to the
/// pipeline's writing thread (``ReplayPipeline``), and notes the problems. When the input
/// ends, each engine ends its own lives (or hands over what they have pending, with a state),
/// and the calling thread merges those last reports in the same order.
///
/// The merged stream goes over in batches of ``batchSize`` records (or ``problemsPerBatch``
/// problems). Each engine's reports of a batch come back in order, so the merge of a batch's
/// reports is one engine's order; the problems (the reader's, and the records an engine
/// refused as late) are noted in the order of the stream. Every queue holds a few batches at
/// most: an engine that runs ahead waits, so memory does not grow with the number of threads
/// beyond the batches queued.
struct PartitionedFeed {
    static let batchSize = 4_096
    /// The most problems a batch carries. A problem (its reason and excerpt) takes more memory
    /// than a record's place in a batch, and the batches queued are what a run of bad lines
    /// holds in memory besides the rejects' spool: with 4,096, 10 million bad lines peaked
    /// 23 MB above 10 good ones, with 512 12 MB.
    static let problemsPerBatch = 512
    static let batchesQueued = 4
    /// The last reports of an engine handed over at a time.
    static let endChunk = 256

    var engines: ReplayEngines
    let pipeline: ReplayPipeline
    /// The problems noted, counted.
    var problems: ProblemLog

    /// A batch as one engine gets it: its own records in their order, each with its number in
    /// the batch and whether it moves the clock, and the time of the batch's last record that
    /// does (at the end of the input, the time the input ends).
    private struct EngineBatch {
        var records: [DealtRecord?]
        /// Each record's ``Record/attributesStorageAddress``, noted as it was dealt: read from
        /// the record in the batch, to prefetch, it was copied out (a retain and a release of
        /// each of its references).
        var attributeAddresses: [UInt]
        var end: Timestamp?
    }

    /// A record dealt to an engine: its place, its number in the batch, and whether it moves
    /// the clock (``ReplayFeed/Item/record(_:_:movesClock:)``).
    private typealias DealtRecord = (record: Record, place: StreamPlace, index: Int, movesClock: Bool)

    /// What one engine made of a batch: its reports in order, and the records it refused as
    /// late with their numbers in the batch.
    private struct EngineResult {
        var reports: [SessionReport] = []
        var late: [(tick: Int, record: ProblemLog.LateRecord)] = []
    }

    /// The reader's problems of a batch, each with the number of the batch's records before it.
    private struct BatchProblems {
        var records = 0
        var problems: [(before: Int, problem: InputProblem)] = []
    }

    init(engines: consuming ReplayEngines, pipeline: ReplayPipeline, problems: consuming ProblemLog) {
        self.engines = engines
        self.pipeline = pipeline
        self.problems = problems
    }

    /// Reads with `reader` on a thread of its own and replays on a thread per engine, each of
    /// which then ends its lives as `ending` says; returns the reader when every report is
    /// handed over.
    mutating func run(_ reader: consuming InputReader, ending: ReplayEnding) -> InputReader {
        let count = engines.engines.count
        let batchProblems = BoundedQueue<BatchProblems>(capacity: Self.batchesQueued * 2)
        let inputs = (0..<count).map { _ in BoundedQueue<EngineBatch>(capacity: Self.batchesQueued) }
        let results = (0..<count).map { _ in BoundedQueue<EngineResult>(capacity: Self.batchesQueued) }
        let readerBox = ThreadBox(reader)
        let partition = engines.partition
        Thread.start(named: "avt-read") { [readerBox, batchProblems, inputs] in
            Self.deal(readerBox, partition: partition, problems: batchProblems, inputs: inputs)
        }
        var boxes: [ThreadBox<ReplayEngine>] = []
        for number in 0..<count {
            // Moved out, so that the engine's thread holds the only reference to its lives.
            let box = ThreadBox(engines.engines.removeFirst())
            boxes.append(box)
            let (input, result) = (inputs[number], results[number])
            Thread.start(named: "avt-engine\(number + 1)") { [box, input, result] in
                Self.replay(&box.value, from: input, into: result)
                Self.end(&box.value, ending, into: result)
            }
        }
        while let batch = batchProblems.take() {
            var reports: [[SessionReport]] = []
            var late: [(tick: Int, record: ProblemLog.LateRecord)] = []
            for result in results {
                // Every engine has a result for each batch the reader dealt.
                guard let result = result.take() else { preconditionFailure("an engine ended before its batches") }
                reports.append(result.reports)
                late += result.late
            }
            let merged = ReplayEngines.merged(consume reports)
            if !merged.isEmpty { pipeline.submit(merged) }
            problems.counts.replayed += batch.records
            note(batch.problems, late.sorted { $0.tick < $1.tick })
        }
        handOverEnds(results)
        engines.engines = boxes.map(\.value)
        return readerBox.value
    }

    /// Hands over the engines' last reports (after their batches), merged by
    /// ``SessionReport/order`` as they come: each engine's are in that order, by latest record,
    /// then key, which is how one engine ends its lives. Returns when every engine's thread is
    /// done with its engine.
    private func handOverEnds(_ results: [BoundedQueue<EngineResult>]) {
        var heads = results.map { $0.take()?.reports ?? [] }
        var next = Array(repeating: 0, count: results.count)
        var merged: [SessionReport] = []
        while true {
            var best: Int?
            for engine in heads.indices where next[engine] < heads[engine].count {
                if let current = best, !(heads[engine][next[engine]].order < heads[current][next[current]].order) {
                    continue
                }
                best = engine
            }
            guard let best else { break }
            merged.append(heads[best][next[best]])
            next[best] += 1
            if next[best] == heads[best].count {
                heads[best] = results[best].take()?.reports ?? []
                next[best] = 0
            }
            if merged.count >= Self.endChunk {
                pipeline.submit(merged)
                merged = []
            }
        }
        if !merged.isEmpty { pipeline.submit(merged) }
    }

    /// An engine's thread, once its input is replayed: its last reports, a chunk at a time.
    private static func end(
        _ engine: inout ReplayEngine, _ ending: ReplayEnding, into results: BoundedQueue<EngineResult>
    ) {
        var chunk = EngineResult()
        func handOver(_ report: consuming SessionReport) {
            chunk.reports.append(report)
            if chunk.reports.count >= endChunk {
                results.put(chunk)
                chunk = EngineResult()
            }
        }
        switch ending {
        case .finish: engine.finish(handOver)
        case .handOverPending: engine.handOverPending(handOver)
        }
        if !chunk.reports.isEmpty { results.put(chunk) }
        results.finish()
    }

    /// Notes a batch's problems in the order of the stream: a problem of the reader before the
    /// record it came before, a late record at its own place.
    private mutating func note(
        _ reader: [(before: Int, problem: InputProblem)], _ late: [(tick: Int, record: ProblemLog.LateRecord)]
    ) {
        var nextLate = 0
        for (before, problem) in reader {
            while nextLate < late.count, late[nextLate].tick < before {
                problems.noteLate(late[nextLate].record)
                nextLate += 1
            }
            problems.note(problem)
        }
        for index in nextLate..<late.count { problems.noteLate(late[index].record) }
    }

    /// The reading thread: reads every input and deals the records, a batch at a time.
    private static func deal(
        _ reader: ThreadBox<InputReader>, partition: KeyPartition, problems: BoundedQueue<BatchProblems>,
        inputs: [BoundedQueue<EngineBatch>]
    ) {
        var count = 0
        var last: Timestamp?
        var records = Array(repeating: [DealtRecord?](), count: inputs.count)
        var addresses = Array(repeating: [UInt](), count: inputs.count)
        var batchProblems = BatchProblems()
        func handOver() {
            batchProblems.records = count
            problems.put(batchProblems)
            batchProblems = BatchProblems()
            for number in inputs.indices {
                var own: [DealtRecord?] = []
                var ownAddresses: [UInt] = []
                own.reserveCapacity(batchSize / inputs.count + batchSize / 8)
                ownAddresses.reserveCapacity(batchSize / inputs.count + batchSize / 8)
                swap(&own, &records[number])
                swap(&ownAddresses, &addresses[number])
                inputs[number].put(EngineBatch(records: own, attributeAddresses: ownAddresses, end: last))
            }
            count = 0
        }
        reader.value.run { item in
            switch consume item {
            case .record(let record, let place, let movesClock):
                let engine = partition.engine(ofKeyDigest: place.keyDigest)
                if movesClock { last = place.time }
                addresses[engine].append(record.attributesStorageAddress)
                records[engine].append((consume record, place, count, movesClock))
                count += 1
                if count >= batchSize { handOver() }
            case .problem(let problem):
                batchProblems.problems.append((count, problem))
                if batchProblems.problems.count >= problemsPerBatch { handOver() }
            case .advance(let time):
                // Every engine's clock goes there at the end of this batch, before the next.
                last = time
                handOver()
            }
        }
        // Every engine's clock goes where one run's last record leaves it (a shard's own last
        // record may be earlier).
        last = reader.value.merge.endTime ?? last
        handOver()
        for input in inputs { input.finish() }
        problems.finish()
    }

    /// An engine's thread: replays its records, batch by batch, its clock moved to each batch's end.
    private static func replay(
        _ engine: inout ReplayEngine, from input: BoundedQueue<EngineBatch>,
        into results: BoundedQueue<EngineResult>
    ) {
        while var batch = input.take() {
            var result = EngineResult()
            for own in batch.records.indices {
                if own + ReplayFeed.prefetchDistance < batch.records.count,
                    case let address = batch.attributeAddresses[own + ReplayFeed.prefetchDistance], address != 0
                {
                    for line in 0..<ReplayFeed.linesPrefetched {
                        avt_prefetch(UnsafeRawPointer(bitPattern: address + 64 * line))
                    }
                }
                guard let (record, place, index, movesClock) = batch.records[own].take() else { continue }
                if let (by, record) = engine.add(
                    consume record, at: place, movesClock: movesClock, reportingInto: &result.reports)
                {
                    result.late.append((index, ProblemLog.LateRecord(record, by: by, at: place.position)))
                }
            }
            if let end = batch.end { engine.advance(to: end, into: &result.reports) }
            results.put(result)
        }
    }
}
