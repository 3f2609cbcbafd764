import EventModel
import OpenAVT

/// Librato-style aggregates of every metric per time bucket: count, sum, minimum, maximum and
/// sum of squares (so mean and standard deviation), per system and metric name.
///
/// A metric counts in the bucket of its own time; buckets start at multiples of their length
/// since the epoch (UTC), as in ``KPISummary``. With `--group-by` (``GroupBy``), a metric also
/// counts in the group of the playback, value-proposition session or Marconi item it belongs
/// to; memory grows with the rows (bucket, group, system and name), not with the metrics.
///
/// Sums are exact sums rounded once (``ExactSum``), so they do not depend on the order of the
/// metrics, and aggregates merge exactly (``merge(_:)``): those of several shards merged are
/// those of all their metrics.
public struct MetricAggregates: Sendable {
    /// The bucket length, in milliseconds.
    public let bucket: Int64
    /// The dimensions rows are split by.
    public let groupBy: GroupBy
    private var aggregates: [Key: Aggregate] = [:]
    /// Where the buckets still open begin: a bucket that ends after this time may still get
    /// metrics (a run that leaves lives open for the next one); `nil` when every bucket is whole.
    package var openFrom: Timestamp?

    /// One row's identity.
    public struct Key: DigestHashable, Comparable, Sendable {
        public var bucket: Timestamp
        /// The dimension values, one per ``GroupBy/keys``.
        public var group: [String]
        public var system: MetricSystem
        public var name: String

        public init(bucket: Timestamp, group: [String] = [], system: MetricSystem, name: String) {
            self.bucket = bucket
            self.group = group
            self.system = system
            self.name = name
        }

        /// A word-wise digest of the name's and the group values' bytes, the system and the
        /// bucket (`DigestHashable`): every metric point looks its row up.
        public var hashDigest: UInt64 {
            var digest = wordDigest(name, continuing: UInt64(system.ordinal))
            for value in group { digest = wordDigest(value, continuing: digest) }
            return digest ^ UInt64(bitPattern: bucket.milliseconds) &* 0x9e37_79b9_7f4a_7c15
        }

        public static func < (lhs: Key, rhs: Key) -> Bool {
            if lhs.bucket != rhs.bucket { return lhs.bucket < rhs.bucket }
            if lhs.group != rhs.group { return GroupBy.precedes(lhs.group, rhs.group) }
            if lhs.system != rhs.system { return lhs.system < rhs.system }
            return lhs.name.precedesInUTF8Order(rhs.name)
        }
    }

    /// The aggregate of one metric in one bucket.
    public struct Aggregate: Hashable, Sendable, Codable {
        public private(set) var count: Int64 = 0
        public private(set) var minimum: Double = .infinity
        public private(set) var maximum: Double = -.infinity
        private var total = ExactSum()
        private var totalOfSquares = ExactSum()

        private enum CodingKeys: String, CodingKey {
            case count, minimum = "min", maximum = "max", total = "sum", totalOfSquares = "sumSquares"
        }

        /// An aggregate of no value.
        public init() {}

        /// Decodes what `encode(to:)` wrote; refuses (`dataCorrupted`) what no aggregate holds:
        /// a count outside `StoredRange/counts`, a minimum above the maximum or either not
        /// finite when there are values, sums that are not finite.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            count = try container.decodeStored(.count, in: StoredRange.counts)
            minimum = try container.decode(Double.self, forKey: .minimum)
            maximum = try container.decode(Double.self, forKey: .maximum)
            total = try container.decode(ExactSum.self, forKey: .total)
            totalOfSquares = try container.decode(ExactSum.self, forKey: .totalOfSquares)
            let empty = count == 0 && minimum == .infinity && maximum == -.infinity
            guard empty || (count > 0 && minimum.isFinite && maximum.isFinite && minimum <= maximum) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .minimum, in: container,
                    debugDescription: "min \(minimum) and max \(maximum) are not those of \(count) values")
            }
        }

        /// The sum of the values, correctly rounded.
        public var sum: Double { total.value }

        /// The sum of the values' squares (each rounded), correctly rounded.
        public var sumOfSquares: Double { totalOfSquares.value }

        /// Adds one value.
        public mutating func add(_ value: Double) {
            count += 1
            total.add(value)
            minimum = Swift.min(minimum, value)
            maximum = Swift.max(maximum, value)
            totalOfSquares.add(value * value)
        }

        /// Adds another aggregate's values, exactly as if they had been added one by one.
        public mutating func merge(_ other: Aggregate) {
            count += other.count
            mergeValues(other)
        }

        /// ``merge(_:)`` with the counts added with checked arithmetic, for aggregates read from
        /// a file: throws when the count would pass 2⁶⁰, leaving the aggregate as it was.
        package mutating func merge(checking other: Aggregate) throws(StateError) {
            guard let sum = StoredRange.add(count, other.count) else {
                throw StateError("count: adds up to more than 2^60 (\(count) and \(other.count))")
            }
            count = sum
            mergeValues(other)
        }

        private mutating func mergeValues(_ other: Aggregate) {
            total.add(other.total)
            minimum = Swift.min(minimum, other.minimum)
            maximum = Swift.max(maximum, other.maximum)
            totalOfSquares.add(other.totalOfSquares)
        }

        /// The mean, or `nil` without values.
        public var mean: Double? { count > 0 ? sum / Double(count) : nil }

        /// The population standard deviation, or `nil` without values.
        public var standardDeviation: Double? {
            guard let mean else { return nil }
            return (Swift.max(0, sumOfSquares / Double(count) - mean * mean)).squareRoot()
        }
    }

    /// Aggregates with buckets of `bucket` milliseconds, split by `groupBy`.
    public init(bucket: Int64, groupBy: GroupBy = .none) {
        self.bucket = bucket
        self.groupBy = groupBy
    }

    /// Adds the metrics a live replay handed over: its points that belong to no row (all its
    /// points without `--group-by`), and the aggregates of its final rows' points.
    public mutating func add(_ report: SessionReport) {
        let grouped = !groupBy.keys.isEmpty
        // Points read in place: a copy of each retains its origin.
        let points = report.points
        for index in points.indices {
            let group: [String]
            if grouped {
                // A row's points are aggregated by the replay, in `rowAggregates`, once the row is final.
                guard points[index].rowIndex == nil else { continue }
                group = groupBy.values(ofUnownedPointFrom: points[index].system, source: points[index].source)
            } else {
                group = []
            }
            guard let value = Self.value(of: points[index].metric) else { continue }
            let key = Key(
                bucket: points[index].metric.timestamp.bucketStart(length: bucket), group: group,
                system: points[index].system, name: points[index].metric.name)
            aggregates[key, default: Aggregate()].add(value)
        }
        for (key, aggregate) in report.rowAggregates {
            aggregates[key, default: Aggregate()].merge(aggregate)
        }
        for playback in report.playbacks { addKPIs(of: playback) }
    }

    /// The names of the rows of playback KPIs, one value per playback row, in the bucket of its
    /// `first_ts` (as in `summary.csv`): a dashboard gets the rates from their means, or from
    /// their sums (`addKPIs(of:)`).
    public enum PlaybackKPI {
        /// `startup_ms`, per play that has one.
        public static let startup = "startup_ms"
        /// 100 for a start failure, else 0, per view: the mean is VSF %.
        public static let videoStartFailure = "vsf_pct"
        /// 100 for an exit before start, else 0, per view: the mean is EBVS %.
        public static let exitBeforeStart = "ebvs_pct"
        /// 100 for a play with an error, else 0, per play: the mean is VPF %.
        public static let playbackFailure = "vpf_pct"
        /// Watch time (play time plus rebuffer time), rebuffer time, rebuffers and quality changes
        /// per view: rebuffer % is 100 × the sum of `rebuffer_ms` over the sum of `watch_ms`.
        public static let watchTime = "watch_ms"
        public static let rebufferTime = "rebuffer_ms"
        public static let rebuffers = "rebuffers"
        public static let qualityChanges = "quality_changes"
    }

    /// Adds a playback's KPI values to its bucket's rows (``PlaybackKPI``).
    private mutating func addKPIs(of playback: PlaybackSummary) {
        let bucketStart = playback.firstTimestamp.bucketStart(length: bucket)
        let group = groupBy.keys.isEmpty ? [] : groupBy.values(of: playback)
        func add(_ name: String, _ value: Int64) {
            aggregates[Key(bucket: bucketStart, group: group, system: .openavt, name: name), default: Aggregate()]
                .add(Double(value))
        }
        add(PlaybackKPI.videoStartFailure, playback.isStartFailure ? 100 : 0)
        add(PlaybackKPI.exitBeforeStart, playback.isExitBeforeStart ? 100 : 0)
        add(PlaybackKPI.watchTime, playback.playTime + playback.rebufferTime)
        add(PlaybackKPI.rebufferTime, playback.rebufferTime)
        add(PlaybackKPI.rebuffers, playback.rebuffers)
        add(PlaybackKPI.qualityChanges, playback.qualityChanges)
        guard playback.didStart else { return }
        if let startup = playback.startup { add(PlaybackKPI.startup, startup) }
        add(PlaybackKPI.playbackFailure, playback.errors > 0 ? 100 : 0)
    }

    /// A metric's value as aggregated, or `nil` for one that is not finite (left out).
    static func value(of metric: Metric) -> Double? {
        let value: Double
        switch metric.value {
        case .int(let number): value = Double(number)
        case .double(let number): value = number
        }
        return value.isFinite ? value : nil
    }

    /// Adds another set of aggregates' rows: the aggregates of both sets' metrics. Both must
    /// have the same ``bucket`` and ``groupBy``.
    public mutating func merge(_ other: MetricAggregates) {
        for (key, aggregate) in other.aggregates {
            aggregates[key, default: Aggregate()].merge(aggregate)
        }
    }

    /// What ``merge(_:)`` needs of a set of aggregates: its rows, in ``rows`` order.
    public struct State: Codable, Sendable {
        public var bucket: Int64
        public var groupBy: [String]
        public var rows: [Row]

        /// One row: its key's parts and its aggregate.
        public struct Row: Codable, Sendable {
            public var bucket: Int64
            public var group: [String]
            public var system: String
            public var metric: String
            public var aggregate: Aggregate
        }

        /// The counts of every row added up (checked): what bounds the count of any row these
        /// rows merge into, and, added up over several states, of theirs. Throws when it
        /// passes 2⁶⁰.
        package func countOfValues() throws(StateError) -> Int64 {
            var total: Int64 = 0
            for row in rows {
                guard let sum = StoredRange.add(total, row.aggregate.count) else {
                    throw StateError("rows: the counts add up to more than 2^60")
                }
                total = sum
            }
            return total
        }
    }

    /// The aggregates' state, from which ``init(state:)`` rebuilds them.
    public var state: State {
        State(
            bucket: bucket, groupBy: groupBy.keys,
            rows: rows.map { key, aggregate in
                State.Row(
                    bucket: key.bucket.milliseconds, group: key.group, system: key.system.rawValue, metric: key.name,
                    aggregate: aggregate)
            })
    }

    /// Rebuilds aggregates from their ``state``.
    /// - Throws: ``StateError`` when the state is not one aggregates could have: a bucket
    ///   length from 1m to 1d, rows of a known system, with values, a value per `--group-by`
    ///   key and a bucket start that is the start of a bucket in `StoredRange/times`, and
    ///   counts that add up to at most 2⁶⁰ (`State.countOfValues()`).
    public init(state: State) throws(StateError) {
        guard (60_000...86_400_000).contains(state.bucket) else {
            throw StateError("bucket: \(state.bucket) ms is not a bucket length from 1m to 1d")
        }
        _ = try state.countOfValues()
        self.init(bucket: state.bucket, groupBy: GroupBy(state.groupBy))
        for (index, row) in state.rows.enumerated() {
            guard let system = MetricSystem(rawValue: row.system) else {
                throw StateError("rows[\(index)].system: unknown system \"\(row.system)\"")
            }
            guard row.group.count == state.groupBy.count, row.aggregate.count > 0 else {
                throw StateError(
                    "rows[\(index)]: the row of \(row.metric) at \(row.bucket) has no values or the wrong group")
            }
            guard StoredRange.times.contains(row.bucket),
                Timestamp(milliseconds: row.bucket).bucketStart(length: state.bucket).milliseconds == row.bucket
            else {
                throw StateError(
                    "rows[\(index)].bucket: \(row.bucket) is not the start of a bucket of \(state.bucket) ms of years "
                        + "0 to 9999")
            }
            let key = Key(
                bucket: Timestamp(milliseconds: row.bucket), group: row.group, system: system, name: row.metric)
            do {
                try aggregates[key, default: Aggregate()].merge(checking: row.aggregate)
            } catch {
                throw StateError("rows[\(index)].aggregate.\(error.description)")
            }
        }
    }

    /// Whether a row's bucket is still open (``openFrom``).
    package func isPartial(_ key: Key) -> Bool {
        openFrom.map { key.bucket.milliseconds &+ bucket > $0.milliseconds } ?? false
    }

    /// The rows whose buckets are still open (``openFrom``): what a run that leaves lives open
    /// carries to the next run, which merges them (``merge(_:)``) and writes those buckets
    /// whole. `nil` when no bucket is open.
    package var carried: MetricAggregates? {
        openFrom.flatMap { carried(from: $0) }
    }

    /// The rows of the buckets from the one that holds `time` on (``carried``); `nil` when
    /// there are none.
    package func carried(from time: Timestamp) -> MetricAggregates? {
        var carried = MetricAggregates(bucket: bucket, groupBy: groupBy)
        for (key, aggregate) in aggregates where key.bucket.milliseconds &+ bucket > time.milliseconds {
            carried.aggregates[key] = aggregate
        }
        return carried.aggregates.isEmpty ? nil : carried
    }

    /// The aggregates, by bucket, then group values (byte-wise), then system, then metric name.
    public var rows: [(key: Key, aggregate: Aggregate)] {
        aggregates.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

extension MetricAggregates.State {
    private enum CodingKeys: String, CodingKey {
        case bucket, groupBy, rows
    }

    /// Decodes what the synthesized `encode(to:)` writes, its integers as 64-bit integers
    /// (one that is not is refused at its key); ``MetricAggregates/init(state:)`` checks the rest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            bucket: try container.decodeStored(.bucket, in: StoredRange.sums),
            groupBy: try container.decode([String].self, forKey: .groupBy),
            rows: try container.decode([Row].self, forKey: .rows))
    }
}

extension MetricAggregates.State.Row {
    private enum CodingKeys: String, CodingKey {
        case bucket, group, system, metric, aggregate
    }

    /// Decodes what the synthesized `encode(to:)` writes, the bucket's start as a 64-bit integer.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            bucket: try container.decodeStored(.bucket, in: StoredRange.sums),
            group: try container.decode([String].self, forKey: .group),
            system: try container.decode(String.self, forKey: .system),
            metric: try container.decode(String.self, forKey: .metric),
            aggregate: try container.decode(MetricAggregates.Aggregate.self, forKey: .aggregate))
    }
}
