/// What the metric files hold and the servers get (`--metrics`).
package enum MetricsGrain: String, CaseIterable, Sendable {
    /// Every event's metrics, as the metricalc emitted them, the device ids as InfluxDB fields.
    case events
    /// A point per row of the reports in InfluxDB; the aggregates in Graphite.
    case playbacks
    /// Only the aggregates of `aggregates.csv`, per bucket and group: a bounded number of series.
    case aggregates
}

/// What `metrics.influx` and `metrics.graphite` hold.
package struct MetricPoints: Sendable {
    /// Every event's metrics, in both files.
    package var events = false
    /// A point per report row, in `metrics.influx`.
    package var rows = false
    /// The aggregates of `aggregates.csv`, after the rest, in each file.
    package var influxAggregates = false
    package var graphiteAggregates = false

    /// Every event's metrics and nothing else (a merge, whose shards wrote the rest).
    package static let events = MetricPoints(events: true)

    package init(
        events: Bool = false, rows: Bool = false, influxAggregates: Bool = false, graphiteAggregates: Bool = false
    ) {
        self.events = events
        self.rows = rows
        self.influxAggregates = influxAggregates
        self.graphiteAggregates = graphiteAggregates
    }

    /// The points of `--metrics grain`, with the aggregates too when `aggregate` (`--aggregate`).
    package init(grain: MetricsGrain, aggregate: Bool) {
        events = grain == .events
        rows = grain == .playbacks
        influxAggregates = aggregate || grain == .aggregates
        graphiteAggregates = aggregate || grain != .events
    }
}
