/// The identifier the instrument gives a tracker when it is added: 0, 1, 2, ...
public typealias TrackerID = Int

/// The component that knows a player and starts each event (OpenAVT's `OAVTTrackerProtocol`).
///
/// ### Implementation requirements
/// ``initEvent(_:)`` returns the event to pass to the hub, changed or not, or `nil` to drop it.
public protocol Tracker: Component {
    /// Set by the instrument when the tracker is added.
    var trackerID: TrackerID? { get set }
    /// Prepares an emitted event; `nil` drops it before the hub sees it.
    func initEvent(_ event: consuming Event) -> Event?
}
