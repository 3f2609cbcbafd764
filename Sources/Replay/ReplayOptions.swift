import ValueProposition

/// How to replay.
public struct ReplayOptions: Sendable {
    /// The hub, metricalc and backend of every OpenAVT instrument.
    public var components: InstrumentComponents
    /// Whether to keep the trace.
    public var includeTrace: Bool
    /// Whether the trace also lists the events the hub rejected.
    public var includeRejected: Bool
    /// The middlewares value-proposition events pass through on their way to the outputs.
    public var middlewares: MiddlewareChains
    /// Milliseconds of log time without a record after which an instrument, app session or
    /// player is forgotten: its rows are written, and a later record starts a new life.
    public var idleGap: Int64
    /// The dimensions of `--group-by`: playbacks keep the first value of the attributes it names.
    public var groupBy: GroupBy
    /// The length of the aggregates' time buckets, in milliseconds: with ``groupBy``, a
    /// live replay keeps its rows' metrics aggregated by bucket until the rows are final.
    public var bucket: Int64
    /// The Tentacles version whose names value-proposition events carry.
    public var tentaclesVersion: TentaclesVersion

    /// The default idle gap: 12 hours. A player paused for an evening, an app left in the
    /// background overnight for less than that, goes on where it stopped, as it does in the
    /// app; a day's silence starts afresh.
    public static let defaultIdleGap: Int64 = 12 * 3_600_000

    public init(
        components: InstrumentComponents = InstrumentComponents(), includeTrace: Bool = false,
        includeRejected: Bool = false, middlewares: MiddlewareChains = MiddlewareChains(),
        idleGap: Int64 = ReplayOptions.defaultIdleGap, groupBy: GroupBy = .none, bucket: Int64 = 3_600_000,
        tentaclesVersion: TentaclesVersion = .valueProposition
    ) {
        self.components = components
        self.includeTrace = includeTrace
        self.includeRejected = includeRejected
        self.middlewares = middlewares
        self.idleGap = idleGap
        self.groupBy = groupBy
        self.bucket = max(1, bucket)
        self.tentaclesVersion = tentaclesVersion
    }
}

/// The options every life of a run refers to: one copy, not one in each of thousands of lives.
final class SharedReplayOptions: Sendable {
    let options: ReplayOptions

    init(_ options: ReplayOptions) {
        self.options = options
    }
}

/// Value-proposition middlewares, as Tentacles registers them: a chain for every output,
/// then one per output (its reporters here: the trace and the metrics).
public struct MiddlewareChains: Sendable {
    /// Applied first, for every output.
    public var all: [Middleware]
    /// Applied after `all`, for `events.jsonl`.
    public var trace: [Middleware]
    /// Applied after `all`, for `metrics.influx` and `metrics.graphite`.
    public var metrics: [Middleware]

    public init(all: [Middleware] = [], trace: [Middleware] = [], metrics: [Middleware] = []) {
        self.all = all
        self.trace = trace
        self.metrics = metrics
    }

    /// Whether there are none: every output gets the events as they are.
    public var isEmpty: Bool { all.isEmpty && trace.isEmpty && metrics.isEmpty }
}
