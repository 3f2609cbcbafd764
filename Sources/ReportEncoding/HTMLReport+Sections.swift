import EventModel
import Replay

extension HTMLReport {
    /// Where a number of the page comes from, written as `data-csv` attributes: the file, the
    /// row (`data-key` and `data-value`: the rows whose column `data-key` holds `data-value`;
    /// for `summary.csv` also `data-row`, the `bucket` column) and `data-col`, a column of
    /// `summary.csv` or, for the other files, how the rows make it (docs/reports.md).
    struct Source {
        var file: String
        var row: String? = nil
        var key: String? = nil
        var value: String? = nil

        static let summaryAll = Source(file: "summary.csv", row: "all")

        /// Appends the element's opening tag with the attributes, for the column `column`.
        func open(_ element: String, column: String, to html: inout HTMLWriter) {
            html.markup("<" + element + " data-csv=\"")
            html.text(file)
            if let row {
                html.markup("\" data-row=\"")
                html.text(row)
            }
            if let key, let value {
                html.markup("\" data-key=\"")
                html.text(key)
                html.markup("\" data-value=\"")
                html.text(value)
            }
            html.markup("\" data-col=\"")
            html.text(column)
            html.markup("\">")
        }

        /// Appends a table cell with a number, as ``open(_:column:to:)`` marks it.
        func cell(_ column: String, to html: inout HTMLWriter, _ number: (inout HTMLWriter) -> Void) {
            open("td", column: column, to: &html)
            number(&html)
            html.markup("</td>")
        }
    }

    static let head = """
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
        h2 { font-size: 17px; margin: 28px 0 4px; }
        h3 { font-size: 14px; margin: 16px 0 4px; }
        p { margin: 4px 0; color: #555; font-size: 13px; }
        svg.defs { position: absolute; }
        .tiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 8px; \
        margin: 12px 0; padding: 0; }
        .tiles div { border: 1px solid #e3e3e8; border-radius: 4px; padding: 6px 10px; cursor: help; }
        .tiles dt { font-size: 11px; color: #666; }
        .tiles dd { margin: 0; font-size: 20px; font-weight: bold; white-space: nowrap; }
        .unit { font-size: 12px; font-weight: normal; color: #666; }
        .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(480px, 1fr)); gap: 16px; }
        .chart { width: 100%; height: auto; }
        .chart .title { font-size: 15px; font-weight: bold; fill: #222; }
        .chart .legend { font-size: 12px; fill: #444; }
        .chart .tick { font-size: 11px; fill: #666; text-anchor: end; }
        .chart .time { font-size: 11px; fill: #666; text-anchor: middle; }
        .chart .count { font-size: 11px; fill: #222; text-anchor: middle; }
        .chart .caption { font-size: 11px; fill: #666; text-anchor: middle; }
        .chart .scale { font-size: 11px; fill: #666; text-anchor: middle; }
        .chart .empty { font-size: 13px; fill: #999; text-anchor: middle; }
        .chart .grid { stroke: #e3e3e8; stroke-width: 1; }
        table { border-collapse: collapse; font-size: 12px; width: 100%; margin-top: 8px; }
        th, td { border-bottom: 1px solid #e3e3e8; padding: 4px 6px; text-align: right; }
        th { background: #f3f3f6; white-space: nowrap; }
        table.sortable th { cursor: pointer; }
        th[aria-sort="descending"]::after { content: " \\25BE"; }
        th[aria-sort="ascending"]::after { content: " \\25B4"; }
        td.text, th.text { text-align: left; overflow-wrap: anywhere; }
        td.when { text-align: left; white-space: nowrap; }
        .none { color: #999; font-style: italic; }
        footer { margin-top: 32px; border-top: 1px solid #e3e3e8; padding-top: 8px; }
        footer code { font-size: 11px; }
        </style>
        </head>
        <body>

        """

    /// Sorts a table by the column whose heading is clicked: numbers by value, undefined (`–`) and
    /// text after them; a second click reverses the order.
    static let script = """
        <script>
        document.querySelectorAll("table.sortable").forEach(function (table) {
          var headings = table.tHead.rows[0].cells;
          Array.prototype.forEach.call(headings, function (heading, column) {
            heading.addEventListener("click", function () {
              var descending = heading.getAttribute("aria-sort") !== "descending";
              Array.prototype.forEach.call(headings, function (other) { other.removeAttribute("aria-sort"); });
              heading.setAttribute("aria-sort", descending ? "descending" : "ascending");
              var body = table.tBodies[0];
              var key = function (row) {
                var text = row.cells[column].textContent;
                var number = parseFloat(text);
                return isNaN(number) ? text : number;
              };
              var rows = Array.prototype.slice.call(body.rows);
              rows.sort(function (a, b) {
                var x = key(a), y = key(b);
                if (typeof x !== typeof y) { return typeof x === "number" ? -1 : 1; }
                if (x === y) { return 0; }
                return (x < y) === descending ? 1 : -1;
              });
              rows.forEach(function (row) { body.appendChild(row); });
            });
          });
        });
        </script>

        """

    static func appendHeader(
        bucketStarts: [Int64], bucketLength: Int64, partialFrom: Int64?, to html: inout HTMLWriter
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
                html.markup(
                    " UTC on are still open (lives kept for the next run, which writes them whole); "
                        + "the charts hatch them")
            }
        } else {
            html.markup("No playback and no value-proposition session")
        }
        html.markup("</p>\n</header>\n")
    }

    /// The headline tiles: each a number of `summary.csv`'s `all` row, with its definition on hover.
    static func appendTiles(_ total: KPIs, peak: Int64, to html: inout HTMLWriter) {
        html.markup("<section id=\"headline\">\n<dl class=\"tiles\">\n")
        func tile(
            _ name: String, _ definition: String, _ column: String, unit: String = "",
            _ number: (inout HTMLWriter) -> Void
        ) {
            html.markup("<div title=\"")
            html.text(definition)
            html.markup("\"><dt>")
            html.text(name)
            html.markup("</dt><dd>")
            Source.summaryAll.open("span", column: column, to: &html)
            number(&html)
            html.markup("</span>")
            if !unit.isEmpty {
                html.markup("<span class=\"unit\"> ")
                html.text(unit)
                html.markup("</span>")
            }
            html.markup("</dd></div>\n")
        }
        let perHour: Int64 = 3_600_000
        tile("Views", "Playbacks (playback ids), started or not.", "views") { $0.int(total.views) }
        tile("Plays", "Views that started: a Start was accepted.", "plays") { $0.int(total.plays) }
        tile(
            "VSF", "Video start failure: start failures / views × 100. A start failure never started and had an error.",
            "vsf_pct", unit: "%"
        ) { $0.ratio(total.startFailures, over: total.views, times: 100) }
        tile(
            "EBVS",
            "Exits before video start: exits before start / views × 100 (never started, no error, not ads only).",
            "ebvs_pct", unit: "%"
        ) { $0.ratio(total.exitsBeforeStart, over: total.views, times: 100) }
        tile(
            "VPF", "Video playback failure: playback failures / plays × 100 (started, then had an error).", "vpf_pct",
            unit: "%"
        ) { $0.ratio(total.playbackFailures, over: total.plays, times: 100) }
        tile(
            "Rebuffer", "Rebuffer time / watch time × 100; watch time is play time plus rebuffer time.",
            "rebuffer_pct", unit: "%"
        ) { $0.ratio(total.rebufferTime, over: total.watchTime, times: 100) }
        tile(
            "Rebuffers per hour", "Rebuffers per hour of watch time: rebuffers × 3,600,000 / watch_ms.",
            "rebuffers_per_hour"
        ) { $0.ratio(total.rebuffers, over: total.watchTime, times: perHour) }
        for (percentile, column) in [(50.0, "startup_ms_p50"), (95.0, "startup_ms_p95")] {
            tile(
                "Startup p" + String(Int(percentile)),
                "The \(Int(percentile))th percentile of startup_ms over the plays that have one: from the playback's "
                    + "own MediaRequest to its Start (within 1 %).", column, unit: "ms"
            ) { html in
                if let value = total.startupPercentile(percentile) { html.int(value) } else { html.markup("–") }
            }
        }
        tile(
            "Average bitrate", "Time-weighted mean bitrate over the play time with a known bitrate.",
            "avg_bitrate_bps", unit: "bit/s"
        ) { html in
            html.ratio(total.bitMilliseconds, over: Int128(total.bitrateTime))
        }
        tile(
            "Quality changes per hour", "Quality changes, up and down, per hour of watch time.",
            "quality_changes_per_hour"
        ) { $0.ratio(total.qualityChanges, over: total.watchTime, times: perHour) }
        tile(
            "Concurrent peak", "The most playbacks in progress at one instant, from first to last record.",
            "concurrent_peak"
        ) { $0.int(peak) }
        tile("VP sessions", "Value-proposition sessions opened.", "vp_sessions") { $0.int(total.vpSessions) }
        tile("VP completion", "Value-proposition sessions completed / sessions × 100.", "vp_completion_pct", unit: "%")
        {
            $0.ratio(total.vpCompleted, over: total.vpSessions, times: 100)
        }
        html.markup("</dl>\n</section>\n")
    }

    /// Whether group `a` ranks before group `b` in a breakdown, worst first: by VPF %, then
    /// VSF % (both exact, an undefined one lowest), then most views, then value (byte-wise).
    static func ranksWorse(_ a: (value: String, kpis: KPIs), _ b: (value: String, kpis: KPIs)) -> Bool {
        func compare(_ an: Int64, _ ad: Int64, _ bn: Int64, _ bd: Int64) -> Int {
            if ad == 0 || bd == 0 { return ad == bd ? 0 : (ad == 0 ? -1 : 1) }
            let lhs = Int128(an) * Int128(bd)
            let rhs = Int128(bn) * Int128(ad)
            return lhs == rhs ? 0 : (lhs < rhs ? -1 : 1)
        }
        let vpf = compare(a.kpis.playbackFailures, a.kpis.plays, b.kpis.playbackFailures, b.kpis.plays)
        if vpf != 0 { return vpf > 0 }
        let vsf = compare(a.kpis.startFailures, a.kpis.views, b.kpis.startFailures, b.kpis.views)
        if vsf != 0 { return vsf > 0 }
        if a.kpis.views != b.kpis.views { return a.kpis.views > b.kpis.views }
        return a.value.precedesInUTF8Order(b.value)
    }

    /// A table per `--group-by` key: its values' playback KPIs, worst first (``ranksWorse(_:_:)``).
    static func appendBreakdowns(_ breakdowns: [KPISummary], to html: inout HTMLWriter) {
        html.markup("<section id=\"breakdown\">\n<h2>Breakdown</h2>\n")
        guard !breakdowns.isEmpty else {
            html.markup("<p>Run with <code>--group-by</code> to break the playbacks down by a dimension here.</p>\n")
            html.markup("</section>\n")
            return
        }
        html.markup(
            "<p>The playbacks by each <code>--group-by</code> key, worst first: highest VPF %, then VSF %, "
                + "then most views; click a heading to sort. Values without a playback are left out.</p>\n")
        for breakdown in breakdowns {
            guard let key = breakdown.groupBy.keys.first else { continue }
            let groups = breakdown.rows.filter { $0.bucket == nil && $0.kpis.views > 0 }
                .map { (value: $0.group.first ?? "", kpis: $0.kpis) }
                .sorted(by: ranksWorse)
            html.markup("<h3>By ")
            html.text(key)
            html.markup(
                "</h3>\n<table class=\"sortable\">\n<thead><tr><th class=\"text\">")
            html.text(key)
            html.markup(
                "</th><th>Views</th><th>Plays</th><th>VSF %</th><th>EBVS %</th><th>VPF %</th><th>Rebuffer %</th>"
                    + "<th>Startup p50 (ms)</th><th>Startup p95 (ms)</th></tr></thead>\n<tbody>\n")
            for group in groups {
                let kpis = group.kpis
                let source = Source(file: "summary.csv", row: "all", key: key, value: group.value)
                html.markup("<tr><td class=\"text\">")
                appendValue(group.value, to: &html)
                html.markup("</td>")
                source.cell("views", to: &html) { $0.int(kpis.views) }
                source.cell("plays", to: &html) { $0.int(kpis.plays) }
                source.cell("vsf_pct", to: &html) { $0.ratio(kpis.startFailures, over: kpis.views, times: 100) }
                source.cell("ebvs_pct", to: &html) { $0.ratio(kpis.exitsBeforeStart, over: kpis.views, times: 100) }
                source.cell("vpf_pct", to: &html) { $0.ratio(kpis.playbackFailures, over: kpis.plays, times: 100) }
                source.cell("rebuffer_pct", to: &html) { $0.ratio(kpis.rebufferTime, over: kpis.watchTime, times: 100) }
                for (percentile, column) in [(50.0, "startup_ms_p50"), (95.0, "startup_ms_p95")] {
                    source.cell(column, to: &html) { html in
                        if let value = kpis.startupPercentile(percentile) { html.int(value) } else { html.markup("–") }
                    }
                }
                html.markup("</tr>\n")
            }
            html.markup("</tbody>\n</table>\n")
        }
        html.markup("</section>\n")
    }

    /// A value of the logs, or `(none)` for the empty string.
    private static func appendValue(_ value: String, to html: inout HTMLWriter) {
        if value.isEmpty {
            html.markup("<span class=\"none\">(none)</span>")
        } else {
            html.text(value)
        }
    }

    static func appendWorst(_ worst: WorstPlaybacks, to html: inout HTMLWriter) {
        html.markup("<section id=\"worst\">\n<h2>Worst playbacks</h2>\n<p>The ")
        html.int(Int64(worst.limit))
        html.markup(
            " worst of the playbacks with an error or rebuffer time: most errors first, then most rebuffer time, "
                + "then highest rebuffer percentage, then earliest start, then playback id.</p>\n")
        if worst.ranked.isEmpty {
            html.markup("<p>No playback had an error or rebuffer time.</p>\n</section>\n")
            return
        }
        html.markup(
            "<table class=\"sortable\">\n<thead><tr><th>#</th><th class=\"text\">Playback</th>"
                + "<th class=\"text\">Title</th><th class=\"text\">First record (UTC)</th><th>Startup (s)</th>"
                + "<th>Watch (s)</th><th>Rebuffers</th><th>Rebuffer (s)</th><th>Rebuffer %</th><th>Errors</th>"
                + "<th class=\"text\">End</th></tr></thead>\n<tbody>\n")
        for (rank, playback) in worst.ranked.enumerated() {
            let source = Source(file: "playbacks.csv", key: "playback_id", value: playback.playbackID)
            html.markup("<tr><td>")
            html.int(Int64(rank + 1))
            html.markup("</td><td class=\"text\">")
            html.text(playback.playbackID)
            html.markup("</td><td class=\"text\">")
            html.text(playback.title ?? "")
            html.markup("</td><td class=\"when\">")
            let time = SummaryReport.rfc3339(playback.firstTimestamp)
            html.text(String(time.prefix(10)) + " " + String(time.dropFirst(11).prefix(8)))
            html.markup("</td>")
            source.cell("seconds:startup_ms", to: &html) {
                $0.ratio(playback.startup ?? 0, over: playback.startup == nil ? 0 : 1000)
            }
            source.cell("seconds:play_time_ms+rebuffer_time_ms", to: &html) { $0.ratio(playback.watchTime, over: 1000) }
            source.cell("sum:rebuffers", to: &html) { $0.int(playback.rebuffers) }
            source.cell("seconds:rebuffer_time_ms", to: &html) { $0.ratio(playback.rebufferTime, over: 1000) }
            source.cell("pct:rebuffer_time_ms/play_time_ms+rebuffer_time_ms", to: &html) {
                $0.ratio(playback.rebufferTime, over: playback.watchTime, times: 100)
            }
            source.cell("sum:errors", to: &html) { $0.int(playback.errors) }
            html.markup("<td class=\"text\">")
            html.text(endLabel(playback))
            html.markup("</td></tr>\n")
        }
        html.markup("</tbody>\n</table>\n</section>\n")
    }

    /// `End`, `Stop` or `Next`; `start failure` or `open` when it did not end; `, timed out` added.
    private static func endLabel(_ playback: PlaybackSummary) -> String {
        let end = playback.endAction ?? (playback.isStartFailure ? "start failure" : "open")
        return playback.timedOut ? end + ", timed out" : end
    }

    static func appendValuePropositions(_ byName: VPSessionsByName, to html: inout HTMLWriter) {
        html.markup("<section id=\"value-propositions\">\n<h2>Value propositions</h2>\n")
        let rows = byName.rows
        guard !rows.isEmpty else {
            html.markup("<p>No value-proposition session.</p>\n</section>\n")
            return
        }
        html.markup(
            "<p>The sessions of <code>vp_sessions.csv</code> by name, most sessions first. Completion: sessions "
                + "completed / sessions × 100; time to start: the mean of <code>time_to_start_ms</code> over the "
                + "sessions that started.</p>\n<table class=\"sortable\">\n<thead><tr><th class=\"text\">Name</th>"
                + "<th>Sessions</th><th>Completion %</th><th>Started</th><th>Mean time to start (ms)</th></tr></thead>\n"
                + "<tbody>\n")
        for row in rows {
            let source = Source(file: "vp_sessions.csv", key: "name", value: row.name)
            html.markup("<tr><td class=\"text\">")
            appendValue(row.name, to: &html)
            html.markup("</td>")
            source.cell("count", to: &html) { $0.int(row.sessions) }
            source.cell("pct:outcome=completed", to: &html) { $0.ratio(row.completed, over: row.sessions, times: 100) }
            source.cell("count:time_to_start_ms", to: &html) { $0.int(row.started) }
            source.cell("mean:time_to_start_ms", to: &html) { $0.ratio(row.timeToStartSum, over: row.started) }
            html.markup("</tr>\n")
        }
        html.markup("</tbody>\n</table>\n</section>\n")
    }

    static func appendStations(_ byStation: MarconiItemsByStation, to html: inout HTMLWriter) {
        html.markup("<section id=\"radio\">\n<h2>Radio listening</h2>\n")
        let rows = byStation.rows
        guard !rows.isEmpty else {
            html.markup("<p>No radio item.</p>\n</section>\n")
            return
        }
        html.markup(
            "<p>The items of <code>marconi_items.csv</code> by station, most items first. Listening: the sum of "
                + "<code>playing_ms</code>; buffering: <code>buffering_ms</code> / (<code>buffering_ms</code> + "
                + "<code>playing_ms</code>) × 100.</p>\n<table class=\"sortable\">\n<thead><tr>"
                + "<th class=\"text\">Station</th><th>Items</th><th>Listening (h)</th><th>Buffering %</th>"
                + "<th>Errors</th></tr></thead>\n<tbody>\n")
        for row in rows {
            let source = Source(file: "marconi_items.csv", key: "station", value: row.station)
            html.markup("<tr><td class=\"text\">")
            appendValue(row.station, to: &html)
            html.markup("</td>")
            source.cell("count", to: &html) { $0.int(row.items) }
            source.cell("hours:playing_ms", to: &html) { $0.ratio(row.playingTime, over: 3_600_000) }
            source.cell("pct:buffering_ms/buffering_ms+playing_ms", to: &html) {
                $0.ratio(row.bufferingTime, over: row.bufferingTime + row.playingTime, times: 100)
            }
            source.cell("sum:errors", to: &html) { $0.int(row.errors) }
            html.markup("</tr>\n")
        }
        html.markup("</tbody>\n</table>\n</section>\n")
    }

    static func appendProvenance(_ provenance: Provenance, to html: inout HTMLWriter) {
        html.markup("<footer id=\"provenance\">\n<h2>Provenance</h2>\n<p>Written by ")
        html.text(provenance.tool)
        if !provenance.version.isEmpty {
            html.markup(" ")
            html.text(provenance.version)
        }
        html.markup(" from ")
        html.int(Int64(provenance.inputs.count))
        html.markup(provenance.inputs.count == 1 ? " input" : " inputs")
        html.markup(", in replay order:</p>\n<table>\n<thead><tr><th class=\"text\">Input</th><th>Bytes</th>")
        html.markup("<th>Lines</th><th>Rejected</th><th>Late</th></tr></thead>\n<tbody>\n")
        for input in provenance.inputs {
            html.markup("<tr><td class=\"text\">")
            html.text(input.name)
            html.markup("</td><td>")
            if let size = input.size { html.int(size) } else { html.markup("–") }
            html.markup("</td><td>")
            html.int(input.lines)
            html.markup("</td><td>")
            html.int(input.rejected)
            html.markup("</td><td>")
            html.int(input.late)
            html.markup("</td></tr>\n")
        }
        html.markup("</tbody>\n</table>\n<p>Rejected lines: ")
        html.int(provenance.rejectedLines)
        html.markup("; records later than <code>--max-lateness</code>: ")
        html.int(provenance.lateRecords)
        html.markup(", of which rejected: ")
        html.int(provenance.lateRejected)
        html.markup(". Each is in <a href=\"rejects.jsonl\">rejects.jsonl</a>.</p>\n")
        if let carried = provenance.carried {
            html.markup("<p id=\"carried\">Carried over to the next run (<code>--state</code>): ")
            for (index, (count, noun, open, openNoun)) in [
                (carried.instruments, "instrument", carried.openPlaybacks, "open playback"),
                (carried.appSessions, "app session", carried.openSessions, "open session"),
                (carried.players, "player", carried.openItems, "open item"),
            ].enumerated() {
                if index > 0 { html.markup(", ") }
                html.int(count)
                html.markup(" " + noun + (count == 1 ? "" : "s") + " with ")
                html.int(open)
                html.markup(" " + openNoun + (open == 1 ? "" : "s"))
            }
            html.markup(". Their rows are in the report of the run in which they end.</p>\n")
        }
        html.markup("<p>Options: ")
        for (index, option) in provenance.options.enumerated() {
            if index > 0 { html.markup(" ") }
            html.markup("<code>")
            html.text(option)
            html.markup("</code>")
        }
        if provenance.options.isEmpty { html.markup("–") }
        html.markup("</p>\n</footer>\n")
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
