/// Values by tracker id, in an array: the instrument gives trackers the ids 0, 1, 2, ... and
/// looks them up several times an event, which an array index does cheaper than hashing the
/// ids. Negative ids hold nothing.
struct TrackerTable<Value> {
    private var slots: [Value?] = []

    subscript(id: TrackerID) -> Value? {
        get { id >= 0 && id < slots.count ? slots[id] : nil }
        set {
            guard id >= 0 else { return }
            if id >= slots.count {
                guard newValue != nil else { return }
                slots.append(contentsOf: repeatElement(nil, count: id - slots.count + 1))
            }
            slots[id] = newValue
        }
    }

    subscript(id: TrackerID, default value: @autoclosure () -> Value) -> Value {
        get { self[id] ?? value() }
        set { self[id] = newValue }
    }
}
