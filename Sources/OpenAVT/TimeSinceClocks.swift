import EventModel

/// An instrument's time-since clocks: for each action that reached the backend, its
/// time-since attribute and when it last did.
///
/// Every OpenAVT event carries the whole table (some forty attributes), which used to be
/// written into each event's dictionary. An event now keeps a snapshot of the table, its
/// shared layout and array of times, and answers a time-since attribute when it is read:
/// taking the snapshot costs two references, and the instrument's next restart copies only
/// the array of times.
struct TimeSinceClocks: Sendable {
    /// Which clocks a table has: each one's time-since attribute, OpenAVT's actions' then
    /// others in the order their clocks were first started, and each attribute's position.
    /// Never changed: a new clock makes a new layout (custom actions only), so that a snapshot
    /// retains one object for both (measured: 2% of a replay's reference counting).
    private final class Layout: Sendable {
        let keys: [AttributeKey]
        let index: [AttributeKey: Int]

        init(keys: [AttributeKey], index: [AttributeKey: Int]) {
            self.keys = keys
            self.index = index
        }
    }

    /// `nil` for a table without clocks.
    private var layout: Layout?
    /// When each clock last restarted; ``removed`` until it first starts, and once an event's
    /// attribute was set to `nil`.
    private var times: [Timestamp] = []
    /// The time the values are measured to: the emitting event's.
    private(set) var reference = Timestamp(milliseconds: 0)

    private static let removed = Timestamp(milliseconds: .min)

    /// A table with a clock, not started, for each of OpenAVT's actions, from which every
    /// instrument's starts: its keys and index are shared until a custom action's clock
    /// starts, and starting one of OpenAVT's changes a time only (measured: growing each
    /// instrument's table, copied because events share it, was 1% of a replay).
    ///
    /// Each call gives a layout object of its own, over the same keys and index: every event's
    /// snapshot retains and releases its instrument's layout, and one layout shared by the
    /// instruments that threads replay at once had its reference count's cache line pass
    /// between their cores on every event (measured: 1.6 atomic operations a record, all on
    /// that one object, from both workers).
    static func openAVT() -> TimeSinceClocks {
        var clocks = openAVTTemplate
        if let layout = clocks.layout {
            clocks.layout = Layout(keys: layout.keys, index: layout.index)
        }
        return clocks
    }

    private static let openAVTTemplate: TimeSinceClocks = {
        var clocks = TimeSinceClocks()
        for action in Action.openAVT {
            clocks.restart(action.timeAttribute, at: removed)
        }
        return clocks
    }()

    /// The time-since attribute of each clock.
    var keys: [AttributeKey] { layout?.keys ?? [] }

    /// Restarts the clock of `key` at `time`.
    mutating func restart(_ key: AttributeKey, at time: Timestamp) {
        if let position = position(of: key) {
            times[position] = time
        } else {
            var index = layout?.index ?? [:]
            index[key] = times.count
            layout = Layout(keys: keys + [key], index: index)
            times.append(time)
        }
    }

    private func position(of key: AttributeKey) -> Int? {
        layout?.index[key]
    }

    /// The table as an event emitted at `time` sees it.
    func snapshot(at time: Timestamp) -> TimeSinceClocks {
        var snapshot = self
        snapshot.reference = time
        return snapshot
    }

    /// The milliseconds from the clock's last restart to ``reference``, if it has one.
    func value(of key: AttributeKey) -> AttributeValue? {
        guard let position = position(of: key) else { return nil }
        let time = times[position]
        return time == Self.removed ? nil : .int(reference.milliseconds(since: time))
    }

    /// Whether `key` is a clock of the table.
    func contains(_ key: AttributeKey) -> Bool {
        guard let position = position(of: key) else { return false }
        return times[position] != Self.removed
    }

    /// Hides the clock of `key` from this snapshot.
    mutating func remove(_ key: AttributeKey) {
        guard let position = position(of: key) else { return }
        times[position] = Self.removed
    }

    /// Every clock's attribute and value.
    var values: [(key: AttributeKey, value: AttributeValue)] {
        zip(keys, times).compactMap { key, time in
            time == Self.removed ? nil : (key, .int(reference.milliseconds(since: time)))
        }
    }
}
