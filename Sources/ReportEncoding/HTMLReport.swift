import EventModel
import Replay

/// `report.html`: one self-contained page (nothing fetched, a small inline script that only
/// sorts tables) with the run's headline KPIs, charts drawn as inline SVG, a breakdown per
/// `--group-by` key, the worst playbacks, the value propositions and radio stations, and where
/// the numbers come from.
///
/// Everything comes from ``Page``; text from the logs is escaped, and numbers are formatted as
/// the CSV files write them, without locale, so the same input gives the same bytes. Each number
/// taken from a CSV file says which in `data-csv` attributes, which the rendering test checks
/// (docs/reports.md, "report.html").
public enum HTMLReport {
    /// What the page shows.
    public struct Page: Sendable {
        /// The KPIs of every playback and session together.
        public var summary: KPISummary
        public var worst: WorstPlaybacks
        /// One summary per `--group-by` key, split by that key alone.
        public var breakdowns: [KPISummary]
        public var valuePropositions: VPSessionsByName
        public var stations: MarconiItemsByStation
        public var provenance: Provenance
        /// The floor of a breakdown (`--breakdown-min-views`): values with fewer views are added up
        /// into one row, after the others.
        public var breakdownMinimumViews: Int64

        /// The default floor of a breakdown: values seen fewer than 10 times are too few for their
        /// rates to say anything, and would otherwise fill the top of the table at 100 % failure.
        public static let defaultBreakdownMinimumViews: Int64 = 10

        /// A page; its breakdowns, value propositions, stations and provenance are empty by default.
        public init(
            summary: KPISummary, worst: WorstPlaybacks = WorstPlaybacks(), breakdowns: [KPISummary] = [],
            valuePropositions: VPSessionsByName = VPSessionsByName(),
            stations: MarconiItemsByStation = MarconiItemsByStation(), provenance: Provenance = Provenance(),
            breakdownMinimumViews: Int64 = Page.defaultBreakdownMinimumViews
        ) {
            self.breakdownMinimumViews = max(1, breakdownMinimumViews)
            self.summary = summary
            self.worst = worst
            self.breakdowns = breakdowns
            self.valuePropositions = valuePropositions
            self.stations = stations
            self.provenance = provenance
        }
    }

    /// Where the page's numbers come from: the run's inputs, options and rejected lines.
    public struct Provenance: Codable, Sendable, Equatable {
        /// One input file.
        public struct Input: Codable, Sendable, Equatable {
            /// The file's name, without its folder.
            public var name: String
            /// Its size in bytes, when it is a regular file.
            public var size: Int64?
            /// Its lines (records) read, those rejected, and those later than the reorder window.
            public var lines: Int64
            public var rejected: Int64
            public var late: Int64

            /// An input as the page lists it.
            public init(name: String, size: Int64?, lines: Int64, rejected: Int64, late: Int64) {
                self.name = name
                self.size = size
                self.lines = lines
                self.rejected = rejected
                self.late = late
            }
        }

        /// The command that wrote the page (`avt-replay`, or a tool built on it), and its version.
        public var tool: String
        public var version: String
        /// The inputs, in replay order.
        public var inputs: [Input]
        /// The options that shape the reports, `name=value` each.
        public var options: [String]
        /// Lines rejected, records later than the reorder window, and those of them rejected.
        public var rejectedLines: Int64
        public var lateRecords: Int64
        public var lateRejected: Int64
        /// With `--state`: what the run left open for the next one.
        public var carried: Carried?

        /// The lives a run with `--state` left open, and their open rows.
        public struct Carried: Codable, Sendable, Equatable {
            public var instruments: Int64
            public var openPlaybacks: Int64
            public var appSessions: Int64
            public var openSessions: Int64
            public var players: Int64
            public var openItems: Int64

            public init(
                instruments: Int64, openPlaybacks: Int64, appSessions: Int64, openSessions: Int64, players: Int64,
                openItems: Int64
            ) {
                self.instruments = instruments
                self.openPlaybacks = openPlaybacks
                self.appSessions = appSessions
                self.openSessions = openSessions
                self.players = players
                self.openItems = openItems
            }
        }

        /// Where a page's numbers come from; by default nothing is known.
        public init(
            tool: String = "avt-replay", version: String = "", inputs: [Input] = [], options: [String] = [],
            rejectedLines: Int64 = 0, lateRecords: Int64 = 0, lateRejected: Int64 = 0, carried: Carried? = nil
        ) {
            self.carried = carried
            self.tool = tool
            self.version = version
            self.inputs = inputs
            self.options = options
            self.rejectedLines = rejectedLines
            self.lateRecords = lateRecords
            self.lateRejected = lateRejected
        }
    }

    /// The charts' series colours (Tableau 10), one per series of a chart, so that a rendering
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
        static let vsf = "#e15759"
        static let ebvs = "#f28e2b"
        static let vpf = "#9c755f"
        static let startupBins = "#4e79a7"
        static let rebufferBins = "#59a14f"
    }

    /// The whole page.
    public static func encode(_ page: Page) -> [UInt8] {
        let rows = page.summary.rows
        let bucketRows = rows.filter { $0.bucket != nil }
        let buckets = bucketRows.compactMap { row in row.bucket.map { ($0.milliseconds, row.kpis) } }
        let all = rows.last
        let total = all?.kpis ?? KPIs()
        let bucketLength = page.summary.bucket
        var html = HTMLWriter()
        html.markup(head)
        html.markup(SVGChart.patternDefinitions)
        appendHeader(
            bucketStarts: buckets.map(\.0), bucketLength: bucketLength,
            partialFrom: bucketRows.first(where: \.isPartial)?.bucket?.milliseconds, to: &html)
        appendTiles(total, peak: all?.peakConcurrent ?? 0, to: &html)
        html.markup("<section id=\"trends\">\n<h2>Per bucket of ")
        html.text(durationLabel(bucketLength))
        html.markup("</h2>\n<div class=\"charts\">\n")
        let partialFrom = bucketRows.firstIndex(where: \.isPartial)
        for chart in charts(buckets, bucketLength: bucketLength, partialFrom: partialFrom) {
            chart.append(to: &html)
        }
        html.markup("</div>\n</section>\n<section id=\"distributions\">\n<h2>Distributions over the plays</h2>\n")
        html.markup("<div class=\"charts\">\n")
        for histogram in histograms(total) {
            histogram.append(to: &html)
        }
        html.markup("</div>\n</section>\n")
        appendBreakdowns(page.breakdowns, minimumViews: page.breakdownMinimumViews, to: &html)
        appendWorst(page.worst, to: &html)
        appendValuePropositions(page.valuePropositions, to: &html)
        appendStations(page.stations, to: &html)
        appendProvenance(page.provenance, to: &html)
        html.markup(script)
        html.markup("</body>\n</html>\n")
        return html.bytes
    }

    /// The charts over time: startup percentiles, rebuffer percentage, failure rates, views and
    /// plays, failures. `partialFrom` is the index of the first partial bucket.
    static func charts(_ buckets: [(start: Int64, kpis: KPIs)], bucketLength: Int64, partialFrom: Int?)
        -> [SVGChart]
    {
        let starts = buckets.map(\.start)
        func seconds(_ percentile: Double) -> [Double?] {
            buckets.map { bucket in bucket.kpis.startupPercentile(percentile).map { Double($0) / 1000 } }
        }
        func counts(_ value: (KPIs) -> Int64) -> [Double?] { buckets.map { Double(value($0.kpis)) } }
        func percentage(_ part: (KPIs) -> Int64, of whole: (KPIs) -> Int64) -> [Double?] {
            buckets.map { bucket in
                whole(bucket.kpis) > 0 ? 100 * Double(part(bucket.kpis)) / Double(whole(bucket.kpis)) : nil
            }
        }
        func chart(_ title: String, _ series: [SVGChart.Series], isCount: Bool = false, _ background: String)
            -> SVGChart
        {
            SVGChart(
                title: title, bucketStarts: starts, bucketLength: bucketLength, series: series, isCount: isCount,
                plotBackground: background, partialFrom: partialFrom)
        }
        return [
            chart(
                "Startup time percentiles (s)",
                [
                    .init(name: "p50", colour: Colour.startupP50, values: seconds(50)),
                    .init(name: "p90", colour: Colour.startupP90, values: seconds(90)),
                    .init(name: "p95", colour: Colour.startupP95, values: seconds(95)),
                    .init(name: "p99", colour: Colour.startupP99, values: seconds(99)),
                ], "#fafbfd"),
            chart(
                "Rebuffer percentage (%)",
                [
                    .init(
                        name: "rebuffer %", colour: Colour.rebufferPercentage,
                        values: percentage(\.rebufferTime, of: \.watchTime))
                ], "#fbfafd"),
            chart(
                "Failure rates (%)",
                [
                    .init(name: "VSF %", colour: Colour.vsf, values: percentage(\.startFailures, of: \.views)),
                    .init(name: "EBVS %", colour: Colour.ebvs, values: percentage(\.exitsBeforeStart, of: \.views)),
                    .init(name: "VPF %", colour: Colour.vpf, values: percentage(\.playbackFailures, of: \.plays)),
                ], "#fdfafb"),
            chart(
                "Views and plays",
                [
                    .init(name: "views", colour: Colour.views, values: counts(\.views)),
                    .init(name: "plays", colour: Colour.plays, values: counts(\.plays)),
                ], isCount: true, "#fdfbfa"),
            chart(
                "Failures",
                [
                    .init(name: "start failures", colour: Colour.startFailures, values: counts(\.startFailures)),
                    .init(
                        name: "playback failures", colour: Colour.playbackFailures, values: counts(\.playbackFailures)),
                ], isCount: true, "#fafdfb"),
        ]
    }

    /// The startup-time histogram and the rebuffer-ratio distribution of the plays.
    static func histograms(_ total: KPIs) -> [SVGHistogram] {
        return [
            SVGHistogram(
                title: "Startup time (s)", caption: "plays by startup_ms, each bar from its label to the next",
                binLabels: SVGHistogram.binLabels(edges: KPIs.startupBinEdges.map { decimal($0, per: 1000) }),
                counts: total.startupBins, name: "startup", colour: Colour.startupBins, plotBackground: "#fbfdfa"),
            SVGHistogram(
                title: "Rebuffer ratio (%)", caption: "plays with watch time by rebuffer_ms / watch_ms",
                binLabels: SVGHistogram.binLabels(edges: KPIs.rebufferBinEdges.map { decimal($0, per: 100) }),
                counts: total.rebufferBins, name: "rebuffer", colour: Colour.rebufferBins, plotBackground: "#fafcfd"),
        ]
    }

    /// `value / unit` in decimal without trailing zeros, for `unit` a power of ten: `0.25`, `1`, `0.01`.
    static func decimal(_ value: Int64, per unit: Int64) -> String {
        let whole = String(value / unit)
        var fraction = String(value % unit)
        guard value % unit != 0 else { return whole }
        fraction = String(repeating: "0", count: String(unit).count - 1 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return whole + "." + fraction
    }
}
