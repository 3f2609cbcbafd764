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

    /// Sends what the spool kept, then the folder's metric files (none when `folder` is nil);
    /// returns whether everything was delivered.
    func push(fromFolder folder: String?, quiet: Bool) -> Bool {
        let spool = Spool(directory: spool ?? ((folder ?? "reports") as NSString).appendingPathComponent("spool"))
        var everything = true
        for (sink, file) in sinks {
            let batches = folder.map {
                LineBatches(path: ($0 as NSString).appendingPathComponent(file), lines: Self.batchLines)
            }
            let pusher = Pusher(sink: sink, spool: spool, wait: ReplayTool.current.pauseBeforeRetry)
            let outcome = pusher.push(batches.map(AnySequence.init) ?? AnySequence([]))
            for refusal in outcome.refused {
                printError("avt-replay: \(sink.name) refused a batch: \(refusal)")
            }
            if outcome.spooled > 0 || !outcome.refused.isEmpty { everything = false }
            if !quiet || outcome.spooled > 0 {
                var text = "avt-replay: \(sink.name): \(outcome.delivered) batches delivered"
                if outcome.flushed > 0 { text += ", \(outcome.flushed) from the spool" }
                if outcome.spooled > 0 {
                    text += ", \(outcome.spooled) kept in \(spool.directory) (the server was unreachable)"
                }
                if !outcome.refused.isEmpty { text += ", \(outcome.refused.count) refused" }
                printError(text)
            }
            if !spool.pending(for: sink.name).isEmpty && outcome.spooled == 0 { everything = false }
        }
        return everything
    }
}
