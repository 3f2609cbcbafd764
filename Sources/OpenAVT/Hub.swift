/// The component with the business logic: it accepts, rejects and annotates events (OpenAVT's `OAVTHubProtocol`).
///
/// ### Implementation requirements
/// ``process(_:from:in:)`` returns the event to pass on, or `nil` to reject it. A hub
/// changes tracker states only through the instrument (``Instrument/setState(_:of:)``).
/// A hub may explain its last rejection in ``rejectionReason``; the default says nothing.
/// The instrument calls ``process(inPlace:from:in:)``, whose default calls
/// ``process(_:from:in:)``; a hub that implements it annotates the event where it is.
public protocol Hub: Component {
    /// Accepts (returning the annotated event) or rejects (returning `nil`) an event from a tracker.
    func process(_ event: consuming Event, from tracker: TrackerID, in instrument: Instrument) -> Event?
    /// ``process(_:from:in:)`` on the event where it is: returns whether the hub accepts it,
    /// annotated in place. What a rejected event holds afterwards is unspecified.
    ///
    /// The instrument calls this form: an event is some 240 bytes, and handing it from
    /// tracker to hub to core hub and back by value moved it about ten times.
    func process(inPlace event: inout Event, from tracker: TrackerID, in instrument: Instrument) -> Bool
    /// Why the last call to ``process(_:from:in:)`` returned `nil` (or to
    /// ``process(inPlace:from:in:)`` `false`), if the hub knows.
    var rejectionReason: String? { get }
}

extension Hub {
    public var rejectionReason: String? { nil }

    public func process(inPlace event: inout Event, from tracker: TrackerID, in instrument: Instrument) -> Bool {
        guard let processed = process(event, from: tracker, in: instrument) else { return false }
        event = processed
        return true
    }
}
