import EventModel

/// One event on its way through an instrument: an action, when it happened, and its attributes.
public struct Event: Hashable, Sendable {
    /// What happened.
    public var action: Action
    /// When it happened: the replayed record's time.
    public var timestamp: Timestamp
    /// The attributes set so far by the instrument, the tracker and the hub.
    public var attributes: Attributes

    /// Creates an event.
    public init(action: Action, timestamp: Timestamp, attributes: Attributes = [:]) {
        self.action = action
        self.timestamp = timestamp
        self.attributes = attributes
    }

    /// The value of an attribute, or `nil` when the event does not have it.
    public subscript(key: AttributeKey) -> AttributeValue? {
        get { attributes[key] }
        set { attributes[key] = newValue }
    }
}
