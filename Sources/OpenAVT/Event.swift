import EventModel

/// One event on its way through an instrument: an action, when it happened, and its attributes.
///
/// The instrument's time-since attributes are read from a snapshot of its clocks, made when
/// the event is emitted, rather than stored one by one; every other attribute (getters',
/// the hub's) is stored. Reading, setting and removing behave as for one dictionary: a
/// stored attribute hides a time-since one of the same name.
public struct Event: Hashable, Sendable {
    /// What happened.
    public var action: Action
    /// When it happened: the replayed record's time.
    public var timestamp: Timestamp
    /// The attributes set by the instrument (`senderId`), the tracker's getters and the hub.
    private var stored: Attributes
    /// The instrument's time-since clocks as they were when the event was emitted.
    private var clocks: TimeSinceClocks

    /// Creates an event.
    public init(action: Action, timestamp: Timestamp, attributes: Attributes = [:]) {
        self.action = action
        self.timestamp = timestamp
        self.stored = attributes
        self.clocks = TimeSinceClocks()
    }

    /// Creates an event that carries the instrument's time-since attributes, with room for
    /// `capacity` more.
    init(action: Action, timestamp: Timestamp, clocks: TimeSinceClocks, capacity: Int) {
        self.action = action
        self.timestamp = timestamp
        self.stored = Attributes(minimumCapacity: capacity)
        self.clocks = clocks
    }

    /// Every attribute, time-since ones included. Building it costs a dictionary: read one
    /// attribute with the subscript instead.
    public var attributes: Attributes {
        get {
            var all = stored
            for (key, value) in clocks.values where all[key] == nil {
                all[key] = value
            }
            return all
        }
        set {
            stored = newValue
            clocks = TimeSinceClocks()
        }
    }

    /// The value of an attribute, or `nil` when the event does not have it.
    public subscript(key: AttributeKey) -> AttributeValue? {
        get { stored[key] ?? clocks.value(of: key) }
        set {
            if newValue == nil, clocks.contains(key) { clocks.remove(key) }
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
