import EventModel
import Testing

@testable import Replay

/// `EventTimeMerge` on its own: records of several inputs come out in time order, then by key
/// digest, then by position, whichever input holds the first one, and none is lost.
struct EventTimeMergeTests {
    private static func record(_ time: Int64, _ instrument: String) -> Record {
        .avt(AVTRecord(timestamp: Timestamp(milliseconds: time), instrument: instrument, tracker: 0, action: "Ping"))
    }

    private static func order(_ taken: (record: Record, place: StreamPlace)) -> (Int64, UInt64, SourcePosition) {
        (taken.record.timestamp.milliseconds, Shard.hash(SessionKey(of: taken.record)), taken.place.position)
    }

    /// Three inputs whose times interleave (the first one out moves from input to input),
    /// with equal times across inputs and a record out of order in its input.
    private static let inputs: [[(Int64, String)]] = [
        [(10, "a"), (11, "a"), (12, "a"), (40, "a"), (41, "a"), (70, "b")],
        [(20, "c"), (21, "c"), (40, "c"), (42, "c"), (39, "c"), (43, "c")],
        [(5, "d"), (40, "d"), (40, "e"), (60, "d"), (61, "d"), (80, "d")],
    ]

    @Test func recordsComeOutInOrderWhicheverInputHoldsTheFirst() {
        var merge = EventTimeMerge(inputs: Self.inputs.count, maxLateness: 10)
        var out: [(record: Record, place: StreamPlace)] = []
        // Read as the reader does: a record at a time from the input with the lowest clock.
        var next = Array(repeating: 0, count: Self.inputs.count)
        while let input = merge.inputToRead() {
            if next[input] == Self.inputs[input].count {
                merge.end(input)
            } else {
                let (time, id) = Self.inputs[input][next[input]]
                next[input] += 1
                let position = SourcePosition(fileRank: input, line: next[input])
                guard case .inOrder = merge.add(Self.record(time, id), at: position, from: input) else {
                    Issue.record("record \(time) of input \(input) not merged in order")
                    continue
                }
            }
            while let taken = merge.nextWithPlace() { out.append((taken.record, taken.place)) }
        }
        while let taken = merge.nextWithPlace() { out.append((taken.record, taken.place)) }
        #expect(out.count == Self.inputs.joined().count)
        #expect(merge.waiting == 0)
        let orders = out.map(Self.order)
        #expect(zip(orders, orders.dropFirst()).allSatisfy { $0 < $1 })
        #expect(out.allSatisfy { $0.place.time == $0.record.timestamp })
        #expect(out.map(\.record.timestamp.milliseconds).prefix(4) == [5, 10, 11, 12])
    }

    /// A record more than the window earlier than its input's clock comes out at that clock
    /// less the window: after every record before that time, whatever is out already.
    @Test func aLateRecordTakesItsInputsClockLessTheWindow() {
        var merge = EventTimeMerge(inputs: 1, maxLateness: 3)
        #expect(merge.add(Self.record(10, "a"), at: SourcePosition(fileRank: 0, line: 1), from: 0) == .inOrder)
        #expect(merge.add(Self.record(20, "a"), at: SourcePosition(fileRank: 0, line: 2), from: 0) == .inOrder)
        #expect(merge.nextWithPlace()?.record.timestamp.milliseconds == 10)
        #expect(merge.add(Self.record(5, "a"), at: SourcePosition(fileRank: 0, line: 3), from: 0) == .late)
        #expect(merge.add(Self.record(18, "a"), at: SourcePosition(fileRank: 0, line: 4), from: 0) == .inOrder)
        merge.end(0)
        var out: [(Int64, Int64)] = []
        while let taken = merge.nextWithPlace() {
            out.append((taken.record.timestamp.milliseconds, taken.place.time.milliseconds))
        }
        #expect(out.map(\.0) == [5, 18, 20])
        #expect(out.map(\.1) == [17, 18, 20])
    }

    /// No record comes out earlier than the clock an earlier run left.
    @Test func noRecordComesOutBeforeTheResumedClock() {
        var merge = EventTimeMerge(inputs: 1, maxLateness: 1_000)
        merge.resume(released: Timestamp(milliseconds: 100))
        #expect(merge.add(Self.record(50, "a"), at: SourcePosition(fileRank: 0, line: 1), from: 0) == .late)
        #expect(merge.add(Self.record(150, "b"), at: SourcePosition(fileRank: 0, line: 2), from: 0) == .inOrder)
        merge.end(0)
        #expect(
            merge.nextWithPlace().map { ($0.record.timestamp.milliseconds, $0.place.time.milliseconds) } ?? (0, 0) == (
                50, 100
            ))
        #expect(merge.nextWithPlace()?.place.time.milliseconds == 150)
    }

    /// Adds `records` (time, instrument) to input `input` in order and returns how each was placed.
    private static func add(
        _ records: [(Int64, String)], to merge: inout EventTimeMerge, input: Int = 0, firstLine: Int = 1
    ) -> [EventTimeMerge.Placement] {
        records.enumerated().map { offset, entry in
            merge.add(
                record(entry.0, entry.1), at: SourcePosition(fileRank: input, line: firstLine + offset), from: input)
        }
    }

    /// Everything let out: (time, place's time, ahead).
    private static func drain(_ merge: inout EventTimeMerge) -> [(Int64, Int64, Bool)] {
        var out: [(Int64, Int64, Bool)] = []
        while let taken = merge.nextWithPlace() {
            out.append((taken.record.timestamp.milliseconds, taken.place.time.milliseconds, taken.ahead))
        }
        return out
    }

    /// One device far ahead in a file of several: its record moves neither the file's clock
    /// (the records after it are not late) nor, coming out last, the time the merge ends at.
    @Test func aRecordNoOtherKeyFollowsMovesNoClock() {
        var merge = EventTimeMerge(inputs: 1, maxLateness: 10)
        let placed = Self.add([(10, "a"), (11, "b"), (1_000, "x"), (12, "a"), (13, "b")], to: &merge)
        #expect(placed.allSatisfy { $0 == .inOrder })
        #expect(merge.clock(of: 0)?.milliseconds == 13)
        merge.end(0)
        let out = Self.drain(&merge)
        #expect(out.map(\.0) == [10, 11, 12, 13, 1_000])
        #expect(out.map(\.1) == [10, 11, 12, 13, 1_000])
        #expect(out.map(\.2) == [false, false, false, false, true])
        #expect(merge.released?.milliseconds == 13)
        #expect(merge.endTime?.milliseconds == 13)
    }

    /// A device further ahead does not vouch for one less far ahead: neither moves the clock.
    @Test func aJumpFurtherStillVouchesForNone() {
        var merge = EventTimeMerge(inputs: 1, maxLateness: 10)
        _ = Self.add([(10, "a"), (11, "b"), (1_000, "x"), (2_000, "y"), (12, "a")], to: &merge)
        #expect(merge.clock(of: 0)?.milliseconds == 12)
        merge.end(0)
        #expect(Self.drain(&merge).map(\.2) == [false, false, false, true, true])
    }

    /// A jump another key follows within the window is the file moving on (after a silence):
    /// the clock moves to it, and a record more than the window behind it comes late.
    @Test func aJumpAnotherKeyFollowsMovesTheClock() {
        var merge = EventTimeMerge(inputs: 1, maxLateness: 10)
        let placed = Self.add([(10, "a"), (100, "a"), (95, "b"), (80, "c")], to: &merge)
        #expect(placed == [.inOrder, .inOrder, .inOrder, .late])
        #expect(merge.clock(of: 0)?.milliseconds == 100)
        merge.end(0)
        let out = Self.drain(&merge)
        #expect(out.map(\.1) == [10, 90, 95, 100])
        #expect(out.allSatisfy { !$0.2 })
    }

    /// A file that begins with one device far ahead has that device's clock (it never goes back,
    /// docs/time.md): the records after it come late, at that clock less the window.
    @Test func aFileThatBeginsFarAheadHasThatClock() {
        var merge = EventTimeMerge(inputs: 1, maxLateness: 10)
        let placed = Self.add([(1_000, "x"), (10, "a"), (11, "b")], to: &merge)
        #expect(placed == [.inOrder, .late, .late])
        #expect(merge.clock(of: 0)?.milliseconds == 1_000)
        merge.end(0)
        #expect(Self.drain(&merge).map(\.1) == [990, 990, 1_000])
    }

    /// A file of one device (one file per device) keeps that device's clock: a pause longer
    /// than the window moves it as in any file, and nothing of it is ahead.
    @Test func aFileOfOneKeyKeepsItsKeysClock() {
        var merge = EventTimeMerge(inputs: 2, maxLateness: 10)
        _ = Self.add([(10, "a"), (500, "a"), (501, "a")], to: &merge, input: 0)
        _ = Self.add([(10, "b"), (495, "b")], to: &merge, input: 1)
        #expect(merge.clock(of: 0)?.milliseconds == 501)
        merge.end(0)
        merge.end(1)
        let out = Self.drain(&merge)
        #expect(out.map(\.0) == [10, 10, 495, 500, 501])
        #expect(out.allSatisfy { !$0.2 })
        #expect(merge.released?.milliseconds == 501)
    }

    /// The partition's marks give a part file's records the places the whole file gives them.
    @Test func aPartFilesJumpDoesNotMoveItsClock() {
        var clock = FileClock()
        #expect(clock.place(of: Timestamp(milliseconds: 10), given: .inOrder, maxLateness: 10).milliseconds == 10)
        #expect(clock.place(of: Timestamp(milliseconds: 1_000), given: .jump, maxLateness: 10).milliseconds == 1_000)
        #expect(clock.time?.milliseconds == 10)
        let late = clock.place(
            of: Timestamp(milliseconds: 1), given: .late(Timestamp(milliseconds: 5)), maxLateness: 10)
        #expect(late.milliseconds == 5)
        #expect(clock.time?.milliseconds == 10)
    }
}
