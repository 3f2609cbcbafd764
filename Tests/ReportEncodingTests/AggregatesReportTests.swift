import EventModel
import OpenAVT
import Replay
import ReportEncoding
import Testing

@Suite("aggregates.csv")
struct AggregatesReportTests {
    @Test func rowsHaveTheBucketInRFC3339AndTwoDecimals() {
        var report = SessionReport(key: SessionKey(system: .vp, id: "app"), closing: .inputEnd)
        report.points = [1.5, 2.25].map { value in
            MetricPoint(
                system: .vp, source: "app", tags: [], path: [],
                metric: Metric(
                    name: "Duration", kind: .gauge, value: .double(value),
                    timestamp: Timestamp(milliseconds: 1_763_622_902_125)))
        }
        var aggregates = MetricAggregates(bucket: 3_600_000)
        aggregates.add(report)
        #expect(
            text(AggregatesReport.encode(aggregates))
                == "bucket,system,metric,count,sum,min,max,sum_squares,mean,stddev,partial\n"
                + "2025-11-20T07:00:00Z,vp,Duration,2,3.75,1.50,2.25,7.31,1.88,0.38,false\n")
        // A bucket that ends after the open boundary is partial, and carried; one before is not.
        aggregates.openFrom = Timestamp(milliseconds: 1_763_625_599_999)
        #expect(text(AggregatesReport.encode(aggregates)).hasSuffix(",0.38,true\n"))
        #expect(aggregates.carried?.rows.count == 1)
        aggregates.openFrom = Timestamp(milliseconds: 1_763_625_600_000)
        #expect(text(AggregatesReport.encode(aggregates)).hasSuffix(",0.38,false\n"))
        #expect(aggregates.carried == nil)
    }
}
