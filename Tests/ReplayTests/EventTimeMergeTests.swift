import EventModel
import Testing

@testable import Replay

/// `EventTimeMerge` on its own: records of several inputs come out in time order, then by key
/// digest, then by position, whichever input holds the first one, and none is lost.
struct EventTimeMergeTests {
    private static func record(_ time: Int64, _ instrument: String) -> Record {
        .avt(AVTRecord(timestamp: Timestamp(milliseconds: time), instrument: instrument, tracker: 0, action: "Ping"))
    }

    private static func order(_ taken: (record: Record, position: SourcePosition)) -> (Int64, UInt64, SourcePosition) {
        (taken.record.timestamp.milliseconds, Shard.hash(SessionKey(of: taken.record)), taken.position)
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
        var out: [(record: Record, position: SourcePosition)] = []
        // Read as the reader does: a record at a time from the input with the lowest clock.
        var next = Array(repeating: 0, count: Self.inputs.count)
        while let input = merge.inputToRead() {
            if next[input] == Self.inputs[input].count {
                merge.end(input)
            } else {
                let (time, id) = Self.inputs[input][next[input]]
                next[input] += 1
                let position = SourcePosition(fileRank: input, line: next[input])
                guard case .merged = merge.add(Self.record(time, id), at: position, from: input) else {
                    Issue.record("record \(time) of input \(input) not merged in order")
                    continue
                }
            }
            while let taken = merge.next() { out.append(taken) }
        }
        while let taken = merge.next() { out.append(taken) }
        #expect(out.count == Self.inputs.joined().count)
        #expect(merge.waiting == 0)
        let orders = out.map(Self.order)
        #expect(zip(orders, orders.dropFirst()).allSatisfy { $0 < $1 })
        #expect(out.map(\.record.timestamp.milliseconds).prefix(4) == [5, 10, 11, 12])
    }

    @Test func aRecordEarlierThanOneAlreadyOutIsGivenBack() {
        var merge = EventTimeMerge(inputs: 1, maxLateness: 0)
        _ = merge.add(Self.record(10, "a"), at: SourcePosition(fileRank: 0, line: 1), from: 0)
        _ = merge.add(Self.record(20, "a"), at: SourcePosition(fileRank: 0, line: 2), from: 0)
        #expect(merge.next()?.record.timestamp.milliseconds == 10)
        let placement = merge.add(Self.record(5, "a"), at: SourcePosition(fileRank: 0, line: 3), from: 0)
        guard case .tooLate(let record) = placement else {
            Issue.record("a record earlier than one out was merged")
            return
        }
        #expect(record.timestamp.milliseconds == 5)
    }
}
