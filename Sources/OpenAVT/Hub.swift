/// The component with the business logic: it accepts, rejects and annotates events (OpenAVT's `OAVTHubProtocol`).
///
/// ### Implementation requirements
/// ``process(_:from:in:)`` returns the event to pass on, or `nil` to reject it. A hub
/// changes tracker states only through the instrument (``Instrument/setState(_:of:)``).
/// A hub may explain its last rejection in ``rejectionReason``; the default says nothing.
public protocol Hub: Component {
    /// Accepts (returning the annotated event) or rejects (returning `nil`) an event from a tracker.
    func process(_ event: consuming Event, from tracker: TrackerID, in instrument: Instrument) -> Event?
    /// Why the last call to ``process(_:from:in:)`` returned `nil`, if the hub knows.
    var rejectionReason: String? { get }
}

extension Hub {
    public var rejectionReason: String? { nil }
}
