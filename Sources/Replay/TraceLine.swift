import EventModel
import Marconi
import OpenAVT
import ValueProposition

/// One line of the trace, in replay order: what one of the state machines produced.
public enum TraceLine: Hashable, Sendable {
    /// An OpenAVT event that left the hub (or that the hub rejected).
    case avt(TraceEntry)
    /// A value-proposition event (after the trace's middlewares), a non-fatal error, or a
    /// session dropped when the app came back to the foreground.
    case vp(SessionOutput)
    /// A Marconi player's change of state or payload.
    case marconi(MarconiStateChange)

    /// When it happened.
    public var timestamp: Timestamp {
        switch self {
        case .avt(let entry): return entry.event.timestamp
        case .vp(.event(let event)): return event.timestamp
        case .vp(.error(let error)): return error.timestamp
        case .vp(.dropped(let dropped)): return dropped.timestamp
        case .marconi(let change): return change.timestamp
        }
    }
}
