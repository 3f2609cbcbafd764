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
    /// The attributes set after emission: the tracker's getters and the hub.
    private var stored: Attributes
    /// The tracker's supplied attributes as they were when the event was emitted.
    private var supplied: SuppliedAttributes
    /// The `senderId` the instrument gave the event.
    private var sender: AttributeValue?
    /// The instrument's time-since clocks as they were when the event was emitted.
    private var clocks: TimeSinceClocks

    /// Creates an event.
    public init(action: Action, timestamp: Timestamp, attributes: Attributes = [:]) {
        self.action = action
        self.timestamp = timestamp
        self.stored = attributes
        self.supplied = SuppliedAttributes()
        self.sender = nil
        self.clocks = TimeSinceClocks()
    }

    /// Creates an emitted event: its `senderId`, the instrument's time-since clocks and the
    /// tracker's supplied attributes, with room for `capacity` stored ones.
    init(
        action: Action, timestamp: Timestamp, sender: AttributeValue?, clocks: TimeSinceClocks,
        supplied: SuppliedAttributes, capacity: Int
    ) {
        self.action = action
        self.timestamp = timestamp
        self.stored = Attributes(minimumCapacity: capacity)
        self.supplied = supplied
        self.sender = sender
        self.clocks = clocks
    }

    /// Every attribute, whatever its layer. Building it costs a dictionary: read one
    /// attribute with the subscript instead.
    public var attributes: Attributes {
        get {
            var all = stored
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
            stored = newValue
            supplied = SuppliedAttributes()
            sender = nil
            clocks = TimeSinceClocks()
        }
    }

    /// The value of an attribute, or `nil` when the event does not have it.
    public subscript(key: AttributeKey) -> AttributeValue? {
        get {
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
            stored[key] = newValue
        }
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
