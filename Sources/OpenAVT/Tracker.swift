/// The identifier the instrument gives a tracker when it is added: 0, 1, 2, ...
public typealias TrackerID = Int

/// The component that knows a player and starts each event (OpenAVT's `OAVTTrackerProtocol`).
///
/// ### Implementation requirements
/// ``initEvent(_:)`` returns the event to pass to the hub, changed or not, or `nil` to drop it.
public protocol Tracker: Component {
    /// Set by the instrument when the tracker is added.
    var trackerID: TrackerID? { get set }
    /// The attributes the tracker supplies all at once for the events it emits next, as if
    /// each had a getter (a replayed record's); none by default. They take precedence over a
    /// registered getter of the same attribute.
    var suppliedAttributes: SuppliedAttributes { get }
    /// Prepares an emitted event; `nil` drops it before the hub sees it.
    func initEvent(_ event: consuming Event) -> Event?
    /// ``initEvent(_:)`` on the event where it is: returns whether to pass it on. What a
    /// dropped event holds afterwards is unspecified. The instrument calls this form; the
    /// default calls ``initEvent(_:)``.
    func initEvent(inPlace event: inout Event) -> Bool
}

extension Tracker {
    public var suppliedAttributes: SuppliedAttributes { SuppliedAttributes() }

    public func initEvent(inPlace event: inout Event) -> Bool {
        guard let prepared = initEvent(event) else { return false }
        event = prepared
        return true
    }
}
