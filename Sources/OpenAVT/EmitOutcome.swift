/// What became of one ``Instrument/emit(_:trackerID:at:)``.
public enum EmitOutcome: Hashable, Sendable {
    /// The hub accepted the event; the metricalc computed these metrics and the backend received both.
    case accepted(Event, metrics: [Metric])
    /// The hub rejected the event, with its reason if it gave one; the event as the tracker
    /// prepared it, unless ``Instrument/keepsRejectedEvents`` is off.
    case rejected(Event?, reason: String?)
    /// The tracker's `initEvent` dropped the event.
    case droppedByTracker
    /// Nothing happened: no tracker with that id, or no hub or backend to process the event.
    case notProcessed
}
