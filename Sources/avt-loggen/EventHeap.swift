/// A binary min-heap of `(time, sequence, slot)`: the next instrument to emit, or the next
/// late record to release. The sequence number breaks ties in insertion order, so the
/// order never depends on anything but the seed.
struct EventHeap {
    struct Entry {
        var time: Int64
        var sequence: UInt64
        var slot: Int32
    }

    private var entries: [Entry] = []
    private var sequence: UInt64 = 0

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }
    var first: Entry? { entries.first }

    mutating func push(time: Int64, slot: Int32) {
        sequence += 1
        entries.append(Entry(time: time, sequence: sequence, slot: slot))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(entries[child], entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Entry? {
        guard let top = entries.first else { return nil }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            var parent = 0
            let count = entries.count
            while true {
                let left = 2 * parent + 1
                if left >= count { break }
                var smallest = left
                let right = left + 1
                if right < count && Self.precedes(entries[right], entries[left]) { smallest = right }
                guard Self.precedes(entries[smallest], entries[parent]) else { break }
                entries.swapAt(smallest, parent)
                parent = smallest
            }
        }
        return top
    }

    @inline(__always)
    private static func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
        lhs.time != rhs.time ? lhs.time < rhs.time : lhs.sequence < rhs.sequence
    }
}
