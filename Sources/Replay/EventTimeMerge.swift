import CMemoryHints
import DequeModule
import EventModel
import HeapModule

/// Merges the records of several inputs, each mostly in time order, into one stream in time
/// order: a k-way merge with a clock per input and a reorder window.
///
/// Each input's *clock* is the latest time among its records added so far. A record of an
/// input may come later than a record after it in time by up to ``maxLateness``; so no record
/// still to come is earlier than the lowest clock less ``maxLateness`` (an input not read yet
/// could hold anything). A record waits until it is earlier than that *low water*, or until
/// every input has ended, and then comes out (``nextWithPlace()``). The reader keeps the low
/// water moving by reading from the input with the lowest clock (`inputToRead`).
///
/// Records come out in the order of their ``StreamPlace``: by time, then by a digest of their
/// key (``Shard/hash(_:)``), then by position (the input's rank, then line). A record's time
/// there is its own, but for a *late* record, one more than ``maxLateness`` earlier than its
/// input's clock: it takes the clock less ``maxLateness``, where it can always still come out
/// in order (the low water is no later, since its input's clock is one of those it is the
/// lowest of). And no record takes a time earlier than the clock an earlier run left
/// (``resume(released:)``). So a record's place depends only on the lines before it in its
/// own input: the same whatever the other files hold, and in every shard of a sharded run.
///
/// One device's clock cannot move an input's clock (``FileClock``): a record more than the
/// window ahead of its input moves it only once another key of the input follows it. A record
/// still more than the window later than every input's clock when the inputs have ended is
/// *ahead* (``Released``): it comes out last, and moves no clock, so neither the time a
/// later run goes on from nor, in the engine, the idle gaps of other lives.
///
/// The records wait in a table of slots; the queues and heaps hold only what orders them
/// and their slot, plain values that move without reference counting. Memory: the records of
/// the reorder window, plus an input clock and the head record of each input.
package struct EventTimeMerge {
    /// How much later than a record after it in time a record of one input may come.
    package let maxLateness: Int64
    /// The waiting records, by slot (a record's position is in its order, not here: 80 bytes a
    /// slot rather than 96); free slots are reused.
    private var slots: [Record?] = []
    private var freeSlots: [Int32] = []
    /// Each input's records not out yet that came in order, after its head.
    private var queues: [Deque<Waiting>]
    private var clocks: [FileClock]
    private var ended: [Bool]
    /// The order of the latest record put in each input's queue.
    private var lastQueued: [Order?]
    /// Whether the input's first waiting record is `leader` or in `heads`.
    private var hasHead: [Bool]
    /// The head of each input's queue but `leader`'s.
    private var heads = Heap<Waiting>()
    /// One head kept out of `heads`: the one that came out last, whose input's next record
    /// mostly comes out next too (hourly files come out one after the other); taking it then
    /// costs one comparison with `heads`, not a heap update.
    private var leader: Waiting?
    /// Records that came out of order in their input, but not after one already out, and jumps
    /// (``FileClock``).
    private var stragglers = Heap<Waiting>()
    /// The unfinished inputs by clock, as it was when their entry was made; an outdated entry
    /// is made again when it comes first.
    private var clockOrder = Heap<InputClock>()
    /// How many records wait.
    package private(set) var waiting = 0
    /// The time of the latest record out.
    package private(set) var released: Timestamp?
    private var unfinished: Int

    /// A merge of `inputs` inputs, numbered from 0, none read yet.
    package init(inputs: Int, maxLateness: Int64) {
        self.maxLateness = max(0, maxLateness)
        queues = Array(repeating: Deque(), count: inputs)
        clocks = Array(repeating: FileClock(), count: inputs)
        ended = Array(repeating: false, count: inputs)
        hasHead = Array(repeating: false, count: inputs)
        lastQueued = Array(repeating: nil, count: inputs)
        unfinished = inputs
        for input in 0..<inputs { clockOrder.insert(InputClock(time: nil, input: input)) }
    }

    /// The latest time among the records of `input` added so far.
    package func clock(of input: Int) -> Timestamp? {
        clocks[input].time
    }

    /// The input whose records are needed next: an unfinished input with the lowest clock
    /// (one not read yet first); `nil` once every input has ended.
    package mutating func inputToRead() -> Int? {
        while let first = clockOrder.min {
            if ended[first.input] {
                clockOrder.removeMin()
                continue
            }
            if clocks[first.input].time != first.time {
                clockOrder.removeMin()
                clockOrder.insert(InputClock(time: clocks[first.input].time, input: first.input))
                continue
            }
            return first.input
        }
        return nil
    }

    /// Whether an added record came late: more than ``maxLateness`` earlier than its input's
    /// clock, or earlier than the clock an earlier run left. It comes out at a later time
    /// than its own (``StreamPlace``), in order.
    package enum Placement {
        case inOrder
        case late
    }

    /// Adds a record of `input`.
    package mutating func add(_ record: consuming Record, at position: SourcePosition, from input: Int) -> Placement {
        let keyDigest = Self.keyDigest(of: record)
        return add(record, at: position, keyDigest: keyDigest, from: input)
    }

    /// Adds a record of `input` whose ``keyDigest(of:)`` is known.
    /// `given`: where the partition put it, when the input is a partition's part file (the
    /// input's clock is then that of the part file).
    package mutating func add(
        _ record: consuming Record, at position: SourcePosition, keyDigest: UInt64, from input: Int,
        given: FileClock.GivenPlace? = nil
    ) -> Placement {
        let timestamp = record.timestamp
        observeStart(timestamp)
        var time: Timestamp
        let isJump: Bool
        if let given {
            time = clocks[input].place(of: timestamp, given: given, maxLateness: maxLateness)
            isJump = given == .jump
        } else {
            (time, isJump) = clocks[input].place(of: timestamp, keyDigest: keyDigest, maxLateness: maxLateness)
        }
        // Only a resumed clock can be later than the input's clock less the window (see above).
        if let released, time < released { time = released }
        let order = Order(timestamp: time, key: keyDigest, position: position)
        // Moved into its slot, not copied (a retain and a release of each of its references).
        var stored: Record? = consume record
        // A jump may wait until the inputs end: not with its block's memory.
        if isJump { stored?.keepAttributesApart() }
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            swap(&slots[Int(free)], &stored)
        } else {
            slot = Int32(slots.count)
            slots.append(stored.take())
        }
        let entry = Waiting(order: order, slot: slot, input: Int32(input))
        // A jump waits with the stragglers, so that the records after it, earlier, still queue.
        if isJump || lastQueued[input].map({ order < $0 }) ?? false {
            stragglers.insert(entry)
        } else {
            lastQueued[input] = order
            if hasHead[input] {
                queues[input].append(entry)
            } else {
                heads.insert(entry)
                hasHead[input] = true
            }
        }
        waiting += 1
        return time == timestamp ? .inOrder : .late
    }

    /// The time the merged stream ends at: the latest clock of any input (records of other
    /// shards included), or the clock an earlier run left. A shard, which replays only its own
    /// records, moves its clock there at the end, where one run's last record leaves it.
    package var endTime: Timestamp? {
        ([released, inputEnd] + clocks.map(\.time)).compactMap { $0 }.max()
    }

    /// The time the whole input ends when this merge has only part of it (a partition's
    /// shard): ``endTime`` is no earlier.
    private var inputEnd: Timestamp?

    /// Sets the time the whole input ends, of which this merge has a part.
    package mutating func observeEnd(_ time: Timestamp) {
        inputEnd = max(inputEnd ?? time, time)
    }

    /// The earliest time of any record added or observed (records of other shards included),
    /// or given by the partition: no row the input begins starts earlier.
    package private(set) var startTime: Timestamp?

    /// Moves ``startTime`` to `time` when it is earlier: a record's, or the earliest of the
    /// whole input, of which this merge has a part.
    package mutating func observeStart(_ time: Timestamp) {
        if startTime.map({ time < $0 }) ?? true { startTime = time }
    }

    /// Moves `input`'s clock with a record that is not merged (one of another shard, of key
    /// digest `keyDigest`), so that the records merged get the places they have when it is.
    package mutating func observe(_ time: Timestamp, keyDigest: UInt64, from input: Int) {
        _ = clocks[input].place(of: time, keyDigest: keyDigest, maxLateness: maxLateness)
        observeStart(time)
    }

    /// The digest that orders records of different keys at equal times: the key's shard hash
    /// (``Shard/hash(_:)``, FNV-1a 64 of `"<system>:<id>"`), fixed by its definition.
    package static func keyDigest(of record: borrowing Record) -> UInt64 {
        Shard.hash(SessionKey(of: record))
    }

    /// Marks `input` as ended: none of its records will come.
    package mutating func end(_ input: Int) {
        guard !ended[input] else { return }
        ended[input] = true
        unfinished -= 1
        if !hasHead[input] { queues[input] = Deque() }
    }

    /// A record let out, with its place, and whether it is *ahead*: once every input has
    /// ended, more than the window later than every input's clock (and the clock an earlier
    /// run left), one device's clock ahead of the others'. It moves no clock; only its own
    /// life replays it. A tuple, so that the reader takes the record apart from the rest and
    /// moves it on (a struct's stored record was copied out, a retain and a release of each
    /// of its references on the reading thread).
    package typealias Released = (record: Record, place: StreamPlace, ahead: Bool)

    /// The next record in order, with its place, when no record still to come can be earlier.
    package mutating func nextWithPlace() -> Released? {
        guard waiting > 0 else { return nil }
        let lowWater: Timestamp?
        if unfinished == 0 {
            lowWater = nil
            if aheadAfter == nil {
                let clock = ([resumedFrom, inputEnd] + clocks.map(\.time)).compactMap { $0 }.max()
                aheadAfter = clock.map { Timestamp(milliseconds: $0.milliseconds &+ maxLateness) }
            }
        } else {
            guard let input = inputToRead(), let clock = clocks[input].time else { return nil }
            lowWater = Timestamp(milliseconds: clock.milliseconds &- maxLateness)
        }
        let entry: Waiting
        switch (firstHead(), stragglers.min) {
        case (let head?, let straggler?) where straggler.order < head.order:
            guard lowWater.map({ straggler.order.timestamp < $0 }) ?? true else { return nil }
            entry = stragglers.removeMin()
        case (let head?, _):
            guard lowWater.map({ head.order.timestamp < $0 }) ?? true else { return nil }
            let input = Int(head.input)
            entry = head
            leader = queues[input].popFirst()
            if queues[input].count > Self.slotsPrefetchedAhead {
                prefetchSlot(queues[input][Self.slotsPrefetchedAhead].slot)
            }
            if leader == nil {
                hasHead[input] = false
                // An ended input's queue gives its memory back: thousands of inputs may end.
                if ended[input] { queues[input] = Deque() }
            }
        case (nil, let straggler?):
            guard lowWater.map({ straggler.order.timestamp < $0 }) ?? true else { return nil }
            entry = stragglers.removeMin()
        case (nil, nil):
            return nil
        }
        waiting -= 1
        let ahead = lowWater == nil && aheadAfter.map { entry.order.timestamp > $0 } ?? false
        if !ahead { released = entry.order.timestamp }
        guard let record = take(entry.slot) else { return nil }
        return (
            record: record,
            place: StreamPlace(time: entry.order.timestamp, keyDigest: entry.order.key, position: entry.order.position),
            ahead: ahead
        )
    }

    /// Once every input has ended: the time after which a record is ahead (``Released``),
    /// the latest clock of any input (or the clock an earlier run left) plus the window.
    private var aheadAfter: Timestamp?
    /// The clock an earlier run left (``resume(released:)``).
    private var resumedFrom: Timestamp?

    /// The first head, made the leader (taken out of `heads`, the former leader put in).
    private mutating func firstHead() -> Waiting? {
        guard let current = leader else {
            leader = heads.popMin()
            return leader
        }
        guard let first = heads.min, first < current else { return current }
        leader = heads.replaceMin(with: current)
        return leader
    }

    /// How far ahead in its input's queue the slot of a record is asked for when a record of
    /// the queue comes out (``prefetchSlot(_:)``).
    private static let slotsPrefetchedAhead = 8

    /// Asks the processor for the memory of a slot, without waiting for it: a record waits in
    /// its slot for the reorder window, long enough to leave the cache, and most records come
    /// out in their input's order. (Mutating, though it changes nothing: called from a
    /// mutating method, a non-mutating one had the whole merge copied for it.)
    @inline(__always)
    private mutating func prefetchSlot(_ slot: Int32) {
        slots.withUnsafeBufferPointer { slots in
            guard let base = slots.baseAddress else { return }
            let start = UnsafeRawPointer(base + Int(slot))
            avt_prefetch(start)
            avt_prefetch(start + 64)
        }
    }

    /// Takes the record out of its slot, and frees the slot.
    private mutating func take(_ slot: Int32) -> Record? {
        var taken: Record?
        swap(&taken, &slots[Int(slot)])
        freeSlots.append(slot)
        return taken
    }

    /// Sets the time of the latest record out, as an earlier run left it: no record comes out
    /// at an earlier time.
    package mutating func resume(released time: Timestamp?) {
        released = time
        resumedFrom = time
    }
}

/// Where a record goes in the merged stream: by time, then key digest, then position.
private struct Order: Comparable {
    var timestamp: Timestamp
    var key: UInt64
    var position: SourcePosition

    static func < (lhs: Order, rhs: Order) -> Bool {
        if lhs.timestamp != rhs.timestamp { return lhs.timestamp < rhs.timestamp }
        if lhs.key != rhs.key { return lhs.key < rhs.key }
        return lhs.position < rhs.position
    }
}

/// A waiting record: its order, its slot, and its input.
private struct Waiting: Comparable {
    var order: Order
    var slot: Int32
    var input: Int32

    static func == (lhs: Waiting, rhs: Waiting) -> Bool { lhs.order == rhs.order }
    static func < (lhs: Waiting, rhs: Waiting) -> Bool { lhs.order < rhs.order }
}

/// An input's clock when it was set; inputs not read yet (no clock) come first.
private struct InputClock: Comparable {
    var time: Timestamp?
    var input: Int

    static func < (lhs: InputClock, rhs: InputClock) -> Bool {
        switch (lhs.time, rhs.time) {
        case (nil, nil): lhs.input < rhs.input
        case (nil, _?): true
        case (_?, nil): false
        case (let left?, let right?): (left, lhs.input) < (right, rhs.input)
        }
    }
}
