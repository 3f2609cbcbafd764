import EventModel
import OpenAVT

/// The system a metric comes from: it names the InfluxDB measurement (`<prefix>_<system>`)
/// and the Graphite path node after the prefix. Systems are ordered as declared, which is
/// the order of every report's rows: OpenAVT, value propositions, Marconi.
public enum MetricSystem: String, Hashable, Comparable, Sendable, CaseIterable {
    case openavt
    case vp
    case marconi

    public static func < (lhs: MetricSystem, rhs: MetricSystem) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }
}

/// A name and a value, for InfluxDB tags and string fields.
public struct MetricTag: Hashable, Sendable {
    public var key: String
    public var value: String

    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}

/// One metric with where it came from, for the metric outputs.
public struct MetricPoint: Hashable, Sendable {
    /// The system that computed it.
    public var system: MetricSystem
    /// The instrument, app or player: InfluxDB timestamps number the points of one source
    /// within one millisecond.
    public var source: String
    /// The InfluxDB tags.
    public var tags: [MetricTag]
    /// The Graphite path nodes between the system and the metric's name.
    public var path: [String]
    /// Extra InfluxDB string fields (ids that would make too many series as tags).
    public var stringFields: [MetricTag]
    /// The metric, stamped with its time.
    public var metric: Metric
    /// The row of the session's report the metric belongs to, among the rows of its system
    /// (``SessionReport/playbacks``, ``SessionReport/vpSessions`` or
    /// ``SessionReport/marconiItems``); `nil` for none (an event without a `playbackId`).
    public var rowIndex: Int?

    public init(
        system: MetricSystem, source: String, tags: [MetricTag], path: [String], stringFields: [MetricTag] = [],
        metric: Metric, rowIndex: Int? = nil
    ) {
        self.system = system
        self.source = source
        self.tags = tags
        self.path = path
        self.stringFields = stringFields
        self.metric = metric
        self.rowIndex = rowIndex
    }
}
