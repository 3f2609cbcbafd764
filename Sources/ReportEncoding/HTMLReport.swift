import EventModel
import Replay

/// `report.html`: one self-contained page (no script, no request) with the run's totals, charts
/// of the KPIs per bucket drawn as inline SVG, and the worst playbacks.
///
/// Everything comes from ``KPISummary`` (the rows of `summary.csv`) and ``WorstPlaybacks``;
/// text from the logs is escaped, and numbers are formatted without locale, so the same input
/// gives the same bytes.
public enum HTMLReport {
    /// The charts' series colours (Tableau 10), one per series of the page, so that a rendering
    /// shows each series by its colour.
    enum Colour {
        static let startupP50 = "#4e79a7"
        static let startupP90 = "#f28e2b"
        static let startupP95 = "#e15759"
        static let startupP99 = "#76b7b2"
        static let rebufferPercentage = "#59a14f"
        static let views = "#edc948"
        static let plays = "#b07aa1"
        static let startFailures = "#ff9da7"
        static let playbackFailures = "#9c755f"
    }

    /// The whole page.
    public static func encode(_ summary: KPISummary, worst: WorstPlaybacks) -> [UInt8] {
        let rows = summary.rows
        let buckets = rows.compactMap { row in row.bucket.map { ($0.milliseconds, row.kpis) } }
        let total = rows.last?.kpis ?? KPIs()
        var html = HTMLWriter()
        html.markup(head)
        appendHeader(
            total: total, peak: rows.last?.peakConcurrent ?? 0, bucketStarts: buckets.map(\.0),
            bucketLength: summary.bucket, partialFrom: rows.first(where: \.isPartial)?.bucket?.milliseconds,
            to: &html)
        html.markup("<main class=\"charts\">\n")
        for chart in charts(buckets, bucketLength: summary.bucket) {
            chart.append(to: &html)
        }
        html.markup("</main>\n")
        appendWorst(worst, to: &html)
        html.markup("</body>\n</html>\n")
        return html.bytes
    }

    /// The four charts: startup percentiles, rebuffer percentage, views and plays, failures.
    static func charts(_ buckets: [(start: Int64, kpis: KPIs)], bucketLength: Int64) -> [SVGChart] {
        let starts = buckets.map(\.start)
        func seconds(_ percentile: Double) -> [Double?] {
            buckets.map { bucket in bucket.kpis.startupPercentile(percentile).map { Double($0) / 1000 } }
        }
        func counts(_ value: (KPIs) -> Int64) -> [Double?] { buckets.map { Double(value($0.kpis)) } }
        let rebuffer = buckets.map { bucket in
            bucket.kpis.watchTime > 0 ? 100 * Double(bucket.kpis.rebufferTime) / Double(bucket.kpis.watchTime) : nil
        }
        return [
            SVGChart(
                title: "Startup time percentiles (s)", bucketStarts: starts, bucketLength: bucketLength,
                series: [
                    .init(name: "p50", colour: Colour.startupP50, values: seconds(50)),
                    .init(name: "p90", colour: Colour.startupP90, values: seconds(90)),
                    .init(name: "p95", colour: Colour.startupP95, values: seconds(95)),
                    .init(name: "p99", colour: Colour.startupP99, values: seconds(99)),
                ], plotBackground: "#fafbfd"),
            SVGChart(
                title: "Rebuffer percentage (%)", bucketStarts: starts, bucketLength: bucketLength,
                series: [.init(name: "rebuffer %", colour: Colour.rebufferPercentage, values: rebuffer)],
                plotBackground: "#fbfafd"),
            SVGChart(
                title: "Views and plays", bucketStarts: starts, bucketLength: bucketLength,
                series: [
                    .init(name: "views", colour: Colour.views, values: counts(\.views)),
                    .init(name: "plays", colour: Colour.plays, values: counts(\.plays)),
                ], isCount: true, plotBackground: "#fdfbfa"),
            SVGChart(
                title: "Failures", bucketStarts: starts, bucketLength: bucketLength,
                series: [
                    .init(name: "start failures", colour: Colour.startFailures, values: counts(\.startFailures)),
                    .init(
                        name: "playback failures", colour: Colour.playbackFailures, values: counts(\.playbackFailures)),
                ], isCount: true, plotBackground: "#fafdfb"),
        ]
    }

    private static let head = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>avt-replay report</title>
        <style>
        body { font-family: "DejaVu Sans", Verdana, sans-serif; color: #222; background: #fff; margin: 24px auto; \
        max-width: 1160px; padding: 0 16px; }
        h1 { font-size: 22px; margin: 0 0 4px; }
        h2 { font-size: 17px; margin: 24px 0 4px; }
        p { margin: 4px 0; color: #555; font-size: 13px; }
        .totals { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; padding: 0; }
        .totals div { border: 1px solid #e3e3e8; border-radius: 4px; padding: 6px 10px; min-width: 120px; }
        .totals dt { font-size: 11px; color: #666; }
        .totals dd { margin: 0; font-size: 17px; font-weight: bold; }
        .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(480px, 1fr)); gap: 16px; }
        .chart { width: 100%; height: auto; }
        .chart .title { font-size: 15px; font-weight: bold; fill: #222; }
        .chart .legend { font-size: 12px; fill: #444; }
        .chart .tick { font-size: 11px; fill: #666; text-anchor: end; }
        .chart .time { font-size: 11px; fill: #666; text-anchor: middle; }
        .chart .empty { font-size: 13px; fill: #999; text-anchor: middle; }
        .chart .grid { stroke: #e3e3e8; stroke-width: 1; }
        table { border-collapse: collapse; font-size: 12px; width: 100%; margin-top: 8px; }
        th, td { border-bottom: 1px solid #e3e3e8; padding: 4px 6px; text-align: right; }
        th { background: #f3f3f6; white-space: nowrap; }
        td.text, th.text { text-align: left; overflow-wrap: anywhere; }
        td.when { text-align: left; white-space: nowrap; }
        </style>
        </head>
        <body>

        """

    private static func appendHeader(
        total: KPIs, peak: Int64, bucketStarts: [Int64], bucketLength: Int64, partialFrom: Int64?,
        to html: inout HTMLWriter
    ) {
        html.markup("<header>\n<h1>avt-replay report</h1>\n<p>")
        if let first = bucketStarts.first, let last = bucketStarts.last {
            html.text(SVGChart.timeLabel(first, bucketLength: bucketLength))
            html.markup(" to ")
            let (end, overflow) = last.addingReportingOverflow(bucketLength)
            html.text(SVGChart.timeLabel(overflow ? last : end, bucketLength: bucketLength))
            html.markup(" UTC, in buckets of ")
            html.text(durationLabel(bucketLength))
            html.markup(" (a playback in the bucket of its first record)")
            if let partialFrom {
                html.markup("</p>\n<p class=\"partial\">Partial: the buckets from ")
                html.text(SVGChart.timeLabel(partialFrom, bucketLength: bucketLength))
                html.markup(" UTC on are still open (lives kept for the next run, which writes them whole)")
            }
        } else {
            html.markup("No playback and no value-proposition session")
        }
        html.markup("</p>\n<dl class=\"totals\">\n")
        func item(_ name: String, _ value: (inout HTMLWriter) -> Void) {
            html.markup("<div><dt>")
            html.text(name)
            html.markup("</dt><dd>")
            value(&html)
            html.markup("</dd></div>\n")
        }
        func seconds(_ milliseconds: Int64?) -> (inout HTMLWriter) -> Void {
            { html in html.ratio(milliseconds ?? 0, over: milliseconds == nil ? 0 : 1000, unit: " s") }
        }
        item("Views") { $0.int(total.views) }
        item("Plays") { $0.int(total.plays) }
        item("Exits before start") { $0.int(total.exitsBeforeStart) }
        item("Start failures") { $0.int(total.startFailures) }
        item("Playback failures") { $0.int(total.playbackFailures) }
        item("Startup p50", seconds(total.startupPercentile(50)))
        item("Startup p95", seconds(total.startupPercentile(95)))
        item("Watch time") { $0.ratio(total.watchTime, over: 3_600_000, unit: " h") }
        item("Rebuffer") { $0.ratio(total.rebufferTime, over: total.watchTime, times: 100, unit: " %") }
        item("Concurrent peak") { $0.int(peak) }
        item("Value-proposition sessions") { html in
            html.int(total.vpSessions)
            if total.vpSessions > 0 {
                html.markup(" (")
                html.ratio(total.vpCompleted, over: total.vpSessions, times: 100, unit: " % completed)")
            }
        }
        html.markup("</dl>\n</header>\n")
    }

    private static func appendWorst(_ worst: WorstPlaybacks, to html: inout HTMLWriter) {
        html.markup("<section>\n<h2>Worst playbacks</h2>\n<p>The ")
        html.int(Int64(worst.limit))
        html.markup(
            " worst of the playbacks with an error or rebuffer time: most errors first, then most rebuffer time, "
                + "then highest rebuffer percentage, then earliest start, then playback id.</p>\n")
        if worst.ranked.isEmpty {
            html.markup("<p>No playback had an error or rebuffer time.</p>\n</section>\n")
            return
        }
        html.markup(
            "<table>\n<tr><th>#</th><th class=\"text\">Playback</th><th class=\"text\">Title</th>"
                + "<th class=\"text\">First record (UTC)</th><th>Startup (s)</th><th>Watch (s)</th><th>Rebuffers</th>"
                + "<th>Rebuffer (s)</th><th>Rebuffer %</th><th>Errors</th><th class=\"text\">End</th></tr>\n")
        for (rank, playback) in worst.ranked.enumerated() {
            html.markup("<tr><td>")
            html.int(Int64(rank + 1))
            html.markup("</td><td class=\"text\">")
            html.text(playback.playbackID)
            html.markup("</td><td class=\"text\">")
            html.text(playback.title ?? "")
            html.markup("</td><td class=\"when\">")
            let time = SummaryReport.rfc3339(playback.firstTimestamp)
            html.text(String(time.prefix(10)) + " " + String(time.dropFirst(11).prefix(8)))
            html.markup("</td><td>")
            html.ratio(playback.startup ?? 0, over: playback.startup == nil ? 0 : 1000)
            html.markup("</td><td>")
            html.ratio(playback.watchTime, over: 1000)
            html.markup("</td><td>")
            html.int(playback.rebuffers)
            html.markup("</td><td>")
            html.ratio(playback.rebufferTime, over: 1000)
            html.markup("</td><td>")
            html.ratio(playback.rebufferTime, over: playback.watchTime, times: 100)
            html.markup("</td><td>")
            html.int(playback.errors)
            html.markup("</td><td class=\"text\">")
            html.text(endLabel(playback))
            html.markup("</td></tr>\n")
        }
        html.markup("</table>\n</section>\n")
    }

    /// `End`, `Stop` or `Next`; `start failure` or `open` when it did not end; `, timed out` added.
    private static func endLabel(_ playback: PlaybackSummary) -> String {
        let end = playback.endAction ?? (playback.isStartFailure ? "start failure" : "open")
        return playback.timedOut ? end + ", timed out" : end
    }

    /// `1 d`, `1 h`, `15 min`, `90 s`.
    static func durationLabel(_ milliseconds: Int64) -> String {
        for (unit, length) in [("d", 86_400_000), ("h", 3_600_000), ("min", 60_000), ("s", 1000)] as [(String, Int64)]
        where milliseconds % length == 0 && milliseconds >= length {
            return String(milliseconds / length) + " " + unit
        }
        return String(milliseconds) + " ms"
    }
}
