/// The component that turns accepted events into metrics (OpenAVT's `OAVTMetricalcProtocol`).
///
/// ### Implementation requirements
/// Return the metrics for the event, possibly none. The instrument stamps each with the
/// event's time before it reaches the backend.
public protocol Metricalc: Component {
    /// The metrics an accepted event gives.
    func metrics(for event: Event, from tracker: TrackerID, in instrument: Instrument) -> [Metric]
}
