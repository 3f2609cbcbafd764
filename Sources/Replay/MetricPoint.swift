import EventModel
import OpenAVT

/// The system a metric comes from: it names the InfluxDB measurement (`<prefix>_<system>`)
/// and the Graphite path node after the prefix. Systems are ordered as declared, which is
/// the order of every report's rows: OpenAVT, value propositions, Marconi.
///
/// Systems hash, compare and order by their place among the cases: a raw-value enum otherwise
/// hashes and compares its raw value's string.
public enum MetricSystem: String, Hashable, Comparable, Sendable, CaseIterable, Codable {
    case openavt
    case vp
    case marconi

    /// The system's place among the cases.
    var ordinal: Int {
        switch self {
        case .openavt: 0
        case .vp: 1
        case .marconi: 2
        }
    }

    public static func == (lhs: MetricSystem, rhs: MetricSystem) -> Bool {
        lhs.ordinal == rhs.ordinal
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ordinal)
    }

    public static func < (lhs: MetricSystem, rhs: MetricSystem) -> Bool {
        lhs.ordinal < rhs.ordinal
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

/// Where metric points come from: their system, source, InfluxDB tags, Graphite path and
/// string fields, made once and shared by all the points of a source (and playback or
/// session).
///
/// Points hold a reference to it rather than four arrays and a string each: copying a point
/// retains one object, and the encoders recognise the points of one origin by identity,
/// encoding its series and path once. Two origins are equal when their parts are.
public final class MetricOrigin: Hashable, Sendable {
    /// The system that computed the points.
    public let system: MetricSystem
    /// The instrument, app or player: InfluxDB timestamps number the points of one source
    /// within one millisecond.
    public let source: String
    /// The InfluxDB tags.
    public let tags: [MetricTag]
    /// The Graphite path nodes between the system and the metric's name.
    public let path: [String]
    /// Extra InfluxDB string fields (ids that would make too many series as tags).
    public let stringFields: [MetricTag]

    public init(system: MetricSystem, source: String, tags: [MetricTag], path: [String], stringFields: [MetricTag] = [])
    {
        self.system = system
        self.source = source
        self.tags = tags
        self.path = path
        self.stringFields = stringFields
    }

    /// Whether the points of two origins number their points within a millisecond together
    /// (InfluxDB timestamps): the same system and source.
    package static func sameSource(_ lhs: MetricOrigin, _ rhs: MetricOrigin) -> Bool {
        lhs === rhs || (lhs.system == rhs.system && lhs.source == rhs.source)
    }

    /// Whether the points of two origins are of one InfluxDB series: the same system and tags.
    package static func sameSeries(_ lhs: MetricOrigin, _ rhs: MetricOrigin) -> Bool {
        lhs === rhs || (lhs.system == rhs.system && lhs.tags == rhs.tags)
    }

    public static func == (lhs: MetricOrigin, rhs: MetricOrigin) -> Bool {
        lhs === rhs
            || (lhs.system == rhs.system && lhs.source == rhs.source && lhs.tags == rhs.tags && lhs.path == rhs.path
                && lhs.stringFields == rhs.stringFields)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(system)
        hasher.combine(source)
        hasher.combine(tags)
        hasher.combine(path)
        hasher.combine(stringFields)
    }
}

/// One metric with where it came from, for the metric outputs.
public struct MetricPoint: Hashable, Sendable {
    /// Where it came from, shared with the other points of its source.
    public var origin: MetricOrigin
    /// The metric, stamped with its time.
    public var metric: Metric
    /// The row of the session's report the metric belongs to, among the rows of its system
    /// (``SessionReport/playbacks``, ``SessionReport/vpSessions`` or
    /// ``SessionReport/marconiItems``); `nil` for none (an event without a `playbackId`).
    public var rowIndex: Int?

    /// The system that computed it.
    public var system: MetricSystem { origin.system }
    /// The instrument, app or player.
    public var source: String { origin.source }
    /// The InfluxDB tags.
    public var tags: [MetricTag] { origin.tags }
    /// The Graphite path nodes between the system and the metric's name.
    public var path: [String] { origin.path }
    /// Extra InfluxDB string fields.
    public var stringFields: [MetricTag] { origin.stringFields }
}

extension MetricPoint {
    /// A point of a shared origin.
    public init(_ metric: Metric, from origin: MetricOrigin, rowIndex: Int? = nil) {
        self.init(origin: origin, metric: metric, rowIndex: rowIndex)
    }

    /// A point with an origin of its own.
    public init(
        system: MetricSystem, source: String, tags: [MetricTag], path: [String], stringFields: [MetricTag] = [],
        metric: Metric, rowIndex: Int? = nil
    ) {
        self.init(
            origin: MetricOrigin(system: system, source: source, tags: tags, path: path, stringFields: stringFields),
            metric: metric, rowIndex: rowIndex)
    }
}
