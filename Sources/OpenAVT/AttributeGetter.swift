import EventModel

/// A tracker's way to read an attribute's current value, with a filter deciding which events get it.
///
/// Registered with ``Instrument/registerGetter(_:for:getter:filter:)``; any component can
/// read it with ``Instrument/callGetter(_:of:)``.
public struct AttributeGetter {
    /// Returns the attribute's current value, or `nil` when there is none.
    public var value: () -> AttributeValue?
    /// Returns whether the attribute goes on this event.
    public var filter: (Event, AttributeKey) -> Bool

    /// Creates a getter; the default filter puts the attribute on every event.
    public init(
        value: @escaping () -> AttributeValue?,
        filter: @escaping (Event, AttributeKey) -> Bool = { _, _ in true }
    ) {
        self.value = value
        self.filter = filter
    }
}
