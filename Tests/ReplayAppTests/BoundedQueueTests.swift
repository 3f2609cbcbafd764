import Foundation
import Testing

@testable import ReplayApp

/// The hand-over between threads: every value once, in order, with at most `capacity` held.
struct BoundedQueueTests {
    @Test func valuesComeOutOnceInOrderAndTheQueueNeverHoldsMoreThanItsCapacity() {
        let queue = BoundedQueue<Int>(capacity: 2)
        let producer = Thread {
            for value in 0..<10_000 { queue.put(value) }
            queue.finish()
        }
        producer.start()
        var taken: [Int] = []
        while let value = queue.take() {
            #expect(queue.count <= 2)
            taken.append(value)
        }
        #expect(taken == Array(0..<10_000))
        #expect(queue.take() == nil)
    }

    @Test func aFinishedQueueGivesWhatItHoldsThenNil() {
        let queue = BoundedQueue<String>(capacity: 3)
        queue.put("a")
        queue.put("b")
        queue.finish()
        #expect(queue.take() == "a")
        #expect(queue.take() == "b")
        #expect(queue.take() == nil)
    }

    /// A value moved through a `ThreadBox` and back is the one the other thread left.
    @Test func aThreadBoxComesBackWithTheOtherThreadsValue() {
        let box = ThreadBox([1, 2, 3])
        let done = BoundedQueue<Void>(capacity: 1)
        let worker = Thread {
            box.value.append(4)
            done.finish()
        }
        worker.start()
        #expect(done.take() == nil)
        #expect(box.value == [1, 2, 3, 4])
    }
}
