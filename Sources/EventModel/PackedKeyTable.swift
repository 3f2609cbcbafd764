import Synchronization

/// The attribute names packed attributes refer to by number rather than spell out, one table
/// for the process.
///
/// A name gets its number the first time an ``AttributeKey`` of it is made, and keeps it; a
/// key carries its number, so finding an attribute in packed bytes compares numbers. The
/// table is bounded, so that memory stays flat whatever the input: names longer than
/// ``maxNameLength`` bytes, and any name once ``capacity`` are taken, get no number (0) and
/// are packed by their bytes. Spelt out, the names would be a third of a waiting record's
/// memory.
enum PackedKeyTable {
    /// How many names get a number.
    static let capacity = 4_096
    /// The longest name that gets one, in UTF-8 bytes.
    static let maxNameLength = 64

    /// The names numbered first, from 1, in this order, whatever the input: the attributes
    /// OpenAVT's core hubs stamp on every event they accept, in the order of the slots an event
    /// keeps them in (OpenAVT's `HubStamp`). So a slot is its name's number less one, found
    /// with a subtraction rather than a table made at run time (whose global was a call on
    /// every attribute read), and every stamped attribute has a slot, however many names the
    /// first records take.
    static let reservedNames = [
        "deltaPlayTime", "countErrors", "countStarts", "accumPauseTime", "accumBufferTime", "accumSeekTime",
        "countAds", "inPauseBlock", "inSeekBlock", "inBufferBlock", "inPlaybackBlock", "inAdBreakBlock", "inAdBlock",
        "streamId", "playbackId",
    ]

    private struct State {
        var numbers: [String: UInt32] = [:]
        /// The names by number, from 1.
        var names: [AttributeKey] = []

        /// A table with ``reservedNames`` numbered.
        init() {
            for name in PackedKeyTable.reservedNames { add(name, digest: fnv1a(name)) }
        }

        @discardableResult
        mutating func add(_ name: String, digest: UInt64) -> UInt32 {
            let number = UInt32(names.count + 1)
            numbers[name] = number
            names.append(AttributeKey(rawValue: name, digest: digest, packedNumber: number))
            return number
        }
    }

    /// The table, behind Synchronization's `Mutex`: the decoding threads number names at once.
    private static let state = Mutex(State())
    /// Counts the holds of `state`, so that ThreadSanitizer sees each hold follow the one before:
    /// `Mutex` hands a contended lock over in the kernel (a priority-inheriting futex), out of
    /// its sight, and it reported the decoding threads as a race. Held only on a decoder's cache
    /// miss (a name new to that thread), so the two atomic adds cost nothing measurable.
    private static let holds = Atomic<Int>(0)

    /// Calls `body` with the table, under the lock.
    private static func withState<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
        state.withLock { table in
            holds.add(1, ordering: .acquiring)
            defer { holds.add(1, ordering: .releasing) }
            return body(&table)
        }
    }

    /// The number of a name, given it on first use; 0 when it gets none.
    static func number(for name: String, digest: UInt64) -> UInt32 {
        guard name.utf8.count <= maxNameLength else { return 0 }
        return withState { state in
            if let number = state.numbers[name] { return number }
            guard state.names.count < capacity else { return 0 }
            return state.add(name, digest: digest)
        }
    }

    /// The names numbered so far, in the order they were first used.
    static var names: [String] {
        withState { $0.names.map(\.rawValue) }
    }

    /// Calls `body` with a function from a number to its key: the names numbered so far, taken
    /// under one lock and read after it (numbers are never reused, and `body` may make keys,
    /// which takes the lock again).
    static func withKeys<Result>(_ body: ((UInt32) -> AttributeKey) -> Result) -> Result {
        let names = withState { $0.names }
        return body { names[Int($0) - 1] }
    }
}

extension AttributeKey {
    /// The attributes OpenAVT's core hubs stamp on every event, by slot: the keys of
    /// `PackedKeyTable.reservedNames`, numbered 1, 2, … in this order.
    package static let hubStamped: [AttributeKey] = PackedKeyTable.reservedNames.map(AttributeKey.init(rawValue:))
}
