import EventModel
import OpenAVT
import Replay

/// `metrics.influx` and `metrics.graphite`: every metric the replay computed.
///
/// InfluxDB: one point per metric in the measurement `<prefix>_<system>` (`openavt`, `vp`,
/// `marconi`; the system alone with an empty prefix), with the point's tags, the metric as a
/// field named after it (integers with `i`), and the point's string fields (ids). Timestamps
/// are nanoseconds (write with `precision=ns`): the event's millisecond, plus the point's
/// index among its source's points in that millisecond, so that InfluxDB, which merges points
/// of one series and time, keeps every point.
///
/// Graphite: `<prefix>.<system>.<path...>.<MetricName> value epoch_seconds`, one line per path
/// and second, whose value is the sum of that second's values: counters add up, and the
/// gauges are per-event durations (`PlayTime`, `RebufferTime`, `SessionDuration`, ...) or once
/// per playback (`StartTime`), so one source's sum in one second is their total. Carbon keeps
/// one value per path and interval, so sending each point alone would lose all but the last.
public struct MetricsReport {
    /// The prefix as the user gave it (`--prefix`); empty for none.
    public var prefix: String

    public init(prefix: String) {
        self.prefix = prefix
    }

    /// `metrics.influx`, from points in output order.
    public func influx(_ points: [MetricPoint]) -> [UInt8] {
        var encoder = InfluxLineEncoder()
        var buffer: [UInt8] = []
        var previous: (timestamp: Timestamp, system: MetricSystem, source: String)?
        var indexInMillisecond: Int64 = 0
        for point in points {
            if let previous, previous.timestamp == point.metric.timestamp, previous.system == point.system,
                previous.source == point.source
            {
                indexInMillisecond += 1
            } else {
                indexInMillisecond = 0
            }
            previous = (point.metric.timestamp, point.system, point.source)
            var fields: [(String, InfluxFieldValue)] = [(point.metric.name, Self.fieldValue(point.metric.value))]
            fields += point.stringFields.map { ($0.key, .string($0.value)) }
            _ = encoder.appendPoint(
                measurement: prefix.isEmpty ? point.system.rawValue : prefix + "_" + point.system.rawValue,
                tags: point.tags.map { ($0.key, $0.value) },
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
                second: point.metric.timestamp.epochSeconds,
                path: [point.system.rawValue] + point.path + [point.metric.name])
            sums[key] = sums[key].map { Self.sum($0, point.metric.value) } ?? point.metric.value
        }
        var encoder = GraphiteEncoder(prefix: GraphiteEncoder.nodes(fromDotted: prefix))
        var buffer: [UInt8] = []
        for key in sums.keys.sorted() {
            switch sums[key] {
            case .int(let value):
                _ = encoder.appendLine(path: key.path, value: value, epochSeconds: key.second, into: &buffer)
            case .double(let value):
                _ = encoder.appendLine(path: key.path, value: value, epochSeconds: key.second, into: &buffer)
            case nil: break
            }
        }
        return buffer
    }

    /// The aggregates (`--aggregate`) as InfluxDB points, at their bucket's start: measurement
    /// `<measurement>_aggregates`, tag `metric` and a tag per `--group-by` key (named as in
    /// ``GroupBy/columnName(_:reserved:)``; an empty value is left out), fields `count`
    /// (integer), `sum`, `min`, `max`, `sum_squares`, `mean` and `stddev`.
    public func influx(_ aggregates: MetricAggregates) -> [UInt8] {
        var encoder = InfluxLineEncoder()
        var buffer: [UInt8] = []
        let tagKeys = aggregates.groupBy.keys.map { GroupBy.columnName($0, reserved: ["metric"]) }
        for (key, aggregate) in aggregates.rows {
            let system = prefix.isEmpty ? key.system.rawValue : prefix + "_" + key.system.rawValue
            var fields: [(String, InfluxFieldValue)] = [("count", .int(aggregate.count))]
            fields += Self.aggregateValues(aggregate).map { ($0.name, .double($0.value)) }
            _ = encoder.appendPoint(
                measurement: system + "_aggregates", tags: [("metric", key.name)] + Array(zip(tagKeys, key.group)),
                fields: fields, timestamp: key.bucket.milliseconds &* 1_000_000, into: &buffer)
        }
        return buffer
    }

    /// The aggregates (`--aggregate`) as Graphite lines, at their bucket's start:
    /// `<prefix>.<system>.aggregates.<group values...>.<MetricName>.<count|sum|min|max|sum_squares|mean|stddev>`,
    /// with a node per `--group-by` value (`unknown` for an empty one). Rows whose paths are the
    /// same once sanitised (`a b` and `a_b`) are merged into one set of lines, since carbon
    /// would keep only the last.
    public func graphite(_ aggregates: MetricAggregates) -> [UInt8] {
        var merged: [GraphiteAggregateKey: MetricAggregates.Aggregate] = [:]
        var order: [GraphiteAggregateKey] = []
        for (key, aggregate) in aggregates.rows {
            let path = [key.system.rawValue, "aggregates"] + key.group.map { $0.isEmpty ? "unknown" : $0 } + [key.name]
            let lineKey = GraphiteAggregateKey(
                seconds: key.bucket.epochSeconds, path: path.map(GraphiteEncoder.sanitizedNode))
            if merged[lineKey] == nil { order.append(lineKey) }
            merged[lineKey, default: MetricAggregates.Aggregate()].merge(aggregate)
        }
        var encoder = GraphiteEncoder(prefix: GraphiteEncoder.nodes(fromDotted: prefix))
        var buffer: [UInt8] = []
        for lineKey in order {
            guard let aggregate = merged[lineKey] else { continue }
            let (path, seconds) = (lineKey.path, lineKey.seconds)
            _ = encoder.appendLine(path: path + ["count"], value: aggregate.count, epochSeconds: seconds, into: &buffer)
            for (name, value) in Self.aggregateValues(aggregate) {
                _ = encoder.appendLine(path: path + [name], value: value, epochSeconds: seconds, into: &buffer)
            }
        }
        return buffer
    }

    /// Every aggregate but the count, named as in `aggregates.csv`.
    private static func aggregateValues(_ aggregate: MetricAggregates.Aggregate) -> [(name: String, value: Double)] {
        [
            ("sum", aggregate.sum), ("min", aggregate.minimum), ("max", aggregate.maximum),
            ("sum_squares", aggregate.sumOfSquares), ("mean", aggregate.mean ?? 0),
            ("stddev", aggregate.standardDeviation ?? 0),
        ]
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

/// One Graphite line's identity: a second and a path (before sanitising).
private struct GraphiteKey: Hashable, Comparable {
    var second: Int64
    var path: [String]

    static func < (lhs: GraphiteKey, rhs: GraphiteKey) -> Bool {
        if lhs.second != rhs.second { return lhs.second < rhs.second }
        return lhs.path.lexicographicallyPrecedes(rhs.path) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}

/// The lines of one aggregate row in Graphite: a bucket's start and a sanitised path.
private struct GraphiteAggregateKey: Hashable {
    var seconds: Int64
    var path: [String]
}
