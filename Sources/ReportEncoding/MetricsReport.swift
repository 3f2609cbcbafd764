import EventModel
import OpenAVT
import Replay

/// `metrics.influx` and `metrics.graphite`: every metric the replay computed.
///
/// InfluxDB: one point per metric in the measurement `<prefix>_<system>` (`openavt`, `vp`,
/// `marconi`; the system alone with an empty prefix), with the point's tags, the metric as a
/// field named after it (integers with `i`), and the point's string fields (ids). Timestamps
/// are nanoseconds (write with `precision=ns`) within the event's millisecond, so that
/// InfluxDB, which keeps one point per series and time, keeps every point: with the device
/// ids as tags, the point's index among its source's points in that millisecond; with them as
/// fields (``idsAsFields``), a time no other point of the series has (`InfluxPointTimes`).
///
/// Graphite: `<prefix>.<system>.<path...>.<MetricName> value epoch_seconds`, one line per path
/// and second, whose value is the sum of that second's values: counters add up, and the
/// gauges are per-event durations (`PlayTime`, `RebufferTime`, `SessionDuration`, ...) or once
/// per playback (`StartTime`), so one source's sum in one second is their total. Carbon keeps
/// one value per path and interval, so sending each point alone would lose all but the last.
public struct MetricsReport {
    /// The prefix as the user gave it (`--prefix`); empty for none.
    public let prefix: String
    /// Whether the tag that names a point's source (its instrument, app or player: the tag
    /// whose value is `source`) is a string field instead, as OpenAVT's own
    /// InfluxDB backend writes ids: the series are then bounded (tracker, value proposition,
    /// station), not one per device.
    public let idsAsFields: Bool
    /// The prefix's Graphite nodes, split once for every batch.
    private let graphitePrefix: [String]

    public init(prefix: String, idsAsFields: Bool = false) {
        self.prefix = prefix
        self.idsAsFields = idsAsFields
        graphitePrefix = GraphiteEncoder.nodes(fromDotted: prefix)
    }

    /// `metrics.influx`, from points in output order.
    ///
    /// A point's measurement and tags, and its string fields, are escaped once for the
    /// points of its origin (and again only when a point of another origin has other ones).
    public func influx(_ points: [MetricPoint]) -> [UInt8] {
        var writer = ByteWriter(capacity: points.count * 128)
        var encoder = InfluxLineEncoder()
        appendInflux(points, with: &encoder, into: &writer)
        return writer.finish()
    }

    /// Appends `metrics.influx`'s lines for points in output order (`influx(_:)`), with an
    /// encoder kept from one batch to the next: it keeps the metrics' names escaped.
    package func appendInflux(
        _ points: [MetricPoint], with encoder: inout InfluxLineEncoder, into writer: inout ByteWriter
    ) {
        var times = InfluxPointTimes()
        appendInflux(points, with: &encoder, times: &times, into: &writer)
    }

    /// Appends `metrics.influx`'s lines for points in output order, with an encoder and the
    /// times of the points written so far kept from one batch to the next (``idsAsFields``).
    package func appendInflux(
        _ points: [MetricPoint], with encoder: inout InfluxLineEncoder, times: inout InfluxPointTimes,
        into writer: inout ByteWriter
    ) {
        var indexInMillisecond: Int64 = 0
        // The encoded series and shared fields of the origin of the point at `*Owner`: the
        // points are read in place and compared by index, so that writing one costs no
        // reference counting.
        var series = InfluxSeries?.none
        var seriesOwner = -1
        var shared = InfluxFields()
        var sharedOwner = -1
        for index in points.indices {
            let timestamp = points[index].metric.timestamp
            if index > 0, points[index - 1].metric.timestamp == timestamp,
                MetricOrigin.sameSource(points[index - 1].origin, points[index].origin)
            {
                indexInMillisecond += 1
            } else {
                indexInMillisecond = 0
            }
            if seriesOwner < 0 || points[seriesOwner].origin !== points[index].origin {
                if seriesOwner < 0 || !MetricOrigin.sameSeries(points[seriesOwner].origin, points[index].origin) {
                    let system = points[index].origin.system.rawValue
                    series = encoder.series(
                        measurement: prefix.isEmpty ? system : prefix + "_" + system,
                        tags: seriesTags(of: points[index].origin).map { ($0.key, $0.value) })
                }
                seriesOwner = index
            }
            guard let encodedSeries = series else { continue }
            if sharedOwner < 0 || points[sharedOwner].origin !== points[index].origin {
                if sharedOwner < 0 || !MetricOrigin.sameSource(points[sharedOwner].origin, points[index].origin)
                    || points[sharedOwner].origin.stringFields != points[index].origin.stringFields
                {
                    shared = encoder.fields(stringFields(of: points[index].origin).map { ($0.key, .string($0.value)) })
                }
                sharedOwner = index
            }
            // A time InfluxDB cannot store is left out, never wrapped (MetricTimeRange).
            guard MetricTimeRange.influx.contains(timestamp) else { continue }
            let nanoseconds =
                idsAsFields
                ? times.claim(
                    series: encodedSeries, source: points[index].origin.source, millisecond: timestamp.milliseconds,
                    index: indexInMillisecond)
                : timestamp.milliseconds * 1_000_000 &+ indexInMillisecond
            encoder.appendPoint(
                series: encodedSeries, field: points[index].metric.name, Self.fieldValue(points[index].metric.value),
                sharedFields: shared, timestamp: nanoseconds, into: &writer)
        }
    }

    /// The tags of an origin's series: all of them, or with ``idsAsFields`` all but the source's.
    private func seriesTags(of origin: MetricOrigin) -> [MetricTag] {
        idsAsFields ? origin.tags.filter { $0.value != origin.source } : origin.tags
    }

    /// An origin's string fields: with ``idsAsFields``, the source's tag first.
    private func stringFields(of origin: MetricOrigin) -> [MetricTag] {
        idsAsFields ? origin.tags.filter { $0.value == origin.source } + origin.stringFields : origin.stringFields
    }

    /// `metrics.graphite`, from points in output order: lines by second, then path.
    ///
    /// Each distinct path is sanitised once (its source's nodes once for all of its names); the
    /// points are ordered by second and by the path's rank among the batch's paths, and summed
    /// in their order within a line.
    public func graphite(_ points: [MetricPoint]) -> [UInt8] {
        var writer = ByteWriter(capacity: points.count * 64)
        appendGraphite(points, into: &writer)
        return writer.finish()
    }

    /// Appends `metrics.graphite`'s lines for points in output order (`graphite(_:)`).
    package func appendGraphite(_ points: [MetricPoint], into writer: inout ByteWriter) {
        var paths = GraphitePaths()
        var lineOfPoint: [Int] = []
        lineOfPoint.reserveCapacity(points.count)
        // Fields read in place: copying a point retains its origin and metric name. The origin
        // is lent to `line` through `Unmanaged`: passed as it is, Swift retained and released
        // it for the call (2 atomic operations a point).
        for index in points.indices {
            lineOfPoint.append(
                Unmanaged.passUnretained(points[index].origin)._withUnsafeGuaranteedRef {
                    paths.line(origin: $0, name: points[index].metric.name)
                })
        }
        let rank = paths.ranks()
        // Sort keys made once per point; points mostly come in this order already.
        var keys = points.indices.map { index in
            LineOrder(
                second: points[index].metric.timestamp.epochSeconds, rank: rank[lineOfPoint[index]], index: index)
        }
        if !keys.indices.dropFirst().allSatisfy({ !(keys[$0] < keys[$0 - 1]) }) { keys.sort() }
        var encoder = GraphiteEncoder(prefix: graphitePrefix)
        // Every path is written (each has a point), encoded back to back and read in place:
        // taking a path out of an array of them retained its bytes, on every line.
        var pathBytes: [UInt8] = []
        pathBytes.reserveCapacity(paths.count * 48)
        var pathRanges: [Range<Int>?] = []
        pathRanges.reserveCapacity(paths.count)
        for line in 0..<paths.count {
            let start = pathBytes.count
            pathRanges.append(
                paths.appendEncodedPath(line, with: &encoder, to: &pathBytes) ? start..<pathBytes.count : nil)
        }
        pathBytes.withUnsafeBufferPointer { pathBytes in
            var position = 0
            while position < keys.count {
                // A line is the keys of one second and rank (so one path); fields read in place.
                let first = keys[position]
                var sum = points[first.index].metric.value
                position += 1
                while position < keys.count, keys[position].rank == first.rank, keys[position].second == first.second {
                    sum = Self.sum(sum, points[keys[position].index].metric.value)
                    position += 1
                }
                guard let range = pathRanges[lineOfPoint[first.index]],
                    MetricTimeRange.graphite.contains(points[first.index].metric.timestamp)
                else { continue }
                encoder.appendLine(
                    pathBytes: UnsafeBufferPointer(rebasing: pathBytes[range]), value: sum, epochSeconds: first.second,
                    into: &writer)
            }
        }
    }

    /// The aggregates (`--aggregate`) as InfluxDB points, at their bucket's start: measurement
    /// `<measurement>_aggregates`, tag `metric` and a tag per `--group-by` key (named as in
    /// `columnName(_:reserved:)`; an empty value is left out), fields `count`
    /// (integer), `sum`, `min`, `max`, `sum_squares`, `mean` and `stddev`.
    public func influx(_ aggregates: MetricAggregates) -> [UInt8] {
        var encoder = InfluxLineEncoder()
        var buffer: [UInt8] = []
        let tagKeys = aggregates.groupBy.keys.map { GroupBy.columnName($0, reserved: ["metric"]) }
        for (key, aggregate) in aggregates.rows where MetricTimeRange.influx.contains(key.bucket) {
            let system = prefix.isEmpty ? key.system.rawValue : prefix + "_" + key.system.rawValue
            var fields: [(String, InfluxFieldValue)] = [("count", .int(aggregate.count))]
            fields += Self.aggregateValues(aggregate).map { ($0.name, .double($0.value)) }
            _ = encoder.appendPoint(
                measurement: system + "_aggregates", tags: [("metric", key.name)] + Array(zip(tagKeys, key.group)),
                fields: fields, timestamp: key.bucket.milliseconds * 1_000_000, into: &buffer)
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
        for (key, aggregate) in aggregates.rows where MetricTimeRange.graphite.contains(key.bucket) {
            let path = [key.system.rawValue, "aggregates"] + key.group.map { $0.isEmpty ? "unknown" : $0 } + [key.name]
            let lineKey = GraphiteAggregateKey(
                seconds: key.bucket.epochSeconds, path: path.map(GraphiteEncoder.sanitizedNode))
            if merged[lineKey] == nil { order.append(lineKey) }
            merged[lineKey, default: MetricAggregates.Aggregate()].merge(aggregate)
        }
        var encoder = GraphiteEncoder(prefix: graphitePrefix)
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

/// Where a point's line goes in `metrics.graphite`: by second, then by its path's rank, then
/// in point order (so that a line's values are summed in that order).
private struct LineOrder: Comparable {
    var second: Int64
    var rank: Int
    var index: Int

    static func < (lhs: LineOrder, rhs: LineOrder) -> Bool {
        (lhs.second, lhs.rank, lhs.index) < (rhs.second, rhs.rank, rhs.index)
    }
}

/// The distinct Graphite paths (`system`, the point's path, the metric's name) of a batch of
/// points, numbered as they first appear.
///
/// A batch has a source or two (an instrument, an app's value proposition, a station's
/// player) and a handful of metric names per source: each source's nodes are kept and
/// encoded once, and each line is its source and a name.
private struct GraphitePaths {
    private struct Source: Hashable {
        var system: MetricSystem
        var path: [String]
    }

    private struct Line {
        var source: Int
        var name: String
    }

    private var lines: [Line] = []
    private var sources: [Source] = []
    /// Per source, the line of each metric name: a source has a handful of names, which a
    /// scan finds faster than hashing them. Names are compared by their strings' words first
    /// (`StringWords`): a metric's name is written in code, one string for all of
    /// its points.
    private var lineByName: [[(name: String, words: StringWords, line: Int)]] = []
    /// Per source, its encoded nodes, once a line of it is written.
    private var encodedSources: [GraphitePath??] = []
    private var sourceIndex: [Source: Int] = [:]
    /// The identity of the origin last looked up, and its source: points of one origin (or of
    /// origins with the same path) come together. Compared by identity, without holding the
    /// origin (a reference count up and down a point): the points being encoded hold their
    /// origins, so no other origin can take its address meanwhile.
    private var last: (origin: ObjectIdentifier, index: Int)?
    /// The line last found, and its name's words: a source's points are mostly of one metric
    /// (`PlayTime`), often several in a row.
    private var lastLine = (words: StringWords(""), line: -1)

    var count: Int { lines.count }

    /// The number of the path of a point of `origin` named `name`, new or seen before.
    mutating func line(origin: MetricOrigin, name: String) -> Int {
        let words = StringWords(name)
        let source: Int
        let identity = ObjectIdentifier(origin)
        if let last, last.origin == identity {
            if lastLine.line >= 0, lastLine.words == words { return lastLine.line }
            source = last.index
        } else if let last, sources[last.index].system == origin.system && sources[last.index].path == origin.path {
            source = last.index
            self.last = (identity, source)
        } else {
            let key = Source(system: origin.system, path: origin.path)
            if let known = sourceIndex[key] {
                source = known
            } else {
                source = sources.count
                sourceIndex[key] = source
                sources.append(key)
                lineByName.append([])
                encodedSources.append(nil)
            }
            last = (identity, source)
        }
        if let known = knownLine(named: name, words: words, of: source) {
            lastLine = (words, known)
            return known
        }
        let line = lines.count
        lines.append(Line(source: source, name: name))
        lineByName[source].append((name, words, line))
        lastLine = (words, line)
        return line
    }

    /// The line of a source's metric name, if it has one: by the name's words, or else by its
    /// characters (a name made apart).
    private func knownLine(named name: String, words: StringWords, of source: Int) -> Int? {
        let names = lineByName[source]
        for index in names.indices where names[index].words == words { return names[index].line }
        for index in names.indices where names[index].name == name { return names[index].line }
        return nil
    }

    /// Appends the encoded path of a line to `bytes`: its source's nodes, encoded once, and its
    /// name; `false` (nothing appended) when the encoder writes no line of that source.
    mutating func appendEncodedPath(_ line: Int, with encoder: inout GraphiteEncoder, to bytes: inout [UInt8]) -> Bool {
        let source = lines[line].source
        if encodedSources[source] == nil {
            encodedSources[source] = .some(
                encoder.encodedPath([sources[source].system.rawValue] + sources[source].path))
        }
        guard let encoded = encodedSources[source] ?? nil else { return false }
        GraphiteEncoder.append(encoded, extendedWith: lines[line].name, to: &bytes)
        return true
    }

    /// Each path's rank in the output order: node by node, in UTF-8 byte order.
    func ranks() -> [Int] {
        // The comparison is given the two arrays it reads, not `self`: a method as the
        // closure would copy the whole struct, a retain of each of its parts, on every call.
        let (lines, sources) = (lines, sources)
        let sorted = lines.indices.sorted { Self.precedes($0, $1, lines: lines, sources: sources) }
        var rank = Array(repeating: 0, count: lines.count)
        for (position, line) in sorted.enumerated() { rank[line] = position }
        return rank
    }

    /// Whether line `lhs`'s nodes come before line `rhs`'s, node by node.
    private static func precedes(_ lhs: Int, _ rhs: Int, lines: [Line], sources: [Source]) -> Bool {
        let (left, right) = (lines[lhs], lines[rhs])
        if left.source == right.source { return left.name.precedesInUTF8Order(right.name) }
        let (leftSource, rightSource) = (sources[left.source], sources[right.source])
        if leftSource.system != rightSource.system {
            return leftSource.system.rawValue.precedesInUTF8Order(rightSource.system.rawValue)
        }
        // The nodes after the system: the path's, then the name.
        let (leftCount, rightCount) = (leftSource.path.count + 1, rightSource.path.count + 1)
        for index in 0..<min(leftCount, rightCount) {
            let leftNode = index < leftSource.path.count ? leftSource.path[index] : left.name
            let rightNode = index < rightSource.path.count ? rightSource.path[index] : right.name
            if leftNode != rightNode { return leftNode.precedesInUTF8Order(rightNode) }
        }
        return leftCount < rightCount
    }
}

/// The lines of one aggregate row in Graphite: a bucket's start and a sanitised path.
private struct GraphiteAggregateKey: Hashable {
    var seconds: Int64
    var path: [String]
}

/// The nanosecond times of the InfluxDB points written so far, per series, so that two points
/// of one series never share a time (InfluxDB would keep only the last) when the device ids
/// are fields (``MetricsReport/idsAsFields``): points of many devices then share a series.
///
/// A point of source `s`, the `i`-th of its source in millisecond `m`, gets the nanosecond
/// `m × 10⁶ + (FNV-1a(s) + i) mod 10⁶`, or the next free one after it in that millisecond:
/// the same points in the same order get the same times, and a source's points keep their
/// order. A time is kept as a 64-bit digest of it and its series: two that share a digest
/// only move a point on to the next nanosecond, never give two points one time. Memory:
/// about 25 bytes a point written (100 MB for the 3.9 million points of the benchmark day).
package struct InfluxPointTimes {
    private var claimed: Set<UInt64> = []

    package init() {}

    /// Claims a free time in millisecond `millisecond` for the `index`-th point of `source`
    /// in it, in `series`.
    mutating func claim(series: InfluxSeries, source: String, millisecond: Int64, index: Int64) -> Int64 {
        let perMillisecond: Int64 = 1_000_000
        var offset = Int64((fnv1a(source) % UInt64(perMillisecond) + UInt64(index)) % UInt64(perMillisecond))
        for _ in 0..<perMillisecond {
            let time = millisecond * perMillisecond + offset
            if claimed.insert(Self.digest(series.digest, time)).inserted { return time }
            offset = (offset + 1) % perMillisecond
        }
        // A million points of one series in one millisecond: the last one shares a time.
        return millisecond * perMillisecond + offset
    }

    /// A 64-bit digest of a series and a time (the series' digest mixed with the time by
    /// SplitMix64's finaliser).
    private static func digest(_ series: UInt64, _ time: Int64) -> UInt64 {
        var mixed = series ^ (UInt64(bitPattern: time) &* 0x9e37_79b9_7f4a_7c15)
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        return mixed ^ (mixed >> 31)
    }
}

/// The times a metric server stores, in epoch milliseconds: a point outside is left out of
/// the metric files (and never pushed), never wrapped into another time. The replay names the
/// records whose points these leave out (`run.json` warnings, docs/reports.md).
///
/// - InfluxDB: nanoseconds in a 64-bit integer, as its line protocol takes them, from
///   1677-09-21T00:12:43.147Z to 2262-04-11T23:47:16.853Z (whole milliseconds whose every
///   nanosecond fits).
/// - Graphite: whisper keeps epoch seconds as an unsigned 32-bit integer, from
///   1970-01-01T00:00:00Z to 2106-02-07T06:28:15.999Z.
public enum MetricTimeRange {
    public static let influx = (Int64.min / 1_000_000 + 1)...(Int64.max / 1_000_000 - 1)
    public static let graphite: ClosedRange<Int64> = 0...(Int64(UInt32.max) * 1_000 + 999)
}

extension ClosedRange<Int64> {
    /// Whether a time's milliseconds are in the range.
    public func contains(_ time: Timestamp) -> Bool {
        contains(time.milliseconds)
    }
}
