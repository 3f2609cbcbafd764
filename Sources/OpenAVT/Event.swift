import EventModel

/// One event on its way through an instrument: an action, when it happened, and its attributes.
///
/// What the instrument puts on an event when it is emitted is read from layers rather than
/// stored one by one: the `senderId`, a snapshot of the instrument's time-since clocks, and
/// the tracker's ``SuppliedAttributes``; every attribute set afterwards (getters', the hub's)
/// is stored. Reading, setting and removing behave as for one dictionary: a stored attribute
/// hides a supplied one, which hides the `senderId` and time-since ones of the same name.
public struct Event: Hashable, Sendable {
    /// What happened.
    public var action: Action
    /// When it happened: the replayed record's time.
    public var timestamp: Timestamp
    /// The attributes set after emission (the tracker's getters, the hub's) that the core
    /// hubs stamp on every event.
    private var stamps: HubStamps
    /// The other attributes set after emission.
    private var stored: AttributeList
    /// The tracker's supplied attributes as they were when the event was emitted.
    private var supplied: SuppliedAttributes
    /// The `senderId` the instrument gave the event.
    private var sender: AttributeValue?
    /// The instrument's time-since clocks as they were when the event was emitted.
    private var clocks: TimeSinceClocks

    /// Every attribute, whatever its layer. Building it costs a dictionary: read one
    /// attribute with the subscript instead.
    public var attributes: Attributes {
        get {
            var all = stored.dictionary
            stamps.add(to: &all)
            for (key, value) in supplied.all where all[key] == nil {
                all[key] = value
            }
            if let sender, all[.senderId] == nil {
                all[.senderId] = sender
            }
            for (key, value) in clocks.values where all[key] == nil {
                all[key] = value
            }
            return all
        }
        set {
            stamps = HubStamps()
            stored = AttributeList(minimumCapacity: 0)
            supplied = SuppliedAttributes()
            sender = nil
            clocks = TimeSinceClocks()
            for (key, value) in newValue { setStored(key, value) }
        }
    }

    /// The value of an attribute, or `nil` when the event does not have it.
    public subscript(key: AttributeKey) -> AttributeValue? {
        get {
            if let slot = key.hubStampSlot, let value = stamps[slot] { return value }
            if let value = stored[key] ?? supplied[key] { return value }
            if key == .senderId, let sender { return sender }
            return clocks.value(of: key)
        }
        set {
            if newValue == nil {
                supplied.remove(key)
                if key == .senderId { sender = nil }
                if clocks.contains(key) { clocks.remove(key) }
            }
            setStored(key, newValue)
        }
    }

    /// The attribute's integer: the same as `self[key]?.int`, read straight from its slot when
    /// the core hubs stamped it.
    @inline(__always)
    public func integer(_ key: AttributeKey) -> Int64? {
        if let slot = key.hubStampSlot, let value = stamps.integer(in: slot) { return value }
        return self[key]?.int
    }

    /// The attribute's Boolean: the same as `self[key]?.bool`, read straight from its slot when
    /// the core hubs stamped it.
    @inline(__always)
    public func flag(_ key: AttributeKey) -> Bool? {
        if let slot = key.hubStampSlot, let value = stamps.flag(in: slot) { return value }
        return self[key]?.bool
    }

    /// The attribute's string: the same as `self[key]?.string`, read straight from its slot
    /// when the core hubs stamped it.
    @inline(__always)
    public func string(_ key: AttributeKey) -> String? {
        if let slot = key.hubStampSlot, let value = stamps.string(in: slot) { return value }
        return self[key]?.string
    }

    /// Whether ``string(_:)`` of `key` is `text`: for an attribute the core hubs stamped,
    /// compared where the event keeps it, where `string(_:)` gives a copy (a retain and a
    /// release of a long id, such as `playbackId`, which every event of a playback has).
    @inline(__always)
    public func string(_ key: AttributeKey, equals text: String?) -> Bool {
        if let slot = key.hubStampSlot, let equal = stamps.string(in: slot, equals: text) { return equal }
        return self[key]?.string == text
    }

    /// Whether the tracker that emitted the event supplied `key` (whatever else hides it).
    func isSupplied(_ key: AttributeKey) -> Bool {
        supplied[key] != nil
    }

    /// Whether the event reads `key` from `supplied`, known without reading it: its own supplied
    /// layer is `supplied` (the emitting tracker's) and no stamp or stored attribute hides `key`.
    func readsSupplied(_ key: AttributeKey, from supplied: SuppliedAttributes) -> Bool {
        guard self.supplied.isSame(as: supplied) else { return false }
        if let slot = key.hubStampSlot, stamps[slot] != nil { return false }
        return !stored.contains(key)
    }

    /// Stamps an attribute the core hubs set on every event: the same as
    /// `self[stamp.key] = value`, stored straight in its slot unless an earlier value of
    /// another type displaced it to the list.
    @inline(__always)
    mutating func stamp(_ stamp: HubStamp, _ value: AttributeValue) {
        if !stamps.displaced.contains(stamp.rawValue), stamps.store(value, in: stamp.rawValue) {
            return
        }
        self[stamp.key] = value
    }

    /// Stamps the ids of `ids` that are not `nil`, as ``stamp(_:_:)`` would one by one, but
    /// sharing the object when it can.
    mutating func stamp(ids: consuming HubIDs) {
        guard stamps.canStore(ids: ids) else {
            if let streamID = ids.streamID { stamp(.streamId, .string(streamID)) }
            if let playbackID = ids.playbackID { stamp(.playbackId, .string(playbackID)) }
            return
        }
        stamps.store(ids: ids)
    }

    /// Sets or removes a stored attribute: in its slot when the core hubs stamp it and the
    /// value has the slot's type, in the list otherwise.
    private mutating func setStored(_ key: AttributeKey, _ value: AttributeValue?) {
        if let slot = key.hubStampSlot {
            guard stamps.store(value, in: slot) else {
                stamps.displaced.insert(slot)
                stored.set(key, value)
                return
            }
            if stamps.displaced.remove(slot) { stored.set(key, nil) }
            return
        }
        stored.set(key, value)
    }

    public static func == (lhs: Event, rhs: Event) -> Bool {
        lhs.action == rhs.action && lhs.timestamp == rhs.timestamp && lhs.attributes == rhs.attributes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(action)
        hasher.combine(timestamp)
        hasher.combine(attributes)
    }
}

// The initialisers delegate to the memberwise one, which is why they are in an extension: an
// initialiser of a struct this size that assigns its properties one by one builds the value
// aside and copies it (a retain and a release of every reference in it).
extension Event {
    /// Creates an event.
    public init(action: Action, timestamp: Timestamp, attributes: Attributes = [:]) {
        self.init(
            action: action, timestamp: timestamp, stamps: HubStamps(), stored: AttributeList(minimumCapacity: 0),
            supplied: SuppliedAttributes(), sender: nil, clocks: TimeSinceClocks())
        for (key, value) in attributes { setStored(key, value) }
    }

    /// Creates an emitted event: its `senderId`, the instrument's time-since clocks and the
    /// tracker's supplied attributes, with room for `capacity` stored ones.
    init(
        action: Action, timestamp: Timestamp, sender: AttributeValue?, clocks: TimeSinceClocks,
        supplied: SuppliedAttributes, capacity: Int
    ) {
        self.init(
            action: action, timestamp: timestamp, stamps: HubStamps(), stored: AttributeList(minimumCapacity: capacity),
            supplied: supplied, sender: sender, clocks: clocks)
    }
}

/// The attributes stored on an event, in the order they were first set.
///
/// A hub sets some fifteen on each event and the next components read a few: walking them,
/// comparing the keys' digests, is cheaper than hashing them into a dictionary.
/// Events with many more attributes pay for the walk.
private struct AttributeList: Sendable {
    private struct Entry: Sendable {
        let key: AttributeKey
        var value: AttributeValue
    }

    private var entries: [Entry] = []

    init(minimumCapacity: Int) {
        // Reserving none still made the standard library look at the empty array's storage.
        if minimumCapacity > 0 { entries.reserveCapacity(minimumCapacity) }
    }

    subscript(key: AttributeKey) -> AttributeValue? {
        for entry in entries where entry.key == key {
            return entry.value
        }
        return nil
    }

    func contains(_ key: AttributeKey) -> Bool {
        entries.contains { $0.key == key }
    }

    /// Sets an attribute, or removes it when `value` is `nil`.
    mutating func set(_ key: AttributeKey, _ value: AttributeValue?) {
        var position = 0
        while position < entries.count, entries[position].key != key {
            position += 1
        }
        if position < entries.count {
            if let value {
                entries[position].value = value
            } else {
                entries.remove(at: position)
            }
        } else if let value {
            entries.append(Entry(key: key, value: value))
        }
    }

    var dictionary: Attributes {
        Attributes(uniqueKeysWithValues: entries.map { ($0.key, $0.value) })
    }
}
