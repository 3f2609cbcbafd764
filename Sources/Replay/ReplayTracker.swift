import EventModel
import OpenAVT

/// A tracker that re-emits recorded actions with their recorded attributes.
///
/// Its getters answer with the attributes of the tracker's latest record: before each emit
/// the replay loads the record with ``load(_:into:)``, so the event gets exactly the
/// recorded attributes, and a hub asking another tracker (as ``HubCoreAds`` asks for the
/// content `position`) gets that tracker's latest recorded value. A getter is registered the
/// first time its attribute appears in a record of this tracker.
public final class ReplayTracker: Tracker {
    public var trackerID: TrackerID?
    /// The getter slot of each attribute seen, and the latest record's value in each slot
    /// (`nil` where it has none).
    private var slots: [AttributeKey: Int] = [:]
    private var values: [AttributeValue?] = []
    /// The slots the latest record filled, cleared by the next.
    private var filled: [Int] = []
    /// The slot of the key at each position of the latest record: records of one tracker
    /// mostly list the same keys in the same order, so a key's slot is found without hashing.
    private var slotAtPosition: [Int] = []
    private var unpacking = PackedAttributes.UnpackingCache()

    /// Creates a tracker with no record loaded.
    public init() {}

    public func initEvent(_ event: consuming Event) -> Event? {
        event
    }

    /// The attributes of the latest loaded record.
    public var latest: Attributes {
        var attributes = Attributes()
        for (key, slot) in slots {
            if let value = values[slot] { attributes[key] = value }
        }
        return attributes
    }

    /// Makes a record's attributes the tracker's current values, registering getters for new
    /// attributes (in UTF-8 order of their names).
    public func load(_ attributes: PackedAttributes, into instrument: Instrument) {
        for slot in filled { values[slot] = nil }
        filled.removeAll(keepingCapacity: true)
        var newKeys: [AttributeKey] = []
        attributes.forEach(reusing: &unpacking) { position, key, keyWasCached, value in
            let slot: Int
            if keyWasCached {
                slot = slotAtPosition[position]
            } else {
                if let known = slots[key] {
                    slot = known
                } else {
                    slot = values.count
                    slots[key] = slot
                    values.append(nil)
                    newKeys.append(key)
                }
                if position < slotAtPosition.count {
                    slotAtPosition[position] = slot
                } else {
                    slotAtPosition.append(slot)
                }
            }
            values[slot] = value
            filled.append(slot)
        }
        guard let trackerID, !newKeys.isEmpty else { return }
        for key in newKeys.sorted() {
            guard let slot = slots[key] else { continue }
            instrument.registerGetter(key, for: trackerID) { [unowned self] in self.values[slot] }
        }
    }
}

/// A backend that keeps nothing: the replay reads each emit's ``EmitOutcome`` instead.
public final class SilentBackend: Backend {
    /// Creates the backend.
    public init() {}
    public func send(_ event: Event) {}
    public func send(_ metric: Metric) {}
}
