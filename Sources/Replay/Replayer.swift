import EventModel
import OpenAVT
import ValueProposition

/// Replays event-log records and collects what the state machines produced.
///
/// Add records in any order with ``add(_:at:)``, then call ``finish()``. The records of each
/// instrument (OpenAVT) and of each app session (value propositions and app lifecycle)
/// replay in `ts` order; equal times keep their ``SourcePosition`` order (line order in a file,
/// then the file whose name sorts first). Instruments and apps are independent, so the result
/// never depends on the order records were added in.
///
/// Every instrument gets trackers `0` up to the highest tracker id in its records before
/// its first record replays, as an app adds its trackers before `ready()`.
public struct Replayer {
    private let options: ReplayOptions
    private var instruments: [String: [(record: AVTRecord, position: SourcePosition)]] = [:]
    private var apps: [String: [(input: AppInput, position: SourcePosition)]] = [:]

    /// Creates a replayer.
    public init(options: ReplayOptions = ReplayOptions()) {
        self.options = options
    }

    /// Adds a record read at `position`.
    public mutating func add(_ record: Record, at position: SourcePosition) {
        switch record {
        case .avt(let avt): instruments[avt.instrument, default: []].append((avt, position))
        case .vp(let vp): apps[vp.app, default: []].append((.vp(vp), position))
        case .app(let app): apps[app.app, default: []].append((.lifecycle(app), position))
        case .marconi: break
        }
    }

    /// Replays everything added and returns the result.
    public func finish() -> ReplayResult {
        var result = ReplayResult()
        var trace: [(key: OutputOrder, line: TraceLine)] = []
        var points: [(key: OutputOrder, point: MetricPoint)] = []
        for instrumentID in instruments.keys.sorted(by: Self.byteOrder) {
            guard let records = instruments[instrumentID] else { continue }
            let ordered = records.sorted { ($0.record.timestamp, $0.position) < ($1.record.timestamp, $1.position) }
            let maxTracker = ordered.map(\.record.tracker).max() ?? 0
            var replay = InstrumentReplay(id: instrumentID, maxTracker: maxTracker, options: options)
            for item in ordered {
                replay.replay(item.record)
            }
            replay.instrument.shutdown()
            result.instruments += 1
            result.playbacks.append(contentsOf: replay.summaries)
            trace += replay.trace.enumerated().map { (OutputOrder($1.timestamp, .openavt, instrumentID, $0), $1) }
            points += replay.points.enumerated().map {
                (OutputOrder($1.metric.timestamp, .openavt, instrumentID, $0), $1)
            }
        }
        for appID in apps.keys.sorted(by: Self.byteOrder) {
            guard let inputs = apps[appID] else { continue }
            let ordered = inputs.sorted { ($0.input.timestamp, $0.position) < ($1.input.timestamp, $1.position) }
            var replay = AppReplay(app: appID, options: options)
            for item in ordered {
                replay.replay(item.input)
            }
            result.apps += 1
            result.vpSessions.append(contentsOf: replay.summaries())
            trace += replay.trace.enumerated().map { (OutputOrder($1.timestamp, .vp, appID, $0), $1) }
            points += replay.points.enumerated().map { (OutputOrder($1.metric.timestamp, .vp, appID, $0), $1) }
        }
        result.trace = trace.sorted { $0.key < $1.key }.map(\.line)
        result.points = points.sorted { $0.key < $1.key }.map(\.point)
        return result
    }

    static func byteOrder(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}

/// The order of the outputs: by time, then system (OpenAVT, value propositions, Marconi),
/// then instrument, app or player id (byte order), then replay order.
struct OutputOrder: Comparable {
    var timestamp: Timestamp
    var system: MetricSystem
    var source: String
    var sequence: Int

    init(_ timestamp: Timestamp, _ system: MetricSystem, _ source: String, _ sequence: Int) {
        self.timestamp = timestamp
        self.system = system
        self.source = source
        self.sequence = sequence
    }

    private var systemRank: Int { MetricSystem.allCases.firstIndex(of: system) ?? 0 }

    static func < (lhs: OutputOrder, rhs: OutputOrder) -> Bool {
        if lhs.timestamp != rhs.timestamp { return lhs.timestamp < rhs.timestamp }
        if lhs.system != rhs.system { return lhs.systemRank < rhs.systemRank }
        if lhs.source != rhs.source { return Replayer.byteOrder(lhs.source, rhs.source) }
        return lhs.sequence < rhs.sequence
    }
}

/// What a replay produced.
public struct ReplayResult: Sendable {
    /// Instruments replayed.
    public var instruments = 0
    /// App sessions replayed (those with `vp` or `app` records).
    public var apps = 0
    /// One row per playback, by instrument id (byte order), then in the order the playbacks began.
    public var playbacks: [PlaybackSummary] = []
    /// One row per value-proposition session, by app id (byte order), then in the order they opened.
    public var vpSessions: [VPSessionSummary] = []
    /// The trace, when asked for: by time, then system, then source id, then replay order.
    public var trace: [TraceLine] = []
    /// Every metric computed: by time, then system, then source id, then replay order.
    public var points: [MetricPoint] = []

    public init() {}
}
