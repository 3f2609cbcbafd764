import EventModel
import OpenAVT
import Replay

/// `metrics.influx` and `metrics.graphite`: every metric the metricalc computed.
///
/// InfluxDB: one point per metric in the measurement `<prefix>_openavt` (`openavt` with an
/// empty prefix), tagged `instrument` and `tracker`, with the metric as a field named after it
/// (integers with `i`) and the event's `playback_id` as a string field. Timestamps are
/// nanoseconds (write with `precision=ns`): the event's millisecond, plus the point's index
/// among the instrument's points in that millisecond, so that InfluxDB, which merges points of
/// one series and time, keeps every point.
///
/// Graphite: `<prefix>.openavt.<instrument>.<MetricName> value epoch_seconds`, one line per
/// path and second, whose value is the sum of that second's values: OpenAVT's counters add up,
/// and its gauges are per-event durations (`PlayTime`, `RebufferTime`) or once per playback
/// (`StartTime`), so one instrument's sum in one second is their total. Carbon keeps one value
/// per path and interval, so sending each point alone would lose all but the last.
public struct MetricsReport {
    /// The prefix as the user gave it (`--prefix`); empty for none.
    public var prefix: String

    public init(prefix: String) {
        self.prefix = prefix
    }

    /// `metrics.influx`, from points in output order.
    public func influx(_ points: [MetricPoint]) -> [UInt8] {
        let measurement = prefix.isEmpty ? "openavt" : prefix + "_openavt"
        var encoder = InfluxLineEncoder()
        var buffer: [UInt8] = []
        var previous: (timestamp: Timestamp, instrument: String)?
        var indexInMillisecond: Int64 = 0
        for point in points {
            if let previous, previous.timestamp == point.metric.timestamp, previous.instrument == point.instrument {
                indexInMillisecond += 1
            } else {
                indexInMillisecond = 0
            }
            previous = (point.metric.timestamp, point.instrument)
            var fields: [(String, InfluxFieldValue)] = [(point.metric.name, Self.fieldValue(point.metric.value))]
            if let playbackID = point.playbackID {
                fields.append(("playback_id", .string(playbackID)))
            }
            _ = encoder.appendPoint(
                measurement: measurement,
                tags: [("instrument", point.instrument), ("tracker", String(point.tracker))],
                fields: fields,
                timestamp: point.metric.timestamp.milliseconds &* 1_000_000 &+ indexInMillisecond,
                into: &buffer)
        }
        return buffer
    }

    /// `metrics.graphite`, from points in output order: lines by second, then path.
    public func graphite(_ points: [MetricPoint]) -> [UInt8] {
        var sums: [GraphiteKey: Metric.Value] = [:]
        for point in points {
            let key = GraphiteKey(
                second: point.metric.timestamp.epochSeconds, instrument: point.instrument, name: point.metric.name)
            sums[key] = sums[key].map { Self.sum($0, point.metric.value) } ?? point.metric.value
        }
        var encoder = GraphiteEncoder(prefix: GraphiteEncoder.nodes(fromDotted: prefix))
        var buffer: [UInt8] = []
        for key in sums.keys.sorted() {
            let path = ["openavt", key.instrument, key.name]
            switch sums[key] {
            case .int(let value):
                _ = encoder.appendLine(path: path, value: value, epochSeconds: key.second, into: &buffer)
            case .double(let value):
                _ = encoder.appendLine(path: path, value: value, epochSeconds: key.second, into: &buffer)
            case nil: break
            }
        }
        return buffer
    }

    private static func fieldValue(_ value: Metric.Value) -> InfluxFieldValue {
        switch value {
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        }
    }

    private static func sum(_ lhs: Metric.Value, _ rhs: Metric.Value) -> Metric.Value {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): return .int(a &+ b)
        case (.int(let a), .double(let b)): return .double(Double(a) + b)
        case (.double(let a), .int(let b)): return .double(a + Double(b))
        case (.double(let a), .double(let b)): return .double(a + b)
        }
    }
}

/// One Graphite line's identity: a second and a path.
private struct GraphiteKey: Hashable, Comparable {
    var second: Int64
    var instrument: String
    var name: String

    static func < (lhs: GraphiteKey, rhs: GraphiteKey) -> Bool {
        if lhs.second != rhs.second { return lhs.second < rhs.second }
        if lhs.instrument != rhs.instrument {
            return lhs.instrument.utf8.lexicographicallyPrecedes(rhs.instrument.utf8)
        }
        return lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8)
    }
}
