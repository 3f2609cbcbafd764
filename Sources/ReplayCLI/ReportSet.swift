import EventLog
import EventModel
import Foundation
import Replay
import ReportEncoding

/// Every report file of a run, written as sessions close and committed together at the end.
///
/// Session reports are written by the pipeline's writer queue and input problems by the
/// reading thread; the two touch different files.
final class ReportSet {
    private let playbacks: ReportWriter
    private let vpSessions: ReportWriter
    private let marconiItems: ReportWriter
    private let influx: ReportWriter
    private let graphite: ReportWriter
    private let rejects: ReportWriter
    private let trace: ReportWriter?
    private let metrics: MetricsReport
    private let summaryPath: String
    private var summary: KPISummary
    /// The page's KPIs: every playback together, whatever `--group-by` splits `summary.csv` by
    /// (`nil` without `--group-by`, when they are `summary`'s).
    private var pageSummary: KPISummary?
    private let htmlPath: String
    private var worst = WorstPlaybacks()
    private let aggregatesPath: String
    private var aggregates: MetricAggregates
    /// Whether the aggregates also go to `metrics.influx` and `metrics.graphite` (`--aggregate`).
    private let aggregatesAsPoints: Bool

    /// The file names, in the order they are committed.
    static let names = [
        "playbacks.csv", "vp_sessions.csv", "marconi_items.csv", "summary.csv", "aggregates.csv", "report.html",
        "metrics.influx", "metrics.graphite", "rejects.jsonl", "events.jsonl",
    ]

    /// Sessions are written when their first record is in this window (`--since`, `--until`).
    private let window: Range<Timestamp>

    init(
        folder: String, withTrace: Bool, prefix: String, bucket: Int64, groupBy: GroupBy = .none,
        aggregatesAsPoints: Bool = false,
        window: Range<Timestamp> = Timestamp(milliseconds: .min)..<Timestamp(milliseconds: .max)
    ) throws(AtomicFile.WriteError) {
        self.window = window
        try AtomicFile.makeDirectory(folder)
        func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
        playbacks = try ReportWriter(path: path("playbacks.csv"))
        vpSessions = try ReportWriter(path: path("vp_sessions.csv"))
        marconiItems = try ReportWriter(path: path("marconi_items.csv"))
        influx = try ReportWriter(path: path("metrics.influx"))
        graphite = try ReportWriter(path: path("metrics.graphite"))
        rejects = try ReportWriter(path: path("rejects.jsonl"))
        trace = withTrace ? try ReportWriter(path: path("events.jsonl")) : nil
        metrics = MetricsReport(prefix: prefix)
        summaryPath = path("summary.csv")
        summary = KPISummary(bucket: bucket, groupBy: groupBy)
        pageSummary = groupBy.keys.isEmpty ? nil : KPISummary(bucket: bucket)
        htmlPath = path("report.html")
        aggregatesPath = path("aggregates.csv")
        aggregates = MetricAggregates(bucket: bucket, groupBy: groupBy)
        self.aggregatesAsPoints = aggregatesAsPoints
        playbacks.append(PlaybacksReport.header())
        vpSessions.append(VPSessionsReport.header())
        marconiItems.append(MarconiItemsReport.header())
    }

    /// Whether a closed session's reports are written: its first record is in the window.
    func includes(_ report: SessionReport) -> Bool {
        report.firstTimestamp.map(window.contains) ?? false
    }

    /// Writes what a closed session produced.
    func write(_ report: SessionReport) {
        summary.add(report)
        pageSummary?.add(report)
        worst.add(report)
        aggregates.add(report)
        var rows: [UInt8] = []
        if !report.playbacks.isEmpty {
            PlaybacksReport.appendRows(report.playbacks, into: &rows)
            playbacks.append(rows)
        }
        if !report.vpSessions.isEmpty {
            rows.removeAll(keepingCapacity: true)
            VPSessionsReport.appendRows(report.vpSessions, into: &rows)
            vpSessions.append(rows)
        }
        if !report.marconiItems.isEmpty {
            rows.removeAll(keepingCapacity: true)
            MarconiItemsReport.appendRows(report.marconiItems, into: &rows)
            marconiItems.append(rows)
        }
        if !report.points.isEmpty {
            influx.append(metrics.influx(report.points))
            graphite.append(metrics.graphite(report.points))
        }
        if let trace, !report.trace.isEmpty {
            trace.append(TraceReport.encode(report.trace))
        }
    }

    /// Writes one problem with the input to `rejects.jsonl`.
    func write(_ problem: InputProblem) {
        rejects.append(problem.encoded())
    }

    /// Writes `summary.csv`, `aggregates.csv` and `report.html` (and with `--aggregate` the aggregates
    /// as points), then renames every file over its target.
    func commit() throws(AtomicFile.WriteError) {
        try AtomicFile.write(SummaryReport.encode(summary), to: summaryPath)
        try AtomicFile.write(AggregatesReport.encode(aggregates), to: aggregatesPath)
        try AtomicFile.write(HTMLReport.encode(pageSummary ?? summary, worst: worst), to: htmlPath)
        if aggregatesAsPoints {
            influx.append(metrics.influx(aggregates))
            graphite.append(metrics.graphite(aggregates))
        }
        for writer in [playbacks, vpSessions, marconiItems, influx, graphite, rejects] {
            try writer.commit()
        }
        try trace?.commit()
    }

    /// Removes the temporary files of a run that failed, leaving the previous reports as they
    /// were. The pipeline's threads keep the set alive until the process ends, so this cannot
    /// be left to the writers' `deinit`.
    func discard() {
        for writer in [playbacks, vpSessions, marconiItems, influx, graphite, rejects] { writer.discard() }
        trace?.discard()
    }
}
