import OpenAVT

/// A backend that keeps what it receives, for tests (OpenAVT's `DummyBackend`).
public final class RecordingBackend: Backend {
    /// Every event received, in order.
    public private(set) var events: [Event] = []
    /// Metrics received and not yet taken.
    public private(set) var metrics: [Metric] = []
    private var unreadEvent: Event?

    public init() {}

    public func send(_ event: Event) {
        events.append(event)
        unreadEvent = event
    }

    public func send(_ metric: Metric) {
        metrics.append(metric)
    }

    /// Writes nothing: what it received is output, not state, and a restored backend records
    /// what it receives from then on.
    public func encodeState(to encoder: any Encoder) throws {}

    public func decodeState(from decoder: any Decoder) throws {}

    /// The last event received since the previous call, or `nil` if none arrived.
    public func takeLastEvent() -> Event? {
        defer { unreadEvent = nil }
        return unreadEvent
    }

    /// Removes and returns the newest metric not yet taken.
    public func popLastMetric() -> Metric? {
        metrics.popLast()
    }

    /// Forgets the metrics not yet taken.
    public func clearMetrics() {
        metrics.removeAll()
    }
}
