import Testing

@testable import Replay

/// The records a life keeps waiting come out moved, in the order they came, and the queue
/// lets go of what it still holds when it goes.
@Suite struct WaitingRecordsTests {
    private final class Tracked {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test func recordsComeOutInOrderAcrossGrowthAndReuse() {
        var queue = WaitingRecords<String>()
        for index in 0..<100 { queue.append("record \(index)") }
        #expect(queue.count == 100)
        var out: [String] = []
        queue.drain(keepingCapacity: true) { out.append($0) }
        #expect(out == (0..<100).map { "record \($0)" })
        #expect(queue.count == 0)
        queue.append("after")
        out = []
        queue.drain(keepingCapacity: false) { out.append($0) }
        #expect(out == ["after"])
        queue.drain(keepingCapacity: false) { _ in Issue.record("an empty queue gave a record") }
    }

    @Test func recordsStillWaitingAreLetGoWithTheQueue() {
        weak var kept: Tracked?
        weak var handedOut: Tracked?
        do {
            var queue = WaitingRecords<Tracked>()
            let first = Tracked(1)
            handedOut = first
            queue.append(first)
            var out: [Tracked] = []
            queue.drain(keepingCapacity: true) { out.append($0) }
            #expect(out.map(\.number) == [1])
            let second = Tracked(2)
            kept = second
            queue.append(second)
            #expect(kept != nil)
        }
        #expect(kept == nil)
        #expect(handedOut == nil)
    }
}
