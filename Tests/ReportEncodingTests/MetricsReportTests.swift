import EventModel
import OpenAVT
import Replay
import ReportEncoding
import Testing

@Suite("metrics.influx and metrics.graphite")
struct MetricsReportTests {
    private func point(
        _ source: String, _ name: String, _ value: Metric.Value, at milliseconds: Int64, path: [String]? = nil,
        tags: [MetricTag]? = nil
    ) -> MetricPoint {
        MetricPoint(
            system: .openavt, source: source, tags: tags ?? [MetricTag("instrument", source)], path: path ?? [source],
            metric: Metric(name: name, kind: .gauge, value: value, timestamp: Timestamp(milliseconds: milliseconds)))
    }

    @Test func graphiteSumsEachSecondAndPathAndOrdersBySecondThenPathNodes() {
        let points = [
            point("b", "PlayTime", .int(5), at: 2_100),
            point("a-b", "PlayTime", .int(1), at: 1_000),
            point("a", "PlayTime", .int(2), at: 1_500),
            point("b", "PlayTime", .int(5), at: 2_900),
            point("a", "PlayTime", .double(0.5), at: 1_999),
            point("a", "NumPlays", .int(1), at: 1_000),
            point("b", "PlayTime", .int(1), at: 1_000),
        ]
        // Node by node, "a" comes before "a-b" (a prefix), although "a-b.x" < "a.x" in bytes.
        #expect(
            text(MetricsReport(prefix: "avt").graphite(points)) == """
                avt.openavt.a.NumPlays 1 1
                avt.openavt.a.PlayTime 2.5 1
                avt.openavt.a-b.PlayTime 1 1
                avt.openavt.b.PlayTime 1 1
                avt.openavt.b.PlayTime 10 2

                """)
    }

    @Test func withIdsAsFieldsEveryPointOfASeriesHasATimeOfItsOwn() {
        let report = MetricsReport(prefix: "", idsAsFields: true)
        let tagged: (String) -> [MetricTag] = { [MetricTag("instrument", $0), MetricTag("tracker", "0")] }
        // Two devices in one millisecond, and one device's points in that millisecond handed
        // over in two batches.
        let batches = [
            [
                point("a", "NumPlays", .int(1), at: 1_000, tags: tagged("a")),
                point("b", "NumPlays", .int(1), at: 1_000, tags: tagged("b")),
            ],
            [point("a", "PlayTime", .int(7), at: 1_000, tags: tagged("a"))],
        ]
        var encoder = InfluxLineEncoder()
        var times = InfluxPointTimes()
        var lines: [String] = []
        for batch in batches {
            var writer = ByteWriter()
            report.appendInflux(batch, with: &encoder, times: &times, into: &writer)
            lines += text(writer.finish()).split(separator: "\n").map(String.init)
        }
        // One series (the tracker), the device a field; FNV-1a 64 of "a" and of "b" modulo 10⁶
        // are 641,996 and 526,629: the second point of "a" in that millisecond takes the next
        // nanosecond.
        #expect(
            lines == [
                #"openavt,tracker=0 NumPlays=1i,instrument="a" 1000641996"#,
                #"openavt,tracker=0 NumPlays=1i,instrument="b" 1000526629"#,
                #"openavt,tracker=0 PlayTime=7i,instrument="a" 1000641997"#,
            ])
    }

    @Test func influxKeysEscapedOnceAreWrittenTheSameInLaterBatches() {
        let report = MetricsReport(prefix: "")
        // Keys that need escaping, one spelt twice in strings made apart.
        let key = "Play Time=total,ms"
        let apart = String(decoding: Array(key.utf8), as: UTF8.self)
        let batches = [
            [point("a", key, .int(1), at: 1_000), point("a", "NumPlays", .int(1), at: 1_000)],
            [point("a", apart, .int(2), at: 2_000), point("a", "NumPlays", .int(2), at: 2_000)],
        ]
        var encoder = InfluxLineEncoder()
        var kept: [String] = []
        for batch in batches {
            var writer = ByteWriter()
            report.appendInflux(batch, with: &encoder, into: &writer)
            kept.append(text(writer.finish()))
        }
        #expect(kept == batches.map { text(report.influx($0)) })
        #expect(
            kept[1] == #"""
                openavt,instrument=a Play\ Time\=total\,ms=2i 2000000000
                openavt,instrument=a NumPlays=2i 2000000001

                """#)
    }

    @Test func graphiteSumsPointsWhoseNamesWereMadeApart() {
        // Longer than a small string: each `String` made from the bytes has storage of its own.
        let name = "RebufferTimeTotal"
        let apart = String(decoding: Array(name.utf8), as: UTF8.self)
        let points = [
            point("a", name, .int(1), at: 1_000), point("a", "NumPlays", .int(1), at: 1_100),
            point("a", apart, .int(2), at: 1_200),
        ]
        #expect(
            text(MetricsReport(prefix: "").graphite(points)) == """
                openavt.a.NumPlays 1 1
                openavt.a.RebufferTimeTotal 3 1

                """)
    }

    @Test func graphiteOrdersPathsOfDifferentLengthsNodeByNode() {
        let points = [
            point("s", "Z", .int(1), at: 1_000, path: ["x"]),
            point("s", "Y", .int(2), at: 1_000, path: ["x"]),
            point("t", "A", .int(3), at: 1_000, path: ["x", "Y"]),
            point("t", "N", .int(4), at: 1_000, path: ["x", "M"]),
            point("u", "B", .int(5), at: 1_000, path: ["w", "x"]),
        ]
        // A source's name node sorts with the other sources' path nodes at the same depth,
        // and a path that is a prefix of another comes first.
        #expect(
            text(MetricsReport(prefix: "").graphite(points)) == """
                openavt.w.x.B 5 1
                openavt.x.M.N 4 1
                openavt.x.Y 2 1
                openavt.x.Y.A 3 1
                openavt.x.Z 1 1

                """)
    }

    @Test func influxEscapesEachSeriesOnceAndNumbersPointsInAMillisecond() {
        let tags = [MetricTag("tracker", "0"), MetricTag("instrument", "ios 1")]
        let points = [
            point("ios 1", "NumPlays", .int(1), at: 1_000, tags: tags),
            point("ios 1", "StartTime", .int(900), at: 1_000, tags: tags),
            point("ios 1", "PlayTime", .int(10), at: 1_001, tags: [MetricTag("instrument", "ios,2")]),
            point("ios 1", "Bad", .double(.nan), at: 1_002, tags: tags),
        ]
        #expect(
            text(MetricsReport(prefix: "").influx(points)) == """
                openavt,instrument=ios\\ 1,tracker=0 NumPlays=1i 1000000000
                openavt,instrument=ios\\ 1,tracker=0 StartTime=900i 1000000001
                openavt,instrument=ios\\,2 PlayTime=10i 1001000000

                """)
    }

    @Test func pointsOfOneOriginWriteAsPointsWithOriginsOfTheirOwn() {
        let playback = MetricOrigin(
            system: .openavt, source: "i", tags: [MetricTag("instrument", "i")], path: ["i"],
            stringFields: [MetricTag("playback_id", "p1")])
        let other = MetricOrigin(system: .openavt, source: "i", tags: [MetricTag("instrument", "i")], path: ["i"])
        let metrics = [
            Metric(name: "NumPlays", kind: .counter, value: .int(1), timestamp: Timestamp(milliseconds: 1_000)),
            Metric(name: "StartTime", kind: .gauge, value: .int(900), timestamp: Timestamp(milliseconds: 1_000)),
            Metric(name: "PlayTime", kind: .gauge, value: .int(10), timestamp: Timestamp(milliseconds: 1_200)),
        ]
        let shared =
            metrics.map { MetricPoint($0, from: playback) } + [MetricPoint(metrics[2], from: other)]
            + metrics.map { MetricPoint($0, from: playback) }
        let ownOrigins = shared.map { point in
            MetricPoint(
                system: point.system, source: point.source, tags: point.tags, path: point.path,
                stringFields: point.stringFields, metric: point.metric)
        }
        let report = MetricsReport(prefix: "avt")
        #expect(report.influx(shared) == report.influx(ownOrigins))
        #expect(report.graphite(shared) == report.graphite(ownOrigins))
        // The points of one source in one millisecond are numbered across origins.
        #expect(
            text(report.influx(Array(shared[2...4]))) == """
                avt_openavt,instrument=i PlayTime=10i,playback_id="p1" 1200000000
                avt_openavt,instrument=i PlayTime=10i 1200000001
                avt_openavt,instrument=i NumPlays=1i,playback_id="p1" 1000000000

                """)
    }
}
