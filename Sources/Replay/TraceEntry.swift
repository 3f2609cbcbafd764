import EventModel
import OpenAVT

/// One OpenAVT line of the trace: an event that left the hub with its metrics, or one the hub rejected.
public struct TraceEntry: Hashable, Sendable {
    /// The instrument that emitted it.
    public var instrument: String
    /// The tracker that emitted it.
    public var tracker: TrackerID
    /// The event, with its attributes after the hub (or as the hub saw it, when rejected).
    public var event: Event
    /// The metrics the metricalc computed for it, in its order.
    public var metrics: [Metric]
    /// Why the hub rejected it; `nil` for an accepted event.
    public var rejection: String?

    public init(instrument: String, tracker: TrackerID, event: Event, metrics: [Metric], rejection: String?) {
        self.instrument = instrument
        self.tracker = tracker
        self.event = event
        self.metrics = metrics
        self.rejection = rejection
    }
}
