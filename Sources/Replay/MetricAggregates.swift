import EventModel
import OpenAVT

/// Librato-style aggregates of every metric per time bucket: count, sum, minimum, maximum and
/// sum of squares (so mean and standard deviation), per system and metric name.
///
/// A metric counts in the bucket of its own time; buckets start at multiples of their length
/// since the epoch (UTC), as in ``KPISummary``. With `--group-by` (``GroupBy``), a metric also
/// counts in the group of the playback, value-proposition session or Marconi item it belongs
/// to; memory grows with the rows (bucket, group, system and name), not with the metrics.
public struct MetricAggregates: Sendable {
    /// The bucket length, in milliseconds.
    public let bucket: Int64
    /// The dimensions rows are split by.
    public let groupBy: GroupBy
    private var aggregates: [Key: Aggregate] = [:]

    /// One row's identity.
    public struct Key: Hashable, Comparable, Sendable {
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

        public static func < (lhs: Key, rhs: Key) -> Bool {
            if lhs.bucket != rhs.bucket { return lhs.bucket < rhs.bucket }
            if lhs.group != rhs.group { return GroupBy.precedes(lhs.group, rhs.group) }
            if lhs.system != rhs.system { return lhs.system < rhs.system }
            return lhs.name.precedesInUTF8Order(rhs.name)
        }
    }

    /// The aggregate of one metric in one bucket.
    public struct Aggregate: Hashable, Sendable {
        public private(set) var count: Int64 = 0
        public private(set) var sum: Double = 0
        public private(set) var minimum: Double = .infinity
        public private(set) var maximum: Double = -.infinity
        public private(set) var sumOfSquares: Double = 0

        /// An aggregate of no value.
        public init() {}

        mutating func add(_ value: Double) {
            count += 1
            sum += value
            minimum = Swift.min(minimum, value)
            maximum = Swift.max(maximum, value)
            sumOfSquares += value * value
        }

        /// Adds another aggregate's values, as if they had been added one by one.
        public mutating func merge(_ other: Aggregate) {
            count += other.count
            sum += other.sum
            minimum = Swift.min(minimum, other.minimum)
            maximum = Swift.max(maximum, other.maximum)
            sumOfSquares += other.sumOfSquares
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

    /// Adds a closed session's metrics.
    public mutating func add(_ report: SessionReport) {
        let groups = groupBy.keys.isEmpty ? nil : groupBy.values(ofPointsIn: report)
        for (index, point) in report.points.enumerated() {
            let key = Key(
                bucket: point.metric.timestamp.bucketStart(length: bucket), group: groups?[index] ?? [],
                system: point.system, name: point.metric.name)
            let value: Double
            switch point.metric.value {
            case .int(let number): value = Double(number)
            case .double(let number): value = number
            }
            guard value.isFinite else { continue }
            aggregates[key, default: Aggregate()].add(value)
        }
    }

    /// The aggregates, by bucket, then group values (byte-wise), then system, then metric name.
    public var rows: [(key: Key, aggregate: Aggregate)] {
        aggregates.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
