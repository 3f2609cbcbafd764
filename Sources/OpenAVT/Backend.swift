/// The last stop of events and metrics (OpenAVT's `OAVTBackendProtocol`).
///
/// ### Implementation requirements
/// The instrument calls `send(_:)` once per metric of an event, then once with the event. Backends must not change the instrument.
public protocol Backend: Component {
    /// Receives an event the hub accepted.
    func send(_ event: Event)
    /// Receives a metric the metricalc computed.
    func send(_ metric: Metric)
}
