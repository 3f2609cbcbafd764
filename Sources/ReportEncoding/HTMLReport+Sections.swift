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
        /// Whether the rows are those of `key` whose value no other row of the table shows: the
        /// rest of a breakdown, written `data-rest`.
        var isRest = false

        static let summaryAll = Source(file: "summary.csv", row: "all")

        /// Appends the element's opening tag with the attributes, for the column `column`, and
        /// `data-sort`, the value the sorting script orders by, when given.
        func open(_ element: String, column: String, sort: String? = nil, to html: inout HTMLWriter) {
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
            if let key, isRest {
                html.markup("\" data-key=\"")
                html.text(key)
                html.markup("\" data-rest=\"")
            }
            html.markup("\" data-col=\"")
            html.text(column)
            if let sort {
                html.markup("\" data-sort=\"")
                html.text(sort)
            }
            html.markup("\">")
        }

        /// Appends a table cell with a number, as ``open(_:column:sort:to:)`` marks it; `sort` is the
        /// number the sorting script orders the rows by (an undefined one has none, and sorts last).
        func cell(
            _ column: String, sort: String?, to html: inout HTMLWriter, _ number: (inout HTMLWriter) -> Void
        ) {
            open("td", column: column, sort: sort, to: &html)
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

    /// Sorts a table by the column whose heading is clicked: numbers by value (their `data-sort`,
    /// not the text people read), undefined (`–`) and text after them; a second click reverses
    /// the order. A table's `<tfoot>` (the rest of a breakdown) stays last.
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
                var cell = row.cells[column];
                var number = parseFloat(cell.getAttribute("data-sort"));
                return isNaN(number) ? cell.textContent : number;
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
        tile("Views", "Playbacks (playback ids), started or not.", "views") { $0.count(total.views) }
        tile("Plays", "Views that started: a Start was accepted.", "plays") { $0.count(total.plays) }
        tile(
            "VSF", "Video start failure: start failures / views × 100. A start failure never started and had an error.",
            "vsf_pct", unit: "%"
        ) { $0.rate(total.startFailures, over: total.views, times: 100) }
        tile(
            "EBVS",
            "Exits before video start: exits before start / views × 100 (never started, no error, not ads only).",
            "ebvs_pct", unit: "%"
        ) { $0.rate(total.exitsBeforeStart, over: total.views, times: 100) }
        tile(
            "VPF", "Video playback failure: playback failures / plays × 100 (started, then had an error).", "vpf_pct",
            unit: "%"
        ) { $0.rate(total.playbackFailures, over: total.plays, times: 100) }
        tile(
            "Rebuffer", "Rebuffer time / watch time × 100; watch time is play time plus rebuffer time.",
            "rebuffer_pct", unit: "%"
        ) { $0.rate(total.rebufferTime, over: total.watchTime, times: 100) }
        tile(
            "Rebuffers per hour", "Rebuffers per hour of watch time: rebuffers × 3,600,000 / watch_ms.",
            "rebuffers_per_hour"
        ) { $0.rate(total.rebuffers, over: total.watchTime, times: perHour) }
        for (percentile, column) in [(50.0, "startup_ms_p50"), (95.0, "startup_ms_p95")] {
            tile(
                "Startup p" + String(Int(percentile)),
                "The \(Int(percentile))th percentile of startup_ms over the plays that have one: from the playback's "
                    + "own MediaRequest to its Start (within 1 %), in seconds.", column, unit: "s"
            ) { $0.seconds(total.startupPercentile(percentile)) }
        }
        tile(
            "Average bitrate",
            "Time-weighted mean bitrate over the play time with a known bitrate: bit/s under 1 kbit/s, kbit/s "
                + "under 1 Mbit/s, else Mbit/s.", "avg_bitrate_bps"
        ) { html in
            let hundredths = PageFormat.roundedQuotient(total.bitMilliseconds * 100, Int128(total.bitrateTime))
            html.markup(hundredths.map { PageFormat.bitrate(hundredths: $0) } ?? "–")
        }
        tile(
            "Quality changes per hour", "Quality changes, up and down, per hour of watch time.",
            "quality_changes_per_hour"
        ) { $0.rate(total.qualityChanges, over: total.watchTime, times: perHour) }
        tile(
            "Concurrent peak", "The most playbacks in progress at one instant, from first to last record.",
            "concurrent_peak"
        ) { $0.count(peak) }
        tile("VP sessions", "Value-proposition sessions opened.", "vp_sessions") { $0.count(total.vpSessions) }
        tile("VP completion", "Value-proposition sessions completed / sessions × 100.", "vp_completion_pct", unit: "%")
        {
            $0.rate(total.vpCompleted, over: total.vpSessions, times: 100)
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

    /// A table per `--group-by` key: its values' playback KPIs, worst first (``ranksWorse(_:_:)``)
    /// among the values with at least `minimumViews` views; the values with fewer are added up
    /// into one last row, in the table's foot (which sorting leaves last).
    static func appendBreakdowns(_ breakdowns: [KPISummary], minimumViews: Int64, to html: inout HTMLWriter) {
        html.markup("<section id=\"breakdown\">\n<h2>Breakdown</h2>\n")
        guard !breakdowns.isEmpty else {
            html.markup("<p>Run with <code>--group-by</code> to break the playbacks down by a dimension here.</p>\n")
            html.markup("</section>\n")
            return
        }
        html.markup(
            "<p>The playbacks by each <code>--group-by</code> key, worst first among the values with at least ")
        html.count(minimumViews)
        html.markup(minimumViews == 1 ? " view" : " views")
        html.markup(
            " (<code>--breakdown-min-views</code>): highest VPF %, then VSF %, then most views; the values with "
                + "fewer views are added up in the last row. Click a heading to sort. Values without a playback "
                + "are left out.</p>\n")
        for breakdown in breakdowns {
            guard let key = breakdown.groupBy.keys.first else { continue }
            let groups = breakdown.rows.filter { $0.bucket == nil && $0.kpis.views > 0 }
                .map { (value: $0.group.first ?? "", kpis: $0.kpis) }
            let shown = groups.filter { $0.kpis.views >= minimumViews }.sorted(by: ranksWorse)
            let rest = groups.filter { $0.kpis.views < minimumViews }
            html.markup("<h3>By ")
            html.text(key)
            html.markup(
                "</h3>\n<table class=\"sortable\">\n<thead><tr><th class=\"text\">")
            html.text(key)
            html.markup(
                "</th><th>Views</th><th>Plays</th><th>VSF %</th><th>EBVS %</th><th>VPF %</th><th>Rebuffer %</th>"
                    + "<th>Startup p50 (s)</th><th>Startup p95 (s)</th></tr></thead>\n<tbody>\n")
            for group in shown {
                html.markup("<tr><td class=\"text\">")
                appendValue(group.value, to: &html)
                html.markup("</td>")
                appendBreakdownCells(
                    group.kpis, Source(file: "summary.csv", row: "all", key: key, value: group.value), to: &html)
                html.markup("</tr>\n")
            }
            html.markup("</tbody>\n")
            if !rest.isEmpty {
                var kpis = KPIs()
                for group in rest { kpis.merge(group.kpis) }
                html.markup("<tfoot><tr class=\"rest\"><td class=\"text\">other (")
                html.count(Int64(rest.count))
                html.markup(rest.count == 1 ? " value" : " values")
                html.markup(", each under ")
                html.count(minimumViews)
                html.markup(minimumViews == 1 ? " view" : " views")
                html.markup(")</td>")
                appendBreakdownCells(kpis, Source(file: "summary.csv", row: "all", key: key, isRest: true), to: &html)
                html.markup("</tr></tfoot>\n")
            }
            html.markup("</table>\n")
        }
        html.markup("</section>\n")
    }

    /// A breakdown row's numbers.
    private static func appendBreakdownCells(_ kpis: KPIs, _ source: Source, to html: inout HTMLWriter) {
        source.cell("views", sort: String(kpis.views), to: &html) { $0.count(kpis.views) }
        source.cell("plays", sort: String(kpis.plays), to: &html) { $0.count(kpis.plays) }
        for (column, part, whole) in [
            ("vsf_pct", kpis.startFailures, kpis.views), ("ebvs_pct", kpis.exitsBeforeStart, kpis.views),
            ("vpf_pct", kpis.playbackFailures, kpis.plays), ("rebuffer_pct", kpis.rebufferTime, kpis.watchTime),
        ] {
            source.cell(column, sort: sortKey(part, over: whole, times: 100), to: &html) {
                $0.rate(part, over: whole, times: 100)
            }
        }
        for (percentile, column) in [(50.0, "startup_ms_p50"), (95.0, "startup_ms_p95")] {
            let value = kpis.startupPercentile(percentile)
            source.cell(column, sort: value.map { String($0) }, to: &html) { $0.seconds(value) }
        }
    }

    /// What the sorting script orders a rate by: `numerator × multiplier / denominator` as the
    /// shortest decimal of a `Double` (locale-free); `nil` when undefined.
    static func sortKey(_ numerator: Int64, over denominator: Int64, times multiplier: Int64 = 1) -> String? {
        denominator == 0 ? nil : String(Double(numerator) * Double(multiplier) / Double(denominator))
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
        html.count(Int64(worst.limit))
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
                + "<th>Watch time</th><th>Rebuffers</th><th>Rebuffer time</th><th>Rebuffer %</th><th>Errors</th>"
                + "<th class=\"text\">End</th></tr></thead>\n<tbody>\n")
        for (rank, playback) in worst.ranked.enumerated() {
            let source = Source(file: "playbacks.csv", key: "playback_id", value: playback.playbackID)
            html.markup("<tr><td>")
            html.count(Int64(rank + 1))
            html.markup("</td><td class=\"text\">")
            html.text(playback.playbackID)
            html.markup("</td><td class=\"text\">")
            html.text(playback.title ?? "")
            html.markup("</td><td class=\"when\">")
            let time = SummaryReport.rfc3339(playback.firstTimestamp)
            html.text(String(time.prefix(10)) + " " + String(time.dropFirst(11).prefix(8)))
            html.markup("</td>")
            source.cell("seconds:startup_ms", sort: playback.startup.map { String($0) }, to: &html) {
                $0.seconds(playback.startup)
            }
            source.cell("duration:play_time_ms+rebuffer_time_ms", sort: String(playback.watchTime), to: &html) {
                $0.duration(playback.watchTime)
            }
            source.cell("sum:rebuffers", sort: String(playback.rebuffers), to: &html) { $0.count(playback.rebuffers) }
            source.cell("duration:rebuffer_time_ms", sort: String(playback.rebufferTime), to: &html) {
                $0.duration(playback.rebufferTime)
            }
            source.cell(
                "pct:rebuffer_time_ms/play_time_ms+rebuffer_time_ms",
                sort: sortKey(playback.rebufferTime, over: playback.watchTime, times: 100), to: &html
            ) {
                $0.rate(playback.rebufferTime, over: playback.watchTime, times: 100)
            }
            source.cell("sum:errors", sort: String(playback.errors), to: &html) { $0.count(playback.errors) }
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
                + "sessions that started, in seconds.</p>\n<table class=\"sortable\">\n<thead><tr><th class=\"text\">Name</th>"
                + "<th>Sessions</th><th>Completion %</th><th>Started</th><th>Mean time to start (s)</th></tr></thead>\n"
                + "<tbody>\n")
        for row in rows {
            let source = Source(file: "vp_sessions.csv", key: "name", value: row.name)
            html.markup("<tr><td class=\"text\">")
            appendValue(row.name, to: &html)
            html.markup("</td>")
            source.cell("count", sort: String(row.sessions), to: &html) { $0.count(row.sessions) }
            source.cell(
                "pct:outcome=completed", sort: sortKey(row.completed, over: row.sessions, times: 100), to: &html
            ) {
                $0.rate(row.completed, over: row.sessions, times: 100)
            }
            source.cell("count:time_to_start_ms", sort: String(row.started), to: &html) { $0.count(row.started) }
            source.cell(
                "mean-seconds:time_to_start_ms", sort: sortKey(row.timeToStartSum, over: row.started), to: &html
            ) {
                $0.rate(row.timeToStartSum, over: row.started * 1000)
            }
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
            "<p>The items of <code>marconi_items.csv</code> by station, most items first. Listening time: the "
                + "sum of <code>playing_ms</code>; buffering: <code>buffering_ms</code> / (<code>buffering_ms</code> + "
                + "<code>playing_ms</code>) × 100.</p>\n<table class=\"sortable\">\n<thead><tr>"
                + "<th class=\"text\">Station</th><th>Items</th><th>Listening time</th><th>Buffering %</th>"
                + "<th>Errors</th></tr></thead>\n<tbody>\n")
        for row in rows {
            let source = Source(file: "marconi_items.csv", key: "station", value: row.station)
            html.markup("<tr><td class=\"text\">")
            appendValue(row.station, to: &html)
            html.markup("</td>")
            source.cell("count", sort: String(row.items), to: &html) { $0.count(row.items) }
            source.cell("duration:playing_ms", sort: String(row.playingTime), to: &html) {
                $0.duration(row.playingTime)
            }
            let whole = row.bufferingTime + row.playingTime
            source.cell(
                "pct:buffering_ms/buffering_ms+playing_ms", sort: sortKey(row.bufferingTime, over: whole, times: 100),
                to: &html
            ) {
                $0.rate(row.bufferingTime, over: whole, times: 100)
            }
            source.cell("sum:errors", sort: String(row.errors), to: &html) { $0.count(row.errors) }
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
        html.count(Int64(provenance.inputs.count))
        html.markup(provenance.inputs.count == 1 ? " input" : " inputs")
        html.markup(", in replay order:</p>\n<table>\n<thead><tr><th class=\"text\">Input</th><th>Bytes</th>")
        html.markup("<th>Lines</th><th>Rejected</th><th>Late</th></tr></thead>\n<tbody>\n")
        for input in provenance.inputs {
            html.markup("<tr><td class=\"text\">")
            html.text(input.name)
            html.markup("</td><td>")
            if let size = input.size { html.count(size) } else { html.markup("–") }
            html.markup("</td><td>")
            html.count(input.lines)
            html.markup("</td><td>")
            html.count(input.rejected)
            html.markup("</td><td>")
            html.count(input.late)
            html.markup("</td></tr>\n")
        }
        html.markup("</tbody>\n</table>\n<p>Rejected lines: ")
        html.count(provenance.rejectedLines)
        html.markup("; records later than <code>--max-lateness</code>: ")
        html.count(provenance.lateRecords)
        html.markup(", of which rejected: ")
        html.count(provenance.lateRejected)
        html.markup(". Each is in <a href=\"rejects.jsonl\">rejects.jsonl</a>.</p>\n")
        if let carried = provenance.carried {
            html.markup("<p id=\"carried\">Carried over to the next run (<code>--state</code>): ")
            for (index, (count, noun, open, openNoun)) in [
                (carried.instruments, "instrument", carried.openPlaybacks, "open playback"),
                (carried.appSessions, "app session", carried.openSessions, "open session"),
                (carried.players, "player", carried.openItems, "open item"),
            ].enumerated() {
                if index > 0 { html.markup(", ") }
                html.count(count)
                html.markup(" " + noun + (count == 1 ? "" : "s") + " with ")
                html.count(open)
                html.markup(" " + openNoun + (open == 1 ? "" : "s"))
            }
            html.markup(". Their rows are in the report of the run in which they end.</p>\n")
        }
        html.markup("<p>Options: ")
        for (index, option) in provenance.options.enumerated() {
            if index > 0 { html.markup(" ") }
            html.markup("<code>")
            html.text(PageFormat.option(option))
            html.markup("</code>")
        }
        if provenance.options.isEmpty { html.markup("–") }
        html.markup("</p>\n</footer>\n")
    }

    /// A bucket length as the page says it, as every time spent (``PageFormat/duration(_:)``):
    /// `1 d`, `1 h`, `15 min`, `1 h 30 min`.
    static func durationLabel(_ milliseconds: Int64) -> String {
        PageFormat.duration(milliseconds)
    }
}
