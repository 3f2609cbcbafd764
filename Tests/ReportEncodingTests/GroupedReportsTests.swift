import EventModel
import OpenAVT
import Replay
import ReportEncoding
import Testing

/// `--group-by` in summary.csv, aggregates.csv and the `--aggregate` points.
@Suite("grouped reports")
struct GroupedReportsTests {
    /// Two playbacks of one instrument, the first titled `title`, the second untitled, each
    /// with a `NumPlays` metric, aggregated by the rows' groups of `keys` as a replay does.
    private func report(title: String, groupBy keys: [String] = []) -> SessionReport {
        var report = SessionReport(key: SessionKey(system: .openavt, id: "i"), closing: .inputEnd)
        let time = Timestamp(milliseconds: 1_763_622_902_125)
        var titled = PlaybackSummary(instrument: "i", tracker: 0, playbackID: "p1", firstTimestamp: time)
        titled.groupAttributes[.title] = .string(title)
        titled.groupAttributes["metric"] = "x"
        report.playbacks = [
            titled, PlaybackSummary(instrument: "i", tracker: 0, playbackID: "p2", firstTimestamp: time),
        ]
        report.points = [0, 1].map { row in
            MetricPoint(
                system: .openavt, source: "i", tags: [], path: [],
                metric: Metric(name: "NumPlays", kind: .counter, value: .int(1), timestamp: time), rowIndex: row)
        }
        let groupBy = GroupBy(keys)
        for playback in report.playbacks where !keys.isEmpty {
            let key = MetricAggregates.Key(
                bucket: time.bucketStart(length: 3_600_000), group: groupBy.values(of: playback), system: .openavt,
                name: "NumPlays")
            report.rowAggregates[key, default: MetricAggregates.Aggregate()].add(1)
        }
        return report
    }

    private func aggregates(_ keys: [String], title: String) -> MetricAggregates {
        var aggregates = MetricAggregates(bucket: 3_600_000, groupBy: GroupBy(keys))
        aggregates.add(report(title: title, groupBy: keys))
        return aggregates
    }

    /// The lines of `bytes` that are a header or name `metric` (the playbacks' KPI rows left out).
    private func rows(_ bytes: [UInt8], of metric: String) -> String {
        text(bytes).split(separator: "\n").enumerated().filter { $0.offset == 0 || $0.element.contains(metric) }
            .map { $0.element + "\n" }.joined()
    }

    @Test func dimensionColumnsFollowTheBucketAndAColumnNameInUseGetsAPrefix() {
        #expect(
            rows(
                AggregatesReport.encode(aggregates(["title", "system"], title: "Film \"Night, Day\"")), of: "NumPlays")
                == "bucket,title,group_system,system,metric,count,sum,min,max,sum_squares,mean,stddev,partial\n"
                + "2025-11-20T07:00:00Z,,openavt,openavt,NumPlays,1,1.00,1.00,1.00,1.00,1.00,0.00,false\n"
                + "2025-11-20T07:00:00Z,\"Film \"\"Night, Day\"\"\",openavt,openavt,NumPlays,1,1.00,1.00,1.00,1.00,1.00,0.00,false\n"
        )
        var summary = KPISummary(bucket: 3_600_000, groupBy: GroupBy(["title"]))
        summary.add(report(title: "Trailer"))
        let lines = text(SummaryReport.encode(summary)).split(separator: "\n")
        #expect(lines.first?.hasPrefix("bucket,title,views,plays,") == true)
        #expect(
            lines.dropFirst().map { $0.prefix { $0 != "," } } == [
                "2025-11-20T07:00:00Z", "2025-11-20T07:00:00Z", "all", "all",
            ])
        #expect(
            lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false)[1] } == [
                "", "Trailer", "", "Trailer",
            ])
    }

    @Test func influxTagsEscapeSpacesAndCommasAndLeaveOutEmptyValues() {
        let influx = MetricsReport(prefix: "avt").influx(aggregates(["title", "metric"], title: "Film \"Night, Day\""))
        let fields = "count=1i,sum=1.0,min=1.0,max=1.0,sum_squares=1.0,mean=1.0,stddev=0.0 1763622000000000000\n"
        #expect(
            text(influx).split(separator: "\n").filter { $0.contains("NumPlays") }.map { $0 + "\n" }.joined()
                == "avt_openavt_aggregates,metric=NumPlays \(fields)"
                + "avt_openavt_aggregates,group_metric=x,metric=NumPlays,title=Film\\ \"Night\\,\\ Day\" \(fields)"
        )
    }

    @Test func graphiteHasANodePerValueAndMergesValuesThatSanitiseAlike() {
        var aggregates = MetricAggregates(bucket: 3_600_000, groupBy: GroupBy(["title"]))
        aggregates.add(report(title: "a b", groupBy: ["title"]))
        aggregates.add(report(title: "a_b", groupBy: ["title"]))
        let lines = text(MetricsReport(prefix: "avt").graphite(aggregates)).split(separator: "\n")
            .filter { $0.contains(".NumPlays.") }
        #expect(lines.count == 14)
        #expect(lines.contains("avt.openavt.aggregates.unknown.NumPlays.count 2 1763622000"))
        #expect(lines.contains("avt.openavt.aggregates.a_b.NumPlays.count 2 1763622000"))
        #expect(lines.contains("avt.openavt.aggregates.a_b.NumPlays.sum 2.0 1763622000"))
    }
}
