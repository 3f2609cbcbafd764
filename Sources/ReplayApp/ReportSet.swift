import EventLog
import EventModel
import Foundation
import Replay
import ReportEncoding

/// Every report file of a run, written as lives hand their outputs over and committed together at the end.
///
/// Session reports are written by the pipeline's writer queue and input problems by the
/// reading thread; the two touch different files. A sharded run (``Sharding``) also writes
/// `sessions.index` and `summary.state`, which `merge` reads.
package final class ReportSet {
    /// The files written session by session, by ``SessionFile`` raw value (`nil`: the trace
    /// without `--trace`).
    private let sessionFiles: [ReportWriter?]
    private let rejects: ReportWriter
    /// The lines of `rejects.jsonl`, kept (on disk past a few in memory) as a run notes them,
    /// in the order it reads, and written in their order (``RejectsOrder``) when the set is
    /// staged.
    private let rejectLines: RejectsSpool
    private let metrics: MetricsReport
    /// The encoder of `metrics.influx`, kept from one session to the next.
    private var influxEncoder = InfluxLineEncoder()
    /// The times of the points written to `metrics.influx`, kept so that none is used twice.
    private var influxTimes = InfluxPointTimes()
    /// A session's rows of one file as they are encoded, kept from session to session: made
    /// anew, each session's buffer grew (and was reallocated) a few times over (docs/performance.md).
    private var rows: [UInt8] = []
    /// The bytes each file got of a session, for `sessions.index`, kept likewise.
    private var sessionBytes = [Int](repeating: 0, count: SessionFile.allCases.count)
    private let summaryPath: String
    private var summary: KPISummary
    /// The page's KPIs: every playback together, whatever `--group-by` splits `summary.csv` by
    /// (`nil` without `--group-by`, when they are `summary`'s).
    private var pageSummary: KPISummary?
    /// The page's breakdowns: one summary per `--group-by` key, split by that key alone.
    private var breakdowns: [KPISummary]
    /// The floor of views of a breakdown's rows (`--breakdown-min-views`).
    private let breakdownMinimumViews: Int64
    private let htmlPath: String
    private var worst = WorstPlaybacks()
    /// The page's value propositions and radio stations: the sessions and items this run closed.
    private var valuePropositions = VPSessionsByName()
    private var stations = MarconiItemsByStation()
    private let aggregatesPath: String
    private var aggregates: MetricAggregates
    /// What `metrics.influx` and `metrics.graphite` hold (`--metrics`, `--aggregate`).
    private let metricPoints: MetricPoints
    /// With `--metrics playbacks`, the encoder of the rows' points.
    private var rowMetrics: RowMetrics?
    private let sharding: Sharding?
    /// A sharded run's: ``RunState/identity(ofHeaderLine:)`` of the state it leaves, for its
    /// `summary.state`.
    var stateIdentity: String?
    private let prefix: String
    private let index: ReportWriter?
    /// The files written whole at the end (``stage()``), waiting to be published.
    private var stagedFiles: [ReportWriter] = []
    private let statePath: String

    /// What a sharded run (`--shard K/N`) adds to its reports for `merge`.
    package struct Sharding {
        package var shard: Shard
        /// The options that shape the reports (``SummaryState/options``).
        package var options: [String]
    }

    /// The names of the files `merge` reads besides the reports.
    static let indexName = "sessions.index"
    static let stateName = "summary.state"
    /// The folder in the set's folder that holds the rejects spooled (``RejectsSpool``) until
    /// the set is staged.
    static let rejectsSpoolName = ".rejects-spool"

    /// Sessions are written when their first record is in this window (`--since`, `--until`).
    private let window: Range<Timestamp>

    package init(
        folder: String, withTrace: Bool, prefix: String, bucket: Int64, groupBy: GroupBy = .none,
        metricPoints: MetricPoints = .events,
        window: Range<Timestamp> = Timestamp(milliseconds: .min)..<Timestamp(milliseconds: .max),
        sharding: Sharding? = nil, breakdownMinimumViews: Int64 = HTMLReport.Page.defaultBreakdownMinimumViews,
        rejectsMemoryLimit: Int = RejectsSpool.defaultMemoryLimit
    ) throws(AtomicFile.WriteError) {
        self.window = window
        self.breakdownMinimumViews = breakdownMinimumViews
        try AtomicFile.makeDirectory(folder)
        func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
        var files: [ReportWriter?] = []
        for file in SessionFile.allCases {
            if file == .trace && !withTrace {
                files.append(nil)
                continue
            }
            let writer = try ReportWriter(path: path(file.name))
            writer.append(file.header)
            files.append(writer)
        }
        sessionFiles = files
        rejects = try ReportWriter(path: path("rejects.jsonl"))
        rejectLines = RejectsSpool(folder: path(Self.rejectsSpoolName), memoryLimit: rejectsMemoryLimit)
        metrics = MetricsReport(prefix: prefix, idsAsFields: true)
        rowMetrics = metricPoints.rows ? RowMetrics(prefix: prefix, groupBy: groupBy) : nil
        self.prefix = prefix
        summaryPath = path("summary.csv")
        summary = KPISummary(bucket: bucket, groupBy: groupBy)
        pageSummary = groupBy.keys.isEmpty ? nil : KPISummary(bucket: bucket)
        breakdowns = groupBy.keys.map { KPISummary(bucket: bucket, groupBy: GroupBy([$0]), keepsPlaybackSpans: false) }
        htmlPath = path("report.html")
        aggregatesPath = path("aggregates.csv")
        aggregates = MetricAggregates(bucket: bucket, groupBy: groupBy)
        self.metricPoints = metricPoints
        self.sharding = sharding
        statePath = path(Self.stateName)
        if sharding != nil {
            let index = try ReportWriter(path: path(Self.indexName))
            index.append(SessionsIndex.header())
            self.index = index
        } else {
            index = nil
        }
    }

    /// Whether a closed session's reports are written: its first record is in the window.
    func includes(_ report: SessionReport) -> Bool {
        report.firstTimestamp.map(window.contains) ?? false
    }

    /// Writes what a closed session produced.
    func write(_ report: SessionReport) {
        summary.add(report)
        pageSummary?.add(report)
        for index in breakdowns.indices { breakdowns[index].add(report) }
        worst.add(report)
        valuePropositions.add(report)
        stations.add(report)
        aggregates.add(report)
        for file in SessionFile.allCases {
            sessionBytes[file.rawValue] = 0
            guard let writer = sessionFiles[file.rawValue] else { continue }
            sessionBytes[file.rawValue] = append(file, of: report, to: writer)
        }
        index?.append(SessionsIndex.encode(SessionsIndex.Entry(order: report.order, bytes: sessionBytes)))
    }

    /// Appends a session's rows, lines or points to one of the files; returns their size in bytes.
    private func append(_ file: SessionFile, of report: SessionReport, to writer: ReportWriter) -> Int {
        rows.removeAll(keepingCapacity: true)
        switch file {
        case .playbacks:
            if !report.playbacks.isEmpty { PlaybacksReport.appendRows(report.playbacks, into: &rows) }
        case .vpSessions:
            if !report.vpSessions.isEmpty { VPSessionsReport.appendRows(report.vpSessions, into: &rows) }
        case .marconiItems:
            if !report.marconiItems.isEmpty { MarconiItemsReport.appendRows(report.marconiItems, into: &rows) }
        case .trace:
            if !report.trace.isEmpty { rows = TraceReport.encode(report.trace) }
        case .influx:
            if rowMetrics != nil {
                rowMetrics?.appendInflux(report, into: &rows)
                break
            }
            guard metricPoints.events else { return 0 }
            // The metrics, the largest files, are encoded straight into the file's buffer.
            return writer.append {
                metrics.appendInflux(report.points, with: &influxEncoder, times: &influxTimes, into: &$0)
            }
        case .graphite:
            guard metricPoints.events else { return 0 }
            return writer.append { metrics.appendGraphite(report.points, into: &$0) }
        }
        if !rows.isEmpty { writer.append(rows) }
        return rows.count
    }

    /// Writes one problem with the input to `rejects.jsonl`.
    func write(_ problem: InputProblem) {
        let place = problem.place
        rejectLines.add(file: place.file, line: place.line) { problem.encode(into: &$0) }
    }

    /// Appends a session's bytes, as a shard wrote them, to one of the files (`merge`).
    func append(_ bytes: [UInt8], to file: SessionFile) {
        sessionFiles[file.rawValue]?.append(bytes)
    }

    /// Writes a line of a shard's `rejects.jsonl` (with its newline), of `file` at `line`
    /// (`nil`: the whole file), to `rejects.jsonl` (`merge`).
    func appendReject(_ bytes: [UInt8], file: String, line: Int?) {
        rejectLines.add(file: file, line: line) { $0.append(contentsOf: bytes) }
    }

    /// Writes the rejects noted so far in their order (a line's problems in the order noted),
    /// and removes their spool.
    private func writeRejectLines() throws(AtomicFile.WriteError) {
        do throws(AtomicFile.WriteError) {
            try rejectLines.write(into: rejects)
        } catch {
            throw AtomicFile.WriteError(path: rejects.path, reason: error.reason)
        }
    }

    /// What a shard's `summary.state` holds for `report.html`, besides its summary.
    struct PageParts {
        var page: KPISummary?
        var breakdowns: [KPISummary]
        var worst: [WorstPlaybacks.Entry]
        var valuePropositions: VPSessionsByName
        var stations: MarconiItemsByStation
    }

    /// Adds a shard's summary, aggregates and page (`merge`).
    func merge(summary other: KPISummary, aggregates otherAggregates: MetricAggregates, page parts: PageParts) {
        summary.merge(other)
        aggregates.merge(otherAggregates)
        if let otherPage = parts.page { pageSummary?.merge(otherPage) }
        for (index, breakdown) in zip(breakdowns.indices, parts.breakdowns) { breakdowns[index].merge(breakdown) }
        worst.merge(parts.worst)
        valuePropositions.merge(parts.valuePropositions)
        stations.merge(parts.stations)
    }

    /// The buckets still open when a run leaves lives to the next one, as ``KPISummary`` and
    /// ``MetricAggregates`` states: the next run adds them (``addCarried(_:)``) and writes
    /// those buckets whole.
    struct Carried: Codable {
        var summary: KPISummary.State?
        var page: KPISummary.State?
        var aggregates: MetricAggregates.State?
        /// The page's breakdowns, one per `--group-by` key (`nil` for a breakdown without an open bucket).
        var breakdowns: [KPISummary.State?]?
    }

    /// Marks the buckets that end after `time` as still open (their rows say `partial`), and
    /// returns what the buckets from `kept` on (no later than `time`) hold, for the next run.
    /// A shard keeps buckets from earlier than its own open ones: the next night's merge
    /// re-writes those every shard keeps open (``addCarried(_:from:)``).
    func leaveOpen(from time: Timestamp, keepingFrom kept: Timestamp? = nil) -> Carried {
        summary.openFrom = time
        pageSummary?.openFrom = time
        for index in breakdowns.indices { breakdowns[index].openFrom = time }
        aggregates.openFrom = time
        let from = min(time, kept ?? time)
        return Carried(
            summary: summary.carried(from: from)?.state, page: pageSummary?.carried(from: from)?.state,
            aggregates: aggregates.carried(from: from)?.state,
            breakdowns: breakdowns.isEmpty ? nil : breakdowns.map { $0.carried(from: from)?.state })
    }

    /// Adds the open buckets an earlier run carried; with `time`, only those from the one that
    /// holds it on (a shard's state keeps more: the merge of its night says which are open).
    func addCarried(_ carried: Carried, from time: Timestamp? = nil) throws(StateError) {
        func check(_ bucket: Int64, _ groupBy: [String], against other: (Int64, [String])) throws(StateError) {
            guard (bucket, groupBy) == other else {
                throw StateError("the state's open buckets were made with another --bucket or --group-by")
            }
        }
        func kept(_ state: KPISummary.State) throws(StateError) -> KPISummary? {
            let carried = try KPISummary(state: state)
            return time.map { carried.carried(from: $0) } ?? carried
        }
        if let state = carried.summary {
            try check(state.bucket, state.groupBy, against: (summary.bucket, summary.groupBy.keys))
            if let buckets = try kept(state) { summary.merge(buckets) }
        }
        if let state = carried.page, let page = pageSummary {
            try check(state.bucket, state.groupBy, against: (page.bucket, page.groupBy.keys))
            if let buckets = try kept(state) { pageSummary?.merge(buckets) }
        }
        for (index, state) in zip(breakdowns.indices, carried.breakdowns ?? []) {
            guard let state else { continue }
            try check(state.bucket, state.groupBy, against: (breakdowns[index].bucket, breakdowns[index].groupBy.keys))
            if let buckets = try kept(state) { breakdowns[index].merge(buckets) }
        }
        if let state = carried.aggregates {
            try check(state.bucket, state.groupBy, against: (aggregates.bucket, aggregates.groupBy.keys))
            let carried = try MetricAggregates(state: state)
            if let rows = time.map({ carried.carried(from: $0) }) ?? carried { aggregates.merge(rows) }
        }
    }

    /// Stages every report and then publishes them (``stage(provenance:)``, ``publish()``).
    package func commit(provenance: HTMLReport.Provenance) throws(AtomicFile.WriteError) {
        try stage(provenance: provenance)
        try publish()
    }

    /// Writes `summary.csv`, `aggregates.csv` and `report.html` (and with `--aggregate` the
    /// aggregates as points), and a sharded run's `sessions.index` and `summary.state`, and
    /// flushes every file to disk beside its target: nothing visible changes until
    /// ``publish()``, and ``discard()`` removes them all. `provenance` is the foot of the page.
    func stage(provenance: HTMLReport.Provenance) throws(AtomicFile.WriteError) {
        do throws(AtomicFile.WriteError) {
            try stage(SummaryReport.encode(summary), to: summaryPath)
            try stage(AggregatesReport.encode(aggregates), to: aggregatesPath)
            let page = HTMLReport.Page(
                summary: pageSummary ?? summary, worst: worst, breakdowns: breakdowns,
                valuePropositions: valuePropositions, stations: stations, provenance: provenance,
                breakdownMinimumViews: breakdownMinimumViews)
            try stage(HTMLReport.encode(page), to: htmlPath)
            if metricPoints.influxAggregates {
                sessionFiles[SessionFile.influx.rawValue]?.append(metrics.influx(aggregates))
            }
            if metricPoints.graphiteAggregates {
                sessionFiles[SessionFile.graphite.rawValue]?.append(metrics.graphite(aggregates))
            }
            try writeRejectLines()
            for writer in sessionFiles.compactMap({ $0 }) + [rejects] {
                try writer.stage()
            }
            guard let sharding, let index else { return }
            try index.stage()
            let state = SummaryState(
                shard: sharding.shard.index, shards: sharding.shard.count, options: sharding.options, prefix: prefix,
                aggregate: metricPoints.influxAggregates, graphiteAggregate: metricPoints.graphiteAggregates,
                trace: sessionFiles[SessionFile.trace.rawValue] != nil,
                summary: summary.state, aggregates: aggregates.state, page: pageSummary?.state,
                breakdowns: breakdowns.map(\.state), worst: worst.state, valuePropositions: valuePropositions,
                stations: stations, provenance: provenance, openFrom: summary.openFrom?.milliseconds,
                state: stateIdentity)
            let encoded: [UInt8]
            do {
                encoded = try state.encoded()
            } catch {
                throw AtomicFile.WriteError(path: statePath, reason: "\(error)")
            }
            try stage(encoded, to: statePath)
        } catch {
            discard()
            throw error
        }
    }

    /// Renames every staged file to its name in the set's folder, the reports first and
    /// `rejects.jsonl` last (``ReportFolder`` then puts the folder in place of the previous set).
    func publish() throws(AtomicFile.WriteError) {
        var writers = stagedFiles + sessionFiles.compactMap { $0 }
        if let index { writers.append(index) }
        for writer in writers + [rejects] {
            try writer.publish()
        }
        stagedFiles = []
    }

    /// Writes `bytes` to a staged file for `path`.
    private func stage(_ bytes: [UInt8], to path: String) throws(AtomicFile.WriteError) {
        let writer = try ReportWriter(path: path)
        stagedFiles.append(writer)
        writer.append(bytes)
        try writer.stage()
    }

    /// Keeps `rejects.jsonl` as it is so far at `path` (beside the report folder), flushed to
    /// disk and renamed into place: what a refused run leaves of its set.
    func keepRejects(at path: String) throws(AtomicFile.WriteError) {
        try writeRejectLines()
        try rejects.stage()
        try rejects.publish(to: path)
    }

    /// The `--group-by` keys for which no row so far has a value.
    var groupByKeysWithoutValues: [String] {
        let groups = summary.groupValues
        guard !groups.isEmpty else { return [] }
        return summary.groupBy.keys.indices.filter { index in groups.allSatisfy { $0[index].isEmpty } }
            .map { summary.groupBy.keys[$0] }
    }

    /// Removes the temporary files of a run that failed, leaving the previous reports as they
    /// were. The pipeline's threads keep the set alive until the process ends, so this cannot
    /// be left to the writers' `deinit`.
    func discard() {
        for writer in stagedFiles + sessionFiles.compactMap({ $0 }) + [rejects] { writer.discard() }
        index?.discard()
        rejectLines.reset()
        stagedFiles = []
    }
}
