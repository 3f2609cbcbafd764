import EventModel
import Marconi
import OpenAVT
import ValueProposition

/// One line of the trace, in replay order: what one of the state machines produced.
public enum TraceLine: Hashable, Sendable {
    /// An OpenAVT event that left the hub (or that the hub rejected).
    case avt(TraceEntry)
    /// A value-proposition event (after the trace's middlewares) or a non-fatal error.
    case vp(SessionOutput)
    /// A Marconi player's change of state or payload.
    case marconi(MarconiStateChange)

    /// When it happened.
    public var timestamp: Timestamp {
        switch self {
        case .avt(let entry): return entry.event.timestamp
        case .vp(.event(let event)): return event.timestamp
        case .vp(.error(let error)): return error.timestamp
        case .marconi(let change): return change.timestamp
        }
    }
}

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
