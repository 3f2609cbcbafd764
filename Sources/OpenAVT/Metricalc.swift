/// The component that turns accepted events into metrics (OpenAVT's `OAVTMetricalcProtocol`).
///
/// ### Implementation requirements
/// Return the metrics for the event, possibly none. The instrument stamps each with the
/// event's time before it reaches the backend. The instrument asks through
/// ``appendMetrics(for:from:in:to:)``, whose default appends what
/// ``metrics(for:from:in:)`` returns; a metricalc that implements it too spares the
/// allocation of an array for each event (``MetricalcCore`` does).
public protocol Metricalc: Component {
    /// The metrics an accepted event gives.
    func metrics(for event: Event, from tracker: TrackerID, in instrument: Instrument) -> [Metric]

    /// Appends the metrics an accepted event gives to `metrics`, the same as
    /// ``metrics(for:from:in:)`` returns.
    func appendMetrics(for event: Event, from tracker: TrackerID, in instrument: Instrument, to metrics: inout [Metric])
}

extension Metricalc {
    /// Appends what ``metrics(for:from:in:)`` returns.
    public func appendMetrics(
        for event: Event, from tracker: TrackerID, in instrument: Instrument, to metrics: inout [Metric]
    ) {
        metrics += self.metrics(for: event, from: tracker, in: instrument)
    }
}
