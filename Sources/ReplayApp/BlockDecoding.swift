import DequeModule
import EventLog
import Foundation

/// Decodes the blocks of the inputs an ``InputReader`` reads continuously ahead of its merge,
/// on a pool of worker threads.
///
/// Each such input is a *stream* (``start(_:source:)``): its blocks are cut one at a time and
/// in order (read, inflated and cut into lines by its ``LineBlockSource``), and each is decoded
/// by the thread that cut it, with a ``RecordDecoder`` of its own, while another thread cuts the
/// next. So blocks of several inputs, and several blocks of one input, are decoded at once.
///
/// When the reader takes block b of an input (``take(_:decoder:)``), the blocks up to
/// b + ``readAhead`` of that input are wanted; the workers cut wanted blocks in the order they
/// were wanted, while fewer than ``maxDecoded`` blocks are cut and not taken. A block the reader
/// needs that no worker started, it cuts and decodes itself. Blocks are taken in order, and are
/// those ``EntrySource/next(upTo:_:)`` would deliver: what the reader takes is what it would
/// read on its own.
final class BlockDecoding {
    /// The blocks of an input wanted ahead of the one the reader takes.
    private let readAhead: Int
    /// The most blocks cut and not taken, over all inputs.
    private let maxDecoded: Int
    private let schedule: BlockSchedule

    /// Starts `threads` workers, whose decoders read a `ts` number in `timestampUnit`, their
    /// blocks' attributes in shared storage when `sharesBlockStorage`
    /// (``RecordDecoder/sharesBlockStorage``).
    init(threads: Int, timestampUnit: RecordDecoder.TimestampUnit, sharesBlockStorage: Bool = true) {
        readAhead = 2 * threads
        maxDecoded = 4 * threads + 4
        schedule = BlockSchedule(maxDecoded: maxDecoded, workers: threads)
        for number in 1...threads {
            Thread.start(named: "avt-decode\(number)") { [schedule] in
                let decoder = RecordDecoder()
                decoder.timestampUnit = timestampUnit
                decoder.sharesBlockStorage = sharesBlockStorage
                var spelling = ActionSpelling()
                while let claim = schedule.claim() {
                    let block = claim.source.blocks.next(upTo: InputReader.blockLines)
                    schedule.didCut(claim.input, isLast: block.isLast)
                    let keyed = KeyedBlock(decoding: block, with: decoder, spelling: &spelling)
                    schedule.didDecode(claim.input, number: claim.number, keyed)
                }
                schedule.didExit()
            }
        }
    }

    /// Streams `input` from `source`, opened where its next block starts.
    func start(_ input: Int, source: LineBlockSource) {
        schedule.add(input, source: ClaimedSource(source), wanted: 0)
    }

    /// Streams `input` as ``start(_:source:)`` does, and has its first blocks (half the read-ahead)
    /// decoded now, before the reader takes any: the input the merge needs next, while the
    /// workers have nothing left to cut of the one it reads. Hourly files are read one after
    /// the other, and one file's blocks are inflated one after the other, so without this the
    /// workers wait at the start of each file.
    func startAhead(_ input: Int, source: LineBlockSource) {
        schedule.add(input, source: ClaimedSource(source), wanted: max(1, readAhead / 2))
    }

    /// Whether the last block of `input` was cut: no worker has more of it to do.
    func isCut(_ input: Int) -> Bool {
        schedule.isCut(input)
    }

    /// The next block of `input`, decoded: waits for the worker that has it, or cuts and
    /// decodes it with `decoder` when none started it.
    func take(_ input: Int, decoder: RecordDecoder, spelling: inout ActionSpelling) -> KeyedBlock {
        switch schedule.take(input, readAhead: readAhead) {
        case .decoded(let block):
            return block
        case .claimed(let source):
            let block = source.blocks.next(upTo: InputReader.blockLines)
            schedule.didCut(input, isLast: block.isLast)
            return KeyedBlock(decoding: block, with: decoder, spelling: &spelling)
        }
    }

    /// Forgets `input`, whose last block was taken.
    func end(_ input: Int) {
        schedule.remove(input)
    }

    /// Stops the workers (once they finish the block they have) and waits for them to exit.
    func finish() {
        schedule.finish()
    }
}

/// An input's ``LineBlockSource``, handed from thread to thread.
///
/// Unchecked: only the thread that claimed the input's next block (``BlockSchedule``, with its
/// lock held) reads it, until that thread reports the block cut (with the lock held again):
/// the lock orders each claimer's reads after the one before.
private final class ClaimedSource: @unchecked Sendable {
    let blocks: LineBlockSource
    init(_ blocks: LineBlockSource) { self.blocks = blocks }
}

/// Which blocks are wanted, cut, decoded and taken: the state the reading thread and the workers
/// share.
///
/// Unchecked: every stored property is read and written with `condition` locked.
private final class BlockSchedule: @unchecked Sendable {
    /// One streamed input.
    private final class Stream {
        let source: ClaimedSource
        /// The next block to take, and to cut.
        var nextToTake = 0
        var nextToCut = 0
        /// The last block wanted.
        var lastWanted = 0
        /// Whether a thread is cutting a block (``ClaimedSource``).
        var isCutting = false
        /// Whether its last block was cut.
        var isCut = false
        /// Whether it is in `wanting`.
        var isQueued = false
        /// The blocks decoded and not taken, by number.
        var decoded: [Int: KeyedBlock] = [:]

        init(source: ClaimedSource) { self.source = source }

        /// Whether its next block may be cut now.
        var wantsCut: Bool { !isCutting && !isCut && nextToCut <= lastWanted }
    }

    /// The next block of a stream, given to a thread to cut.
    struct Claim {
        let input: Int
        let number: Int
        let source: ClaimedSource
    }

    /// What the reading thread gets for the block it needs.
    enum Taken {
        case decoded(KeyedBlock)
        /// No worker started it: the reading thread cuts it.
        case claimed(ClaimedSource)
    }

    /// Its lock guards the state; the workers wait on it, each woken by a `signal()` for each
    /// block wanted and each block taken (a block cut may then be decoded).
    private let condition = NSCondition()
    /// What the reading thread waits on for the block it takes (`readerWaits`), so that a
    /// decoded block wakes the reader alone, not every worker (a wake-up is a system call: on 16
    /// cores, waking every worker for each block cost more CPU than decoding took).
    private let readerWake = DispatchSemaphore(value: 0)
    private var readerWaits = false
    private let maxDecoded: Int
    // Guarded by `condition`.
    private var streams: [Int: Stream] = [:]
    /// The streams with a block wanted and not cut, in the order they were wanted.
    private var wanting: Deque<Int> = []
    /// Blocks claimed by workers and not taken.
    private var decoding = 0
    /// Workers that have not exited.
    private var workers: Int
    private var isFinished = false

    init(maxDecoded: Int, workers: Int) {
        self.maxDecoded = maxDecoded
        self.workers = workers
    }

    /// Streams `input`, with its first `wanted` blocks wanted at once.
    func add(_ input: Int, source: ClaimedSource, wanted: Int) {
        condition.lock()
        defer { condition.unlock() }
        let stream = Stream(source: source)
        streams[input] = stream
        if wanted > 0 {
            stream.lastWanted = wanted - 1
            queueIfWanted(input, stream)
        }
    }

    func isCut(_ input: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return streams[input]?.isCut ?? true
    }

    func remove(_ input: Int) {
        condition.lock()
        defer { condition.unlock() }
        streams[input] = nil
    }

    /// A worker's next block to cut and decode; `nil` once ``finish()`` was called.
    func claim() -> Claim? {
        condition.lock()
        defer { condition.unlock() }
        while !isFinished {
            guard decoding < maxDecoded, let input = wanting.popFirst() else {
                condition.wait()
                continue
            }
            guard let stream = streams[input] else { continue }
            stream.isQueued = false
            guard stream.wantsCut else { continue }
            decoding += 1
            return Claim(input: input, number: claimCut(of: stream), source: stream.source)
        }
        return nil
    }

    /// The reading thread's next block of `input`: decoded, or claimed for it to cut when no
    /// thread started it. Blocks up to `readAhead` after it are wanted.
    func take(_ input: Int, readAhead: Int) -> Taken {
        condition.lock()
        defer { condition.unlock() }
        guard let stream = streams[input] else { preconditionFailure("input \(input) is not streamed") }
        let number = stream.nextToTake
        stream.nextToTake += 1
        stream.lastWanted = number + readAhead
        if stream.nextToCut == number && !stream.isCutting {
            _ = claimCut(of: stream)
            return .claimed(stream.source)
        }
        queueIfWanted(input, stream)
        while true {
            if let block = stream.decoded.removeValue(forKey: number) {
                decoding -= 1
                condition.signal()
                return .decoded(block)
            }
            readerWaits = true
            condition.unlock()
            readerWake.wait()
            condition.lock()
        }
    }

    /// Marks the block claimed for `input` cut; the next may be claimed.
    func didCut(_ input: Int, isLast: Bool) {
        condition.lock()
        defer { condition.unlock() }
        guard let stream = streams[input] else { return }
        stream.isCutting = false
        stream.isCut = isLast
        queueIfWanted(input, stream)
    }

    /// Hands a worker's decoded block over, for ``take(_:readAhead:)``.
    func didDecode(_ input: Int, number: Int, _ block: KeyedBlock) {
        condition.lock()
        defer { condition.unlock() }
        streams[input]?.decoded[number] = block
        if readerWaits {
            readerWaits = false
            readerWake.signal()
        }
    }

    /// Stops the workers and waits for them to exit.
    func finish() {
        condition.lock()
        defer { condition.unlock() }
        isFinished = true
        condition.broadcast()
        while workers > 0 { condition.wait() }
    }

    /// Counts a worker out, once ``claim()`` returned `nil`.
    func didExit() {
        condition.lock()
        defer { condition.unlock() }
        workers -= 1
        condition.broadcast()
    }

    /// Claims the stream's next block to cut; returns its number.
    private func claimCut(of stream: Stream) -> Int {
        stream.isCutting = true
        stream.nextToCut += 1
        return stream.nextToCut - 1
    }

    private func queueIfWanted(_ input: Int, _ stream: Stream) {
        guard stream.wantsCut, !stream.isQueued else { return }
        stream.isQueued = true
        wanting.append(input)
        condition.signal()
    }
}
