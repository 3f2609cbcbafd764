import Foundation

/// Hands values from one thread to another in order, holding at most `capacity` of them:
/// ``put(_:)`` waits while it is full, ``take()`` while it is empty, so that a thread that runs
/// ahead waits rather than filling memory.
///
/// Unchecked: every stored property is read and written with `condition` locked; a value is
/// moved in by one thread and out by the other, never shared.
final class BoundedQueue<Element>: @unchecked Sendable {
    // Guarded by `condition`.
    private var elements: [Element] = []
    private var finished = false
    private let capacity: Int
    private let condition = NSCondition()

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Adds a value at the end, once there is room.
    func put(_ element: consuming Element) {
        condition.lock()
        while elements.count >= capacity { condition.wait() }
        elements.append(element)
        condition.broadcast()
        condition.unlock()
    }

    /// Says that no value follows: ``take()`` returns `nil` once the queue is empty.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The values held now (for tests: another thread may change it at once).
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return elements.count
    }

    /// The first value, or `nil` once ``finish()`` was called and every value was taken.
    func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while elements.isEmpty && !finished { condition.wait() }
        guard !elements.isEmpty else { return nil }
        let first = elements.removeFirst()
        condition.broadcast()
        return first
    }
}
