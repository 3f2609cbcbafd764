import EventModel

/// A tracker's getters, kept in registration order so that they apply in a fixed order.
struct GetterTable {
    private(set) var order: [AttributeKey] = []
    private(set) var getters: [AttributeKey: AttributeGetter] = [:]

    mutating func set(_ getter: AttributeGetter, for attribute: AttributeKey) {
        if getters.updateValue(getter, forKey: attribute) == nil {
            order.append(attribute)
        }
    }

    mutating func remove(_ attribute: AttributeKey) {
        if getters.removeValue(forKey: attribute) != nil {
            order.removeAll { $0 == attribute }
        }
    }
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

    /// The current value of a tracker's attribute, or `nil` when it has no getter or no value.
    public func callGetter(_ attribute: AttributeKey, of trackerID: TrackerID) -> AttributeValue? {
        getters[trackerID]?.getters[attribute]?.value()
    }

    /// Puts a tracker's attribute on an event, if it has a getter whose filter lets it and a value.
    public func useGetter(_ attribute: AttributeKey, of trackerID: TrackerID, on event: inout Event) {
        guard let getter = getters[trackerID]?.getters[attribute], getter.filter(event, attribute),
            let value = getter.value()
        else { return }
        event[attribute] = value
    }

    func applyGetters(of trackerID: TrackerID, to event: inout Event) {
        guard let table = getters[trackerID] else { return }
        for attribute in table.order {
            useGetter(attribute, of: trackerID, on: &event)
        }
    }
}
