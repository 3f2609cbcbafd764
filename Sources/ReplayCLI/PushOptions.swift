import ArgumentParser
import Foundation
import MetricsPush

/// `--influx`, `--graphite` and `--spool`: where metrics go besides the files.
struct PushOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Also write metrics.influx to InfluxDB 1.x at this write URL (precision=ns is added).",
            valueName: "url"))
    var influx: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Also send metrics.graphite to carbon's plaintext port.", valueName: "host:port"))
    var graphite: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where batches that could not be delivered are kept until a later run or flush (default: <out>/spool).",
            valueName: "dir"))
    var spool: String?

    /// Lines per batch sent.
    static let batchLines = 5_000

    var isEnabled: Bool { influx != nil || graphite != nil }

    func validate() throws {
        if let influx, InfluxSink(url: influx) == nil {
            throw ValidationError("--influx must be an http(s) URL such as http://127.0.0.1:8086/write?db=telemetry.")
        }
        // A write URL without a database can never work: InfluxDB refuses every batch.
        if let influx, let query = URLComponents(string: influx)?.queryItems,
            query.contains(where: { $0.name == "db" && !($0.value ?? "").isEmpty })
        {
        } else if let influx {
            throw ValidationError(
                "--influx needs the database: \(influx) has no db=, as in http://127.0.0.1:8086/write?db=telemetry.")
        }
        if let graphite, GraphiteSink(address: graphite) == nil {
            throw ValidationError("--graphite must be HOST:PORT, such as 127.0.0.1:2003.")
        }
    }

    /// The sinks asked for, with the file each one sends.
    var sinks: [(sink: any MetricsSink, file: String)] {
        var sinks: [(any MetricsSink, String)] = []
        if let influx, let sink = InfluxSink(url: influx) { sinks.append((sink, "metrics.influx")) }
        if let graphite, let sink = GraphiteSink(address: graphite) { sinks.append((sink, "metrics.graphite")) }
        return sinks
    }

    /// What became of one server's batches in a push (`run.json`).
    struct SinkSummary {
        var name: String
        var delivered: Int
        var fromSpool: Int
        var kept: Int
        var refused: Int
        var lost: Int
        /// Batches left in the spool for this server after the push.
        var waiting: Int
        var unreachable: String?
    }

    /// What became of the metrics of one push, over every server.
    enum Result {
        /// Every batch reached its server.
        case delivered
        /// Some batches are kept in the spool for a later run or `flush`.
        case kept
        /// Some batches were neither delivered nor kept.
        case lost

        /// The run's exit status given its status before the push.
        func status(after status: ExitStatus) -> ExitStatus {
            switch self {
            case .delivered: status
            case .kept: .metricsKept
            case .lost: .metricsLost
            }
        }
    }

    /// Sends what the spool kept, then the folder's metric files (none when `folder` is nil),
    /// printing what happened to them and why.
    func push(fromFolder folder: String?, quiet: Bool) -> (result: Result, sinks: [SinkSummary]) {
        let spool = Spool(directory: spool ?? ((folder ?? "reports") as NSString).appendingPathComponent("spool"))
        var result = Result.delivered
        var summaries: [SinkSummary] = []
        for (sink, file) in sinks {
            let batches = folder.map {
                LineBatches(path: ($0 as NSString).appendingPathComponent(file), lines: Self.batchLines)
            }
            let pusher = Pusher(sink: sink, spool: spool, wait: ReplayTool.current.pauseBeforeRetry)
            let outcome = pusher.push(batches.map(AnySequence.init) ?? AnySequence([]))
            for refusal in outcome.refused {
                printError("avt-replay: \(sink.name) refused a batch: \(refusal)")
            }
            for loss in outcome.lost {
                printError("avt-replay: \(sink.name): a batch was lost: \(loss)")
            }
            let waiting = spool.pending(for: sink.name).count
            summaries.append(
                SinkSummary(
                    name: sink.name, delivered: outcome.delivered, fromSpool: outcome.flushed, kept: outcome.spooled,
                    refused: outcome.refused.count, lost: outcome.lost.count, waiting: waiting,
                    unreachable: outcome.unreachable))
            if !outcome.lost.isEmpty {
                result = .lost
            } else if waiting > 0, case .delivered = result {
                result = .kept
            }
            if !quiet || !outcome.deliveredEverything || waiting > 0 {
                var text = "avt-replay: \(sink.name): \(outcome.delivered) batches delivered"
                if outcome.flushed > 0 { text += ", \(outcome.flushed) from the spool" }
                if outcome.spooled > 0 { text += ", \(outcome.spooled) kept in \(spool.directory)" }
                if let cause = outcome.unreachable { text += " (the server was unreachable: \(cause))" }
                if !outcome.refused.isEmpty { text += ", \(outcome.refused.count) refused (kept)" }
                if !outcome.lost.isEmpty { text += ", \(outcome.lost.count) LOST (neither delivered nor kept)" }
                if waiting > 0 { text += "; \(waiting) waiting in the spool for a later run or flush" }
                printError(text)
            }
        }
        return (result, summaries)
    }
}
