import EventModel

/// An instrument's time-since clocks: for each action that reached the backend, its
/// time-since attribute and when it last did.
///
/// Every OpenAVT event carries the whole table (some forty attributes). Rather than a copy in
/// each event's dictionary, an event keeps a snapshot of the table (one object holding its
/// shared layout and its times) and answers a time-since attribute when it is read: taking the snapshot costs a reference, and the instrument's next restart
/// copies only the times. Sendable as a value: a table's times change only while no other
/// table holds them.
struct TimeSinceClocks: @unchecked Sendable {
    /// Which clocks a table has: each one's time-since attribute, OpenAVT's actions' then
    /// others in the order their clocks were first started, and each attribute's position.
    /// Never changed: a new clock makes a new layout (custom actions only).
    private final class Layout: Sendable {
        let keys: [AttributeKey]
        let index: [AttributeKey: Int]

        init(keys: [AttributeKey], index: [AttributeKey: Int]) {
            self.keys = keys
            self.index = index
        }
    }

    /// The layout and, after it in the same allocation, when each clock last restarted:
    /// ``removed`` until it first starts, and once an event's attribute was set to `nil`. One
    /// object, so that a snapshot retains and releases one reference. Its
    /// times change only while no other table holds it, as an array's would.
    private final class Times: ManagedBuffer<Layout, Timestamp> {
        /// A table of `layout`'s clocks, with `count` times from `times`, then ``removed``.
        static func make(_ layout: Layout, copying times: Times?, count: Int) -> Times {
            let made = unsafeDowncast(create(minimumCapacity: layout.keys.count) { _ in layout }, to: Times.self)
            made.withUnsafeMutablePointerToElements { target in
                let total = layout.keys.count
                if let times {
                    times.withUnsafeMutablePointerToElements { target.initialize(from: $0, count: count) }
                    (target + count).initialize(repeating: removed, count: total - count)
                } else {
                    target.initialize(repeating: removed, count: total)
                }
            }
            return made
        }

        deinit {
            _ = withUnsafeMutablePointers { header, times in times.deinitialize(count: header.pointee.keys.count) }
        }

        var layout: Layout { header }

        subscript(position: Int) -> Timestamp {
            get { withUnsafeMutablePointerToElements { $0[position] } }
            set { withUnsafeMutablePointerToElements { $0[position] = newValue } }
        }
    }

    /// `nil` for a table without clocks.
    private var times: Times?
    /// The time the values are measured to: the emitting event's.
    private(set) var reference = Timestamp(milliseconds: 0)

    private static let removed = Timestamp(milliseconds: .min)

    /// A table with a clock, not started, for each of OpenAVT's actions, from which every
    /// instrument's starts: its keys and index are shared until a custom action's clock
    /// starts, and starting one of OpenAVT's changes a time only.
    ///
    /// Each call gives a table object of its own, over the same keys and index: every event's
    /// snapshot retains and releases its instrument's table, and one table shared by the
    /// instruments that threads replay at once had its reference count's cache line pass
    /// between their cores on every event.
    static func openAVT() -> TimeSinceClocks {
        var clocks = TimeSinceClocks()
        if let layout = openAVTLayout {
            clocks.times = Times.make(Layout(keys: layout.keys, index: layout.index), copying: nil, count: 0)
        }
        return clocks
    }

    private static let openAVTLayout: Layout? = {
        var clocks = TimeSinceClocks()
        for action in Action.openAVT {
            clocks.restart(action.timeAttribute, at: removed)
        }
        return clocks.times?.layout
    }()

    /// The time-since attribute of each clock.
    var keys: [AttributeKey] { times?.layout.keys ?? [] }

    /// Restarts the clock of `key` at `time`.
    mutating func restart(_ key: AttributeKey, at time: Timestamp) {
        if let position = position(of: key) {
            makeTimesUnique()
            times?[position] = time
        } else {
            let count = keys.count
            var index = times?.layout.index ?? [:]
            index[key] = count
            times = Times.make(Layout(keys: keys + [key], index: index), copying: times, count: count)
            times?[count] = time
        }
    }

    /// Copies the times before they change, when another table (an event's snapshot) holds them.
    private mutating func makeTimesUnique() {
        guard !isKnownUniquelyReferenced(&times), let shared = times else { return }
        times = Times.make(shared.layout, copying: shared, count: shared.layout.keys.count)
    }

    private func position(of key: AttributeKey) -> Int? {
        times?.layout.index[key]
    }

    /// The table as an event emitted at `time` sees it.
    func snapshot(at time: Timestamp) -> TimeSinceClocks {
        var snapshot = self
        snapshot.reference = time
        return snapshot
    }

    /// The milliseconds from the clock's last restart to ``reference``, if it has one.
    func value(of key: AttributeKey) -> AttributeValue? {
        guard let times, let position = position(of: key) else { return nil }
        let time = times[position]
        return time == Self.removed ? nil : .int(reference.milliseconds(since: time))
    }

    /// Whether `key` is a clock of the table.
    func contains(_ key: AttributeKey) -> Bool {
        guard let times, let position = position(of: key) else { return false }
        return times[position] != Self.removed
    }

    /// Hides the clock of `key` from this snapshot.
    mutating func remove(_ key: AttributeKey) {
        guard let position = position(of: key) else { return }
        makeTimesUnique()
        times?[position] = Self.removed
    }

    /// Every clock's attribute and value.
    var values: [(key: AttributeKey, value: AttributeValue)] {
        guard let times else { return [] }
        return times.layout.keys.indices.compactMap { position in
            let time = times[position]
            return time == Self.removed ? nil : (times.layout.keys[position], .int(reference.milliseconds(since: time)))
        }
    }
}

/// A table as an instrument's state keeps it (``Instrument/encodeState(to:)``): in the
/// layout's order, each clock's attribute and the time it last restarted, and the reference.
/// OpenAVT's clocks that have not started are left out (most of them, most of the time): every
/// table has them, in the same order, ahead of the others.
extension TimeSinceClocks: Codable {
    /// `c`: the clocks, `[attribute, time]` each; `r`: the reference, left out at 0.
    private enum StateKey: String, CodingKey {
        case clocks = "c", reference = "r"
    }

    private struct Clock: Codable, Equatable {
        var attribute: AttributeKey
        /// `nil` for a clock not started (kept only past OpenAVT's).
        var time: Timestamp?

        init(attribute: AttributeKey, time: Timestamp?) {
            self.attribute = attribute
            self.time = time
        }

        init(from decoder: any Decoder) throws {
            var fields = try decoder.unkeyedContainer()
            attribute = try fields.decode(AttributeKey.self)
            time = try fields.decode(Timestamp?.self)
        }

        func encode(to encoder: any Encoder) throws {
            var fields = encoder.unkeyedContainer()
            try fields.encode(attribute)
            try fields.encode(time)
        }
    }

    /// The clocks as saved.
    private var savedClocks: [Clock] {
        guard let times else { return [] }
        let keys = times.layout.keys
        let openAVTCount = Self.openAVTLayout?.keys.count ?? 0
        return keys.indices.compactMap { position in
            let time = times[position]
            if time != Self.removed { return Clock(attribute: keys[position], time: time) }
            return position < openAVTCount ? nil : Clock(attribute: keys[position], time: nil)
        }
    }

    /// OpenAVT's table with the saved clocks started in their order: the saved layout, which
    /// the saved clocks, saved again, check.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: StateKey.self)
        let saved = try container.decode([Clock].self, forKey: .clocks)
        var clocks = TimeSinceClocks.openAVT()
        for clock in saved {
            clocks.restart(clock.attribute, at: clock.time ?? Self.removed)
        }
        guard clocks.savedClocks == saved else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath + [StateKey.clocks],
                    debugDescription: "the time-since clocks are not in the order of an instrument's, each once"))
        }
        clocks.reference =
            try container.decodeIfPresent(Timestamp.self, forKey: .reference) ?? Timestamp(milliseconds: 0)
        self = clocks
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StateKey.self)
        try container.encode(savedClocks, forKey: .clocks)
        if reference.milliseconds != 0 { try container.encode(reference, forKey: .reference) }
    }
}
