import Replay

/// `aggregates.csv`: every metric's count, sum, minimum, maximum and sum of squares per time
/// bucket, system and name (`MetricAggregates`), with mean and standard deviation.
///
/// `bucket` is the bucket's start in RFC 3339 (UTC), followed by a column per `--group-by`
/// key; numbers other than `count` have two decimals. `partial` is `true` for a bucket a later
/// run will write again, whole (`openFrom`).
public enum AggregatesReport {
    /// The header, in column order.
    public static let columns = [
        "bucket", "system", "metric", "count", "sum", "min", "max", "sum_squares", "mean", "stddev", "partial",
    ]

    /// The header of aggregates split by `groupBy`: `bucket`, a column per key, then the rest.
    public static func header(for groupBy: GroupBy) -> [String] {
        groupBy.header(columns)
    }

    /// The whole file.
    public static func encode(_ aggregates: MetricAggregates) -> [UInt8] {
        var buffer: [UInt8] = []
        var csv = CSVEncoder()
        csv.appendHeader(header(for: aggregates.groupBy), into: &buffer)
        for (key, aggregate) in aggregates.rows {
            csv.appendString(SummaryReport.rfc3339(key.bucket), into: &buffer)
            for value in key.group { csv.appendString(value, into: &buffer) }
            csv.appendString(key.system.rawValue, into: &buffer)
            csv.appendString(key.name, into: &buffer)
            csv.appendInt(aggregate.count, into: &buffer)
            csv.appendFixed2(aggregate.sum, into: &buffer)
            csv.appendFixed2(aggregate.minimum, into: &buffer)
            csv.appendFixed2(aggregate.maximum, into: &buffer)
            csv.appendFixed2(aggregate.sumOfSquares, into: &buffer)
            csv.appendFixed2(aggregate.mean, into: &buffer)
            csv.appendFixed2(aggregate.standardDeviation, into: &buffer)
            csv.appendString(aggregates.isPartial(key) ? "true" : "false", into: &buffer)
            csv.endRow(into: &buffer)
        }
        return buffer
    }
}
