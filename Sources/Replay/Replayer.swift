import EventModel
import OpenAVT

/// Replays event-log records and collects what the state machines produced.
///
/// Add records in any order with ``add(_:at:)``, then call ``finish()``. Each instrument's
/// records replay in `ts` order; equal times keep their ``SourcePosition`` order (line order
/// in a file, then the file whose name sorts first). Instruments are independent, so the
/// result never depends on the order records were added in.
///
/// Every instrument gets trackers `0` up to the highest tracker id in its records before
/// its first record replays, as an app adds its trackers before `ready()`.
public struct Replayer {
    private let options: ReplayOptions
    private var pending: [String: [(record: AVTRecord, position: SourcePosition)]] = [:]

    /// Creates a replayer.
    public init(options: ReplayOptions = ReplayOptions()) {
        self.options = options
    }

    /// Adds an OpenAVT record read at `position`.
    public mutating func add(_ record: AVTRecord, at position: SourcePosition) {
        pending[record.instrument, default: []].append((record, position))
    }

    /// Replays everything added and returns the result.
    public func finish() -> ReplayResult {
        var result = ReplayResult()
        var traceOrder: [(key: OutputOrder, entry: TraceEntry)] = []
        var pointOrder: [(key: OutputOrder, point: MetricPoint)] = []
        for instrumentID in pending.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let records = pending[instrumentID] else { continue }
            let ordered = records.sorted { lhs, rhs in
                (lhs.record.timestamp, lhs.position) < (rhs.record.timestamp, rhs.position)
            }
            let maxTracker = ordered.map(\.record.tracker).max() ?? 0
            var replay = InstrumentReplay(id: instrumentID, maxTracker: maxTracker, options: options)
            for item in ordered {
                replay.replay(item.record)
            }
            replay.instrument.shutdown()
            result.instruments += 1
            result.playbacks.append(contentsOf: replay.summaries)
            for (sequence, entry) in replay.trace.enumerated() {
                traceOrder.append((OutputOrder(entry.event.timestamp, instrumentID, sequence), entry))
            }
            for (sequence, point) in replay.points.enumerated() {
                pointOrder.append((OutputOrder(point.metric.timestamp, instrumentID, sequence), point))
            }
        }
        result.trace = traceOrder.sorted { $0.key < $1.key }.map(\.entry)
        result.points = pointOrder.sorted { $0.key < $1.key }.map(\.point)
        return result
    }
}

/// The order of the outputs: by time, then instrument id (byte order), then replay order.
struct OutputOrder: Comparable {
    var timestamp: Timestamp
    var instrument: String
    var sequence: Int

    init(_ timestamp: Timestamp, _ instrument: String, _ sequence: Int) {
        self.timestamp = timestamp
        self.instrument = instrument
        self.sequence = sequence
    }

    static func < (lhs: OutputOrder, rhs: OutputOrder) -> Bool {
        if lhs.timestamp != rhs.timestamp { return lhs.timestamp < rhs.timestamp }
        if lhs.instrument != rhs.instrument {
            return lhs.instrument.utf8.lexicographicallyPrecedes(rhs.instrument.utf8)
        }
        return lhs.sequence < rhs.sequence
    }
}

/// What a replay produced.
public struct ReplayResult: Sendable {
    /// Instruments replayed.
    public var instruments = 0
    /// One row per playback, by instrument id (byte order), then in the order the playbacks began.
    public var playbacks: [PlaybackSummary] = []
    /// The trace, when asked for: by time, then instrument id, then replay order.
    public var trace: [TraceEntry] = []
    /// Every metric computed: by time, then instrument id, then replay order.
    public var points: [MetricPoint] = []

    public init() {}
}
