import EventModel
import Foundation
import Marconi
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
        MarkupText.appendEscaped("<b class=\"x\">Tom & Jerry's</b>\u{0}\u{1B}\t\nÉ", into: &bytes)
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
        #expect(allZero.contains(">01-01 00:00</text>"))
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
        #expect(HTMLReport.durationLabel(1_500) == "1.5 s")
        #expect(HTMLReport.durationLabel(5_400_000) == "1 h 30 min")
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
        let page = text(HTMLReport.encode(HTMLReport.Page(summary: summary, worst: worst)))
        #expect(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
        #expect(page.contains("a&amp;b:1:p1"))
        // The one script is the page's own; the one link is to rejects.jsonl beside it; the one
        // url() is the hatching the page defines.
        #expect(page.ranges(of: "<script").count == 1)
        #expect(!page.contains("src=") && !page.contains("http:") && !page.contains("https:"))
        #expect(page.ranges(of: "href=").count == 1 && page.contains("href=\"rejects.jsonl\""))
        #expect(page.ranges(of: "url(").count == page.ranges(of: "url(#partial-hatch)").count)
        #expect(page.ranges(of: "<svg class=\"chart\"").count == 7)
        #expect(page.hasSuffix("</html>\n"))
    }

    @Test func aRunWithoutPlaybacksHasAPageWithEmptyCharts() {
        let page = text(HTMLReport.encode(HTMLReport.Page(summary: KPISummary(bucket: 3_600_000))))
        #expect(page.ranges(of: "no data").count == 7)
        #expect(page.contains("No playback had an error or rebuffer time."))
        #expect(page.contains("data-col=\"rebuffer_pct\">–</span>"))
        #expect(page.contains("No value-proposition session.") && page.contains("No radio item."))
    }

    // MARK: The sections

    private func playback(
        _ id: String, instrument: String = "i", at time: Int64 = 0, started: Bool = true, startup: Int64? = nil,
        errors: Int64 = 0, playTime: Int64 = 0, rebufferTime: Int64 = 0
    ) -> PlaybackSummary {
        var playback = PlaybackSummary(
            instrument: instrument, tracker: 0, playbackID: id, firstTimestamp: Timestamp(milliseconds: time))
        playback.didStart = started
        playback.startup = startup
        playback.errors = errors
        playback.playTime = playTime
        playback.rebufferTime = rebufferTime
        playback.hasContentEvents = true
        return playback
    }

    private func report(_ playbacks: [PlaybackSummary]) -> SessionReport {
        var report = SessionReport(key: SessionKey(system: .openavt, id: "i"), closing: .inputEnd)
        report.playbacks = playbacks
        return report
    }

    /// The text of the element whose `data-col` is `column` (the first such).
    private func number(_ page: String, column: String, after marker: String = "") -> String? {
        let start = marker.isEmpty ? page.startIndex : (page.range(of: marker)?.upperBound ?? page.endIndex)
        guard let attribute = page[start...].range(of: "data-col=\"" + column + "\""),
            let close = page[attribute.upperBound...].firstIndex(of: ">")
        else { return nil }
        return String(page[page.index(after: close)...].prefix { $0 != "<" })
    }

    @Test func theTilesShowTheRatesAsTheCSVWritesThemWithTheirDefinitions() throws {
        // 8 views: 6 plays, one a playback failure; 1 start failure, 1 exit before start; 3 of 2 h watched.
        var playbacks = (0..<5).map { playback("p\($0)", startup: 1000 * Int64($0 + 1), playTime: 1_440_000) }
        playbacks.append(playback("f", startup: 400, errors: 2, playTime: 1_200_000, rebufferTime: 600_000))
        playbacks.append(playback("s", started: false, errors: 1))
        playbacks.append(playback("e", started: false))
        var summary = KPISummary(bucket: 3_600_000)
        summary.add(report(playbacks))
        let page = text(HTMLReport.encode(HTMLReport.Page(summary: summary)))
        #expect(number(page, column: "views") == "8")
        #expect(number(page, column: "plays") == "6")
        #expect(number(page, column: "vsf_pct") == "12.50")
        #expect(number(page, column: "ebvs_pct") == "12.50")
        #expect(number(page, column: "vpf_pct") == "16.67")
        // 600 000 ms of rebuffering in 9 000 000 ms of watch time; 1 rebuffer count is not set.
        #expect(number(page, column: "rebuffer_pct") == "6.67")
        #expect(number(page, column: "rebuffers_per_hour") == "0.00")
        let p50 = try #require(summary.rows.last?.kpis.startupPercentile(50))
        #expect(number(page, column: "startup_ms_p50") == PageFormat.seconds(p50))
        #expect(number(page, column: "avg_bitrate_bps") == "–")
        #expect(number(page, column: "vp_completion_pct") == "–")
        #expect(page.contains("<div title=\"Video start failure: start failures / views × 100."))
        #expect(page.contains("data-csv=\"summary.csv\" data-row=\"all\" data-col=\"vsf_pct\""))
    }

    @Test func theHistogramsCountThePlaysByBin() {
        // Startups of 100 ms, 250 ms (bin 1), 999 ms (bin 2) and 40 s (the last bin); rebuffer
        // ratios of 0, 1 % (bin 3) and 25 % (the last bin).
        let playbacks = [
            playback("a", startup: 100, playTime: 10_000),
            playback("b", startup: 250, playTime: 9_900, rebufferTime: 100),
            playback("c", startup: 999, playTime: 7_500, rebufferTime: 2_500), playback("d", startup: 40_000),
        ]
        var summary = KPISummary(bucket: 3_600_000)
        summary.add(report(playbacks))
        let page = text(HTMLReport.encode(HTMLReport.Page(summary: summary)))
        func bin(_ name: String, _ index: Int) -> String? {
            guard let range = page.range(of: "data-bin=\"\(name):\(index)\">") else { return nil }
            return String(page[range.upperBound...].prefix { $0 != "<" })
        }
        #expect((0...8).map { bin("startup", $0) } == ["1", "1", "1", "0", "0", "0", "0", "0", "1"])
        #expect((0...7).map { bin("rebuffer", $0) } == ["1", "0", "0", "1", "0", "0", "0", "1"])
        #expect(bin("startup", 9) == nil)
        #expect(page.contains(">&lt;0.25</text>") && page.contains(">≥32</text>") && page.contains(">0.01</text>"))
    }

    @Test func aDayOfFiveMinuteBucketsHasFourLabelsSixHoursApart() throws {
        let starts = (0..<288).map { 1_763_596_800_000 + Int64($0) * 300_000 }
        let chart = SVGChart(
            title: "T", bucketStarts: starts, bucketLength: 300_000,
            series: [.init(name: "s", colour: "#123456", values: starts.map { _ in 1 })])
        let drawn = svg(chart)
        let labels = drawn.split(separator: "\n").filter { $0.contains("class=\"time\"") }
        #expect(
            labels.map { $0.split(separator: ">")[1].prefix { $0 != "<" } } == [
                "11-20 00:00", "06:00", "12:00", "18:00",
            ])
        let xs = try labels.map { line in
            try #require(Double(line.split(separator: "x=\"")[1].prefix { $0 != "\"" }))
        }
        #expect(zip(xs, xs.dropFirst()).allSatisfy { $1 - $0 >= SVGChart.labelSpacing })
    }

    @Test(arguments: [
        // Labels every 1, 12, 5, 6 and 37 buckets at least; 7-minute buckets have no round step near.
        (60_000 as Int64, 3, 60_000 as Int64), (60_000, 60, 900_000), (3_600_000, 24, 21_600_000),
        (86_400_000, 30, 604_800_000), (420_000, 200, 15_540_000), (3_600_000, 2, 3_600_000),
    ])
    func theLabelStepIsRoundAndLeavesRoomForTheLabels(bucket: Int64, buckets: Int, step: Int64) {
        let chart = SVGChart(title: "T", bucketStarts: [0], bucketLength: bucket, series: [])
        #expect(chart.labelStep(slotWidth: 436 / Double(buckets)) == step)
    }

    @Test func seriesSpanningMoreThanTwoDecadesGetALogarithmicAxis() {
        let wide = svg(chart([1, 1000, nil, 0]))
        #expect(wide.contains(">log scale</text>"))
        // From the power of ten below the smallest value to the one at or above the largest.
        let ticks = wide.split(separator: "\n").filter { $0.contains("class=\"tick\"") }
        #expect(ticks.map { $0.split(separator: ">").last?.prefix { $0 != "<" } } == ["0.1", "1", "10", "100", "1000"])
        // 1 a quarter of the way up, 1000 at the top; the zero is not drawn.
        #expect(shapes(wide).count == 2)
        #expect(shapes(wide)[0].contains("y=\"183.50\"") && shapes(wide)[1].contains("y=\"56.00\""))
        #expect(!svg(chart([1, 100, 50])).contains("log scale"))
    }

    @Test func partialBucketsAreHatchedWithANoteInTheLegend() {
        var partial = chart([1, 2, 3])
        partial.partialFrom = 2
        let drawn = svg(partial)
        #expect(drawn.contains("<rect class=\"partial\" x=\"354.67\" y=\"56\" width=\"145.33\""))
        #expect(drawn.contains(">partial bucket</text>"))
        #expect(!svg(chart([1, 2, 3])).contains("partial"))
        // On the page: the rows summary.csv marks partial.
        var summary = KPISummary(bucket: 3_600_000)
        summary.add(
            report([
                playback("a", at: 0, startup: 500, playTime: 1000),
                playback("b", at: 3_600_000, startup: 700, playTime: 1000),
            ]))
        summary.openFrom = Timestamp(milliseconds: 3_700_000)
        let page = text(HTMLReport.encode(HTMLReport.Page(summary: summary)))
        #expect(page.ranges(of: "<rect class=\"partial\"").count == 5)
        #expect(page.contains("<pattern id=\"partial-hatch\""))
    }

    @Test func eachGroupByKeyHasATableWorstFirst() throws {
        var breakdown = KPISummary(bucket: 3_600_000, groupBy: GroupBy(["instrument"]))
        breakdown.add(
            report([
                // a: 1 of 2 plays failed (VPF 50 %); b: 1 of 3 (33 %), c and d: none, c with a start failure.
                playback("a1", instrument: "a", errors: 1), playback("a2", instrument: "a"),
                playback("b1", instrument: "b", errors: 1), playback("b2", instrument: "b"),
                playback("b3", instrument: "b"), playback("c1", instrument: "c", started: false, errors: 1),
                playback("c2", instrument: "c"), playback("d1", instrument: "d"), playback("d2", instrument: "d"),
                playback("e1", instrument: "e"), playback("", instrument: "", started: false),
            ]))
        let page = text(
            HTMLReport.encode(
                HTMLReport.Page(
                    summary: KPISummary(bucket: 3_600_000), breakdowns: [breakdown], breakdownMinimumViews: 1)))
        let table = try #require(page.split(separator: "<h3>By instrument</h3>").last)
        let values = table.split(separator: "<tr><td class=\"text\">").dropFirst().map { $0.prefix { $0 != "<" } }
        // c: VPF 0 %, VSF 50 %; d before e by views; the empty instrument has no play: VPF undefined, last.
        #expect(values == ["a", "b", "c", "d", "e", ""])
        #expect(table.contains("<span class=\"none\">(none)</span>"))
        #expect(
            table.contains(
                "data-key=\"instrument\" data-value=\"b\" data-col=\"vpf_pct\" data-sort=\"33.333333333333336\">33.33</td>"
            ))
        #expect(!table.contains("<tfoot>"))
        #expect(table.contains("<table class=\"sortable\">"))
        #expect(!text(HTMLReport.encode(HTMLReport.Page(summary: KPISummary(bucket: 3_600_000)))).contains("<h3>By"))
    }

    @Test func valuePropositionsAndRadioStationsHaveTheirTables() throws {
        var sessions = SessionReport(key: SessionKey(system: .vp, id: "a"), closing: .inputEnd)
        sessions.vpSessions = ["watch", "watch", "buy"].enumerated().map { index, name in
            var session = VPSessionSummary(
                app: "a", name: name, sessionID: String(index), attributes: [:], openedTimestamp: 0)
            session.outcome = index == 0 ? .completed : .canceled
            session.firstStartedTimestamp = index < 2 ? Timestamp(milliseconds: 1000 + Int64(index) * 501) : nil
            return session
        }
        sessions.marconiItems = ([(3_000_000, 1000), (600_000, 0)] as [(Int64, Int64)]).map { playing, buffering in
            var item = MarconiItemSummary(player: "p", meta: ["station": "WXYZ & co"], firstTimestamp: 0)
            item.playingTime = playing
            item.bufferingTime = buffering
            item.errors = 1
            return item
        }
        var byName = VPSessionsByName()
        byName.add(sessions)
        var byStation = MarconiItemsByStation()
        byStation.add(sessions)
        let page = text(
            HTMLReport.encode(
                HTMLReport.Page(summary: KPISummary(bucket: 3_600_000), valuePropositions: byName, stations: byStation))
        )
        let vp = try #require(page.split(separator: "<section id=\"value-propositions\">").last)
        #expect(number(String(vp), column: "count") == "2")
        #expect(number(String(vp), column: "pct:outcome=completed") == "50.00")
        // (1000 + 1501) / 2 ms: 1.2505 s.
        #expect(number(String(vp), column: "mean-seconds:time_to_start_ms") == "1.25")
        #expect(vp.contains("data-value=\"watch\"") && vp.contains("<td class=\"text\">buy</td>"))
        let radio = try #require(page.split(separator: "<section id=\"radio\">").last)
        #expect(radio.contains("<td class=\"text\">WXYZ &amp; co</td>"))
        #expect(number(String(radio), column: "count") == "2")
        #expect(number(String(radio), column: "duration:playing_ms") == "1 h")
        #expect(number(String(radio), column: "pct:buffering_ms/buffering_ms+playing_ms") == "0.03")
        #expect(number(String(radio), column: "sum:errors") == "2")
    }

    @Test func theProvenanceNamesTheInputsOptionsAndRejects() throws {
        let provenance = HTMLReport.Provenance(
            tool: "custom-replay", version: "0.9.0",
            inputs: [
                .init(name: "a<1>.jsonl.gz", size: 2132, lines: 137, rejected: 2, late: 1),
                .init(name: "<stdin>", size: nil, lines: 5, rejected: 0, late: 0),
            ], options: ["bucket=3600000", "group-by=title", "idle-gap=43200000"], rejectedLines: 2, lateRecords: 1,
            lateRejected: 1)
        let page = text(
            HTMLReport.encode(HTMLReport.Page(summary: KPISummary(bucket: 3_600_000), provenance: provenance)))
        let foot = try #require(page.split(separator: "<footer id=\"provenance\">").last)
        #expect(foot.contains("Written by custom-replay 0.9.0 from 2 inputs"))
        #expect(
            foot.contains(
                "<tr><td class=\"text\">a&lt;1&gt;.jsonl.gz</td><td>2,132</td><td>137</td><td>2</td><td>1</td></tr>"))
        #expect(foot.contains("<tr><td class=\"text\">&lt;stdin&gt;</td><td>–</td><td>5</td>"))
        #expect(
            foot.contains("Rejected lines: 2; records later than <code>--max-lateness</code>: 1, of which rejected: 1.")
        )
        #expect(foot.contains("<a href=\"rejects.jsonl\">rejects.jsonl</a>"))
        // As a command line gives them, not in milliseconds.
        #expect(foot.contains("<code>bucket=1h</code> <code>group-by=title</code> <code>idle-gap=12h</code>"))
    }
    @Test func valuesUnderTheFloorOfViewsAreAddedUpInTheLastRow() throws {
        var breakdown = KPISummary(bucket: 3_600_000, groupBy: GroupBy(["instrument"]))
        // a: 3 views, none failed; b: 1 view that failed (VPF 100 %); c and d: 1 view each.
        breakdown.add(
            report([
                playback("a1", instrument: "a"), playback("a2", instrument: "a"), playback("a3", instrument: "a"),
                playback("b1", instrument: "b", errors: 1), playback("c1", instrument: "c", started: false, errors: 1),
                playback("d1", instrument: "d", playTime: 1000),
            ]))
        let page = text(
            HTMLReport.encode(
                HTMLReport.Page(
                    summary: KPISummary(bucket: 3_600_000), breakdowns: [breakdown], breakdownMinimumViews: 2)))
        let table = try #require(page.split(separator: "<h3>By instrument</h3>").last)
        let body = try #require(table.split(separator: "<tfoot>").first)
        let values = body.split(separator: "<tr><td class=\"text\">").dropFirst().map { $0.prefix { $0 != "<" } }
        // b, at 100 % failure with one view, is not first: it is under the floor.
        #expect(values == ["a"])
        #expect(
            table.contains("<tfoot><tr class=\"rest\"><td class=\"text\">other (3 values, each under 2 views)</td>"))
        let rest = try #require(table.split(separator: "<tfoot>").last)
        #expect(rest.contains("data-key=\"instrument\" data-rest=\"\" data-col=\"views\" data-sort=\"3\">3</td>"))
        // Of the 3 views, 2 plays (b1, d1), one of which failed; c1 a start failure.
        #expect(number(String(rest), column: "vpf_pct") == "50.00")
        #expect(number(String(rest), column: "vsf_pct") == "33.33")
        #expect(page.contains("worst first among the values with at least 2 views"))
        // Everything over the floor: no foot.
        let none = text(
            HTMLReport.encode(
                HTMLReport.Page(
                    summary: KPISummary(bucket: 3_600_000), breakdowns: [breakdown], breakdownMinimumViews: 1)))
        #expect(!none.contains("<tfoot>"))
    }

    @Test func thePercentilesOfStartupAreEachVisibleBesideTheOthers() {
        // p50 of 0.5 s beside a p99 of 40 s: drawn linearly, its bar would be 2 units high.
        let series: [SVGChart.Series] = [
            .init(name: "p50", colour: "#123456", values: [0.5, 0.6]),
            .init(name: "p99", colour: "#654321", values: [40, 41]),
        ]
        let drawn = svg(SVGChart(title: "T", bucketStarts: [0, 60_000], bucketLength: 60_000, series: series))
        #expect(drawn.contains(">log scale</text>"))
        // From a decade below 0.1 (0.5's own power of ten): the p50 bar is over a quarter of the plot.
        let ticks = drawn.split(separator: "\n").filter { $0.contains("class=\"tick\"") }
        #expect(ticks.first?.hasSuffix(">0.01</text>") == true)
        let bars = shapes(drawn)
        #expect(bars.count == 2)
        let heights = bars.compactMap { bar in Double(bar.split(separator: "height=\"")[1].prefix { $0 != "\"" }) }
        #expect(heights.allSatisfy { $0 > 170 / 4 })
        // Series of the same size keep a linear axis.
        #expect(!svg(chart([1, 2, 3])).contains("log scale"))
        // Lines: each series wider than the next, so that where they meet the first still shows.
        let starts = (0..<60).map { Int64($0) * 60_000 }
        let lines = svg(
            SVGChart(
                title: "T", bucketStarts: starts, bucketLength: 60_000,
                series: [
                    .init(name: "p50", colour: "#123456", values: starts.map { _ in 1 }),
                    .init(name: "p99", colour: "#654321", values: starts.map { _ in 1 }),
                ]))
        #expect(lines.contains("<polyline fill=\"none\" stroke-width=\"3.50\" stroke=\"#123456\""))
        #expect(lines.contains("<polyline fill=\"none\" stroke-width=\"2.00\" stroke=\"#654321\""))
    }

    @Test func thePageWritesNumbersForPeople() throws {
        // 1,234 views; an average bitrate of 3,552,358.11 bit/s; startups of 40,959 ms.
        var playbacks = (0..<1234).map { playback("p\($0)", startup: 40_959, playTime: 3_600_000) }
        playbacks[0].bitrateTime = 100
        playbacks[0].bitMilliseconds = 355_235_811
        var summary = KPISummary(bucket: 3_600_000)
        summary.add(report(playbacks))
        let page = text(HTMLReport.encode(HTMLReport.Page(summary: summary)))
        #expect(number(page, column: "views") == "1,234")
        #expect(number(page, column: "startup_ms_p95")?.hasSuffix(" ") == false)
        let p95 = try #require(number(page, column: "startup_ms_p95"))
        #expect(p95.hasPrefix("40.") || p95.hasPrefix("41."))
        #expect(page.contains("data-col=\"startup_ms_p95\">\(p95)</span><span class=\"unit\"> s</span>"))
        #expect(page.contains("data-bin=\"startup:8\">1,234</text>"))
        #expect(number(page, column: "avg_bitrate_bps") == "3.55 Mbit/s")
    }
}
