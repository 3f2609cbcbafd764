import EventModel

/// A tracker's getters, kept in registration order so that they apply in a fixed order.
///
/// Applying them walks an array (every emit does); the index serves look-ups by attribute.
struct GetterTable {
    private(set) var entries: [(attribute: AttributeKey, getter: AttributeGetter)] = []
    private var index: [AttributeKey: Int] = [:]

    subscript(attribute: AttributeKey) -> AttributeGetter? {
        index[attribute].map { entries[$0].getter }
    }

    mutating func set(_ getter: AttributeGetter, for attribute: AttributeKey) {
        if let position = index[attribute] {
            entries[position].getter = getter
        } else {
            index[attribute] = entries.count
            entries.append((attribute, getter))
        }
    }

    mutating func remove(_ attribute: AttributeKey) {
        guard let position = index.removeValue(forKey: attribute) else { return }
        entries.remove(at: position)
        for (offset, entry) in entries.enumerated().dropFirst(position) {
            index[entry.attribute] = offset
        }
    }

    var count: Int { entries.count }
}

extension Instrument {
    /// Registers (or replaces) a tracker's getter for an attribute.
    /// - Parameters:
    ///   - attribute: The attribute the getter reads.
    ///   - trackerID: The tracker it belongs to.
    ///   - getter: Returns the current value, or `nil` for none.
    ///   - filter: Decides which events get the attribute when the tracker emits; every event by default.
    public func registerGetter(
        _ attribute: AttributeKey,
        for trackerID: TrackerID,
        getter: @escaping () -> AttributeValue?,
        filter: @escaping (Event, AttributeKey) -> Bool = { _, _ in true }
    ) {
        guard tracker(trackerID) != nil else { return }
        getters[trackerID, default: GetterTable()].set(AttributeGetter(value: getter, filter: filter), for: attribute)
    }

    /// Removes a tracker's getter for an attribute.
    public func unregisterGetter(_ attribute: AttributeKey, for trackerID: TrackerID) {
        getters[trackerID]?.remove(attribute)
    }

    /// The current value of a tracker's attribute: the one it supplies, or else its getter's;
    /// `nil` when it has neither or no value.
    public func callGetter(_ attribute: AttributeKey, of trackerID: TrackerID) -> AttributeValue? {
        if let value = tracker(trackerID)?.suppliedAttributes[attribute] { return value }
        return getters[trackerID]?[attribute]?.value()
    }

    /// Puts a tracker's attribute on an event: the value it supplies, or else its getter's
    /// if that getter's filter lets it and it has a value.
    public func useGetter(_ attribute: AttributeKey, of trackerID: TrackerID, on event: inout Event) {
        guard let tracker = calls.trackers[trackerID] else { return }
        use(attribute, suppliedIn: tracker.suppliedAttributes, orGetterOf: trackerID, on: &event)
    }

    /// ``useGetter(_:of:on:)`` when ``callGetter(_:of:)`` of `condition` answers `expected`,
    /// as a hub asking every tracker does (``HubCoreAds``: the content `position`), with the
    /// tracker and its supplied attributes looked up once. The supplied attributes are read
    /// again after a getter ran, in case it changed them. Returns whether `condition` answered
    /// `expected`.
    @discardableResult
    func useGetter(
        _ attribute: AttributeKey, of trackerID: TrackerID, on event: inout Event,
        whenGetter condition: AttributeKey, answers expected: AttributeValue
    ) -> Bool {
        guard let tracker = calls.trackers[trackerID] else { return false }
        var supplied = tracker.suppliedAttributes
        if let value = supplied[condition] {
            guard value == expected else { return false }
        } else {
            guard getters[trackerID]?[condition]?.value() == expected else { return false }
            // Looked up again: the getter may have removed the tracker.
            guard let tracker = calls.trackers[trackerID] else { return false }
            supplied = tracker.suppliedAttributes
        }
        use(attribute, suppliedIn: supplied, orGetterOf: trackerID, on: &event)
        return true
    }

    /// Puts an attribute on an event: its value in `supplied`, or else the tracker's getter's.
    private func use(
        _ attribute: AttributeKey, suppliedIn supplied: SuppliedAttributes, orGetterOf trackerID: TrackerID,
        on event: inout Event
    ) {
        if let value = supplied[attribute] {
            // The event already reads it when its tracker supplied it: storing it again would
            // change nothing but cost a copy of the value in the event's own list. Known
            // without reading it when the event is this tracker's.
            if event.readsSupplied(attribute, from: supplied) { return }
            if event[attribute] != value { event[attribute] = value }
            return
        }
        guard let getter = getters[trackerID]?[attribute] else { return }
        Self.apply(getter, attribute, to: &event)
    }

    /// Applies the tracker's getters in registration order, but for attributes it supplies.
    func applyGetters(of trackerID: TrackerID, to event: inout Event) {
        guard let table = getters[trackerID] else { return }
        for (attribute, getter) in table.entries where !event.isSupplied(attribute) {
            Self.apply(getter, attribute, to: &event)
        }
    }

    private static func apply(_ getter: AttributeGetter, _ attribute: AttributeKey, to event: inout Event) {
        guard getter.filter(event, attribute), let value = getter.value() else { return }
        event[attribute] = value
    }
}
