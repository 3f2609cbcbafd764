import EventModel

/// An instrument's time-since clocks: for each action that reached the backend, its
/// time-since attribute and when it last did.
///
/// Every OpenAVT event carries the whole table (some forty attributes), which used to be
/// written into each event's dictionary. An event now keeps a snapshot of the table, two
/// shared arrays and an index, and answers a time-since attribute when it is read: taking
/// the snapshot costs a reference, and the instrument's next restart copies only the
/// array of times.
struct TimeSinceClocks: Sendable {
    /// The time-since attribute of each clock: OpenAVT's actions', then others in the order
    /// their clocks were first started.
    private(set) var keys: [AttributeKey] = []
    /// When each clock last restarted; ``removed`` until it first starts, and once an event's
    /// attribute was set to `nil`.
    private var times: [Timestamp] = []
    private var index: [AttributeKey: Int] = [:]
    /// The time the values are measured to: the emitting event's.
    private(set) var reference = Timestamp(milliseconds: 0)

    private static let removed = Timestamp(milliseconds: .min)

    /// A table with a clock, not started, for each of OpenAVT's actions, from which every
    /// instrument's starts: its keys and index are shared until a custom action's clock
    /// starts, and starting one of OpenAVT's changes a time only (measured: growing each
    /// instrument's table, copied because events share it, was 1% of a replay).
    static let openAVT: TimeSinceClocks = {
        var clocks = TimeSinceClocks()
        for action in Action.openAVT {
            clocks.restart(action.timeAttribute, at: removed)
        }
        return clocks
    }()

    /// Restarts the clock of `key` at `time`.
    mutating func restart(_ key: AttributeKey, at time: Timestamp) {
        if let position = index[key] {
            times[position] = time
        } else {
            index[key] = keys.count
            keys.append(key)
            times.append(time)
        }
    }

    /// The table as an event emitted at `time` sees it.
    func snapshot(at time: Timestamp) -> TimeSinceClocks {
        var snapshot = self
        snapshot.reference = time
        return snapshot
    }

    /// The milliseconds from the clock's last restart to ``reference``, if it has one.
    func value(of key: AttributeKey) -> AttributeValue? {
        guard let position = index[key] else { return nil }
        let time = times[position]
        return time == Self.removed ? nil : .int(reference.milliseconds(since: time))
    }

    /// Whether `key` is a clock of the table.
    func contains(_ key: AttributeKey) -> Bool {
        guard let position = index[key] else { return false }
        return times[position] != Self.removed
    }

    /// Hides the clock of `key` from this snapshot.
    mutating func remove(_ key: AttributeKey) {
        guard let position = index[key] else { return }
        times[position] = Self.removed
    }

    /// Every clock's attribute and value.
    var values: [(key: AttributeKey, value: AttributeValue)] {
        zip(keys, times).compactMap { key, time in
            time == Self.removed ? nil : (key, .int(reference.milliseconds(since: time)))
        }
    }
}
