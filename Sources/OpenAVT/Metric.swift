import EventModel

/// A metric computed by a metricalc (OpenAVT's `OAVTMetric`).
public struct Metric: Hashable, Sendable {
    /// Whether values add up (counter) or each stands alone (gauge).
    public enum Kind: String, Hashable, Sendable {
        case counter
        case gauge
    }

    /// An integer or floating-point metric value.
    public enum Value: Hashable, Sendable {
        case int(Int64)
        case double(Double)
    }

    /// The metric's name, upper camel case by convention (`StartTime`).
    public var name: String
    /// Counter or gauge.
    public var kind: Kind
    /// The value.
    public var value: Value
    /// When it was computed; the instrument sets it to the time of the event it came from.
    public var timestamp: Timestamp

    /// Creates a metric.
    public init(name: String, kind: Kind, value: Value, timestamp: Timestamp = Timestamp(milliseconds: 0)) {
        self.name = name
        self.kind = kind
        self.value = value
        self.timestamp = timestamp
    }
}

// The metrics `MetricalcCore` emits.
extension Metric {
    /// Milliseconds from the request (or load) to the start of playback.
    public static func startTime(_ value: Int64) -> Metric {
        Metric(name: "StartTime", kind: .gauge, value: .int(value))
    }
    /// One playback started.
    public static func numPlays(_ value: Int64) -> Metric {
        Metric(name: "NumPlays", kind: .counter, value: .int(value))
    }
    /// Milliseconds of one rebuffering.
    public static func rebufferTime(_ value: Int64) -> Metric {
        Metric(name: "RebufferTime", kind: .gauge, value: .int(value))
    }
    /// One rebuffering happened.
    public static func numRebuffers(_ value: Int64) -> Metric {
        Metric(name: "NumRebuffers", kind: .counter, value: .int(value))
    }
    /// Milliseconds played since the previous accepted event.
    public static func playTime(_ value: Int64) -> Metric { Metric(name: "PlayTime", kind: .gauge, value: .int(value)) }
    /// One media request.
    public static func numRequests(_ value: Int64) -> Metric {
        Metric(name: "NumRequests", kind: .counter, value: .int(value))
    }
    /// One stream load.
    public static func numLoads(_ value: Int64) -> Metric {
        Metric(name: "NumLoads", kind: .counter, value: .int(value))
    }
    /// One playback ended (`End`, `Stop` or `Next`).
    public static func numEnds(_ value: Int64) -> Metric { Metric(name: "NumEnds", kind: .counter, value: .int(value)) }
}
