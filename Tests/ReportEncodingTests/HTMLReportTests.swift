import EventModel
import Replay
import Testing

@testable import ReportEncoding

/// report.html's builder: escaping, the y axis, the shapes of the charts, and empty data.
struct HTMLReportTests {
    private func svg(_ chart: SVGChart) -> String {
        var html = HTMLWriter()
        chart.append(to: &html)
        return text(html.bytes)
    }

    private func chart(_ values: [Double?], starts: [Int64]? = nil, isCount: Bool = false) -> SVGChart {
        SVGChart(
            title: "T", bucketStarts: starts ?? values.indices.map { Int64($0) * 60_000 }, bucketLength: 60_000,
            series: [.init(name: "s", colour: "#123456", values: values)], isCount: isCount)
    }

    /// The shapes drawn in the series' colour, the legend's swatch left out.
    private func shapes(_ svg: String) -> [Substring] {
        svg.split(separator: "\n").filter { $0.contains("#123456") && !$0.contains("class=\"swatch\"") }
    }

    @Test func textFromTheLogsIsEscaped() {
        var bytes: [UInt8] = []
        HTMLWriter.appendEscaped("<b class=\"x\">Tom & Jerry's</b>\u{0}\u{1B}\t\nÉ", into: &bytes)
        #expect(text(bytes) == "&lt;b class=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/b&gt;\u{FFFD}\u{FFFD}\t\nÉ")
    }

    @Test(arguments: [
        (121.0, false, ["0", "50", "100", "150"]),
        (0.33, false, ["0.0", "0.1", "0.2", "0.3", "0.4"]),
        (7.0, true, ["0", "2", "4", "6", "8"]),
        (1.0, true, ["0", "1", "2"]),
        (0.00003, false, ["0.00000", "0.00001", "0.00002", "0.00003"]),
        (0.0, false, ["0.0", "0.5", "1.0"]),
        (0.0, true, ["0", "1", "2"]),
        (Double.nan, false, ["0.0", "0.5", "1.0"]),
        (-5.0, true, ["0", "1", "2"]),
        (1e300, false, ["0", "500000000000000", "1000000000000000"]),
    ])
    func theAxisGoesFromZeroToARoundValueAboveTheLargest(maximum: Double, isCount: Bool, labels: [String]) {
        let axis = SVGChart.Axis(maximum: maximum, isCount: isCount)
        #expect(axis.ticks.map(\.label) == labels)
        #expect(axis.ticks.last?.value == axis.top)
        #expect(axis.top >= (maximum.isFinite ? min(maximum, 1e15) : 0))
    }

    @Test func barsAreScaledToTheAxis() {
        // One bucket: the slot is the plot's 436 units, the bar 80% of it; the axis tops at 100.
        let shapes = shapes(svg(chart([100])))
        #expect(shapes == [##"<rect x="107.60" y="56.00" width="348.80" height="170.00" fill="#123456"/>"##])
        let half = self.shapes(svg(chart([100, 50])))
        #expect(half.last == ##"<rect x="303.80" y="141.00" width="174.40" height="85.00" fill="#123456"/>"##)
    }

    @Test func absentNonFiniteAndZeroValuesDrawNothing() {
        #expect(shapes(svg(chart([nil, .nan, 10, .infinity, 0, -3]))).count == 1)
        let allZero = svg(chart([0, 0, 0], isCount: true))
        #expect(shapes(allZero).isEmpty)
        #expect(!allZero.contains("no data"))
        #expect(allZero.contains(">1970-01-01 00:00</text>"))
    }

    @Test func aChartWithoutValuesSaysSo() {
        // Values beyond the buckets are not drawn either.
        for empty in [chart([]), chart([nil, nil]), chart([.nan]), chart([1, 2], starts: [])] {
            let drawn = svg(empty)
            #expect(drawn.contains("no data"))
            #expect(shapes(drawn).isEmpty)
            #expect(drawn.hasSuffix("</svg>\n"))
        }
    }

    @Test func manyBucketsAreLinesBrokenAtGapsWithLonePointsAsDots() {
        // 60 slots: lines. Slots 0-9, then 20 alone, then 50-59.
        let starts = (Array(0..<10) + [20] + Array(50..<60)).map { Int64($0) * 60_000 }
        let shapes = shapes(svg(chart(starts.map { _ in 1 }, starts: starts)))
        #expect(shapes.count == 3)
        #expect(shapes[0].hasPrefix("<polyline") && shapes[0].split(separator: ",").count == 11)
        #expect(shapes[1].hasPrefix("<circle"))
        #expect(shapes[2].hasPrefix("<polyline"))
    }

    @Test func timeLabelsAreUTCMinutesOrDays() {
        #expect(SVGChart.timeLabel(1_763_622_000_000, bucketLength: 3_600_000) == "2025-11-20 07:00")
        #expect(SVGChart.timeLabel(1_763_596_800_000, bucketLength: 86_400_000) == "2025-11-20")
        #expect(HTMLReport.durationLabel(900_000) == "15 min")
        #expect(HTMLReport.durationLabel(86_400_000) == "1 d")
        #expect(HTMLReport.durationLabel(1_500) == "1500 ms")
    }

    @Test func thePageEscapesTitlesAndIdsAndNeedsNothingFromOutside() {
        var playback = PlaybackSummary(
            instrument: "<i>", tracker: 0, playbackID: "a&b:1:p1", firstTimestamp: Timestamp(milliseconds: 0))
        playback.title = "<script>alert('x')</script>"
        playback.errors = 1
        var report = SessionReport(key: SessionKey(system: .openavt, id: "<i>"), closing: .inputEnd)
        report.playbacks = [playback]
        var summary = KPISummary(bucket: 3_600_000)
        summary.add(report)
        var worst = WorstPlaybacks()
        worst.add(report)
        let page = text(HTMLReport.encode(summary, worst: worst))
        #expect(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
        #expect(page.contains("a&amp;b:1:p1"))
        #expect(!page.contains("<script"))
        #expect(!page.contains("src=") && !page.contains("href=") && !page.contains("url("))
        #expect(page.ranges(of: "<svg class=\"chart\"").count == 4)
        #expect(page.hasSuffix("</html>\n"))
    }

    @Test func aRunWithoutPlaybacksHasAPageWithEmptyCharts() {
        let page = text(HTMLReport.encode(KPISummary(bucket: 3_600_000), worst: WorstPlaybacks()))
        #expect(page.ranges(of: "no data").count == 4)
        #expect(page.contains("No playback had an error or rebuffer time."))
        #expect(page.contains("<dt>Rebuffer</dt><dd>–</dd>"))
    }
}
