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
            while let taken = merge.nextWithPlace() { out.append(taken) }
        }
        while let taken = merge.nextWithPlace() { out.append(taken) }
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
        while let (record, place) = merge.nextWithPlace() {
            out.append((record.timestamp.milliseconds, place.time.milliseconds))
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
}
