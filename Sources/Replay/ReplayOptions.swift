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
    /// Milliseconds of log time without a record after which a session closes.
    public var sessionTimeout: Int64
    /// The dimensions of `--group-by`: playbacks keep the first value of the attributes it names.
    public var groupBy: GroupBy

    /// The default session timeout: 30 minutes, as analytics tools close a view.
    public static let defaultSessionTimeout: Int64 = 30 * 60 * 1000

    public init(
        components: InstrumentComponents = InstrumentComponents(), includeTrace: Bool = false,
        includeRejected: Bool = false, middlewares: MiddlewareChains = MiddlewareChains(),
        sessionTimeout: Int64 = ReplayOptions.defaultSessionTimeout, groupBy: GroupBy = .none
    ) {
        self.components = components
        self.includeTrace = includeTrace
        self.includeRejected = includeRejected
        self.middlewares = middlewares
        self.sessionTimeout = sessionTimeout
        self.groupBy = groupBy
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
