import OpenAVT

/// How a replay makes the hub, metricalc and backend of each OpenAVT instrument.
///
/// Every replayed session gets a fresh instrument, whose components are made by these
/// factories, on the thread that replays the session: two sessions may be replayed at the
/// same time, each with its own components. The default is OpenAVT's chain as the
/// `avt-replay` command runs it: ``HubKind/ads`` (or the kind given), `MetricalcCore` and
/// ``SilentBackend``.
///
/// ```swift
/// let components = InstrumentComponents(
///     makeHub: { QualityChangeCountingHub(wrapping: HubCoreAds(idGenerator: $0)) },
///     makeMetricalc: { TimeBetweenQualityChanges() })
/// var engine = ReplayEngine(options: ReplayOptions(components: components))
/// ```
///
/// What the reports take from the chain: every accepted event (with its metrics) is
/// traced and every metric becomes a point of `metrics.influx`, `metrics.graphite` and
/// `aggregates.csv`, whatever its name; `playbacks.csv` groups events by their `playbackId`
/// (which `HubCore` sets) and reads the metrics `MetricalcCore` names (`StartTime`,
/// `PlayTime`, `NumRebuffers`, `RebufferTime`).
///
/// ### Implementation requirements
/// The factories return a new component on every call, never one shared between
/// instruments, and components read time only from the events they are given, so that the
/// reports stay the same from run to run. A backend runs on a replay thread: whatever it
/// shares with other sessions' backends must be synchronised, and sessions reach it in any
/// order (each session's events in replay order).
public struct InstrumentComponents: Sendable {
    /// Makes a hub that derives its ids (`streamId`, `playbackId`) with the generator given.
    public var makeHub: @Sendable (_ idGenerator: any IDGenerator) -> any Hub
    /// Makes a metricalc.
    public var makeMetricalc: @Sendable () -> any Metricalc
    /// Makes a backend: it receives every accepted event and its metrics.
    public var makeBackend: @Sendable () -> any Backend

    /// Creates components from factories; the metricalc defaults to `MetricalcCore` and the
    /// backend to ``SilentBackend``.
    public init(
        makeHub: @escaping @Sendable (_ idGenerator: any IDGenerator) -> any Hub,
        makeMetricalc: @escaping @Sendable () -> any Metricalc = { MetricalcCore() },
        makeBackend: @escaping @Sendable () -> any Backend = { SilentBackend() }
    ) {
        self.makeHub = makeHub
        self.makeMetricalc = makeMetricalc
        self.makeBackend = makeBackend
    }

    /// OpenAVT's chain: a hub of this kind, `MetricalcCore` and ``SilentBackend``.
    public init(hub: HubKind = .ads) {
        self.init(makeHub: { hub.makeHub(idGenerator: $0) })
    }
}
