import ArgumentParser
import Foundation
import MetricsPush
import ReplayApp

/// `--influx`, `--graphite` and `--spool`: where metrics go besides the files.
struct PushOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Also write metrics.influx to InfluxDB: a 1.x write URL (http://HOST:8086/write?db=DB, optionally rp= and a USER@) or a 2.x/3.x one (http://HOST:8086/api/v2/write?org=ORG&bucket=BUCKET); precision=ns is added.",
            valueName: "url"))
    var influx: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A file holding InfluxDB's token (2.x/3.x) or the user's password (1.x); else the AVT_REPLAY_INFLUX_SECRET environment variable. Never on the command line.",
            valueName: "file"))
    var influxSecretFile: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Also send metrics.graphite to carbon's plaintext port.", valueName: "host:port"))
    var graphite: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where batches that could not be delivered are kept until a later run or flush (default: <out>.spool, beside the reports).",
            valueName: "dir"))
    var spool: String?

    /// Lines per batch sent.
    static let batchLines = 5_000

    var isEnabled: Bool { influx != nil || graphite != nil }

    func validate() throws {
        guard UsageError.checksValues else { return }
        if influx != nil {
            do {
                _ = try influxSink()
            } catch {
                throw ValidationError("--influx: \(error)")
            }
        }
        if let graphite, GraphiteSink(address: graphite) == nil {
            throw ValidationError("--graphite must be HOST:PORT, such as 127.0.0.1:2003.")
        }
    }

    /// Refuses a `--spool` inside the report folder, which each run replaces whole.
    func validate(besideReportsIn out: String) throws {
        guard let spool else { return }
        let folder = URL(fileURLWithPath: out).standardizedFileURL.path
        let kept = URL(fileURLWithPath: spool).standardizedFileURL.path
        if kept == folder || kept.hasPrefix(folder + "/") {
            throw ValidationError(
                "--spool \(spool) is inside --out \(out), which each run replaces whole: keep the spool beside it "
                    + "(the default, \(ReportFolder.defaultSpool(of: out))).")
        }
    }

    /// The environment variable that may hold InfluxDB's token or password.
    static let secretVariable = "AVT_REPLAY_INFLUX_SECRET"

    /// The InfluxDB sink asked for, with its secret from `--influx-secret-file` or the
    /// environment (the file's last line feed left out).
    func influxSink() throws -> InfluxSink? {
        guard let influx else { return nil }
        var secret = ProcessInfo.processInfo.environment[Self.secretVariable]
        if let influxSecretFile {
            guard let data = FileManager.default.contents(atPath: influxSecretFile) else {
                throw InfluxSink.AddressError(description: "cannot read \(influxSecretFile)")
            }
            var text = String(decoding: data, as: UTF8.self)
            while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
            secret = text
        }
        if secret?.isEmpty == true { secret = nil }
        return try InfluxSink(url: influx, secret: secret)
    }

    /// The sinks asked for, with the file each one sends.
    var sinks: [(sink: any MetricsSink, file: String)] {
        var sinks: [(any MetricsSink, String)] = []
        if let sink = try? influxSink() { sinks.append((sink, "metrics.influx")) }
        if let graphite, let sink = GraphiteSink(address: graphite) { sinks.append((sink, "metrics.graphite")) }
        return sinks
    }

    /// Sends what the spool kept, then the folder's metric files (none when `folder` is nil),
    /// printing what happened to them and why.
    func push(fromFolder folder: String?, quiet: Bool) -> (result: PushResult, sinks: [PushSinkSummary]) {
        var spool = Spool(directory: spool ?? ReportFolder.defaultSpool(of: folder ?? "reports"))
        spool.beforeStep = { DiskStep.reach($0) }
        // Held over every server's push, so that another run or flush from the same spool waits
        // for all of them.
        let lock = SpoolLock(spool: spool) { holder in
            printError(
                "avt-replay: waiting for the spool \(spool.directory), held by "
                    + (holder.map { "pid \($0)" } ?? "another process") + " (another run or flush)")
        }
        defer { lock.release() }
        var result = PushResult.delivered
        var summaries: [PushSinkSummary] = []
        for (sink, file) in sinks {
            let path = folder.map { ($0 as NSString).appendingPathComponent(file) }
            let batches = path.map { LineBatches(path: $0, lines: Self.batchLines) }
            var pusher = Pusher(sink: sink, spool: spool, wait: ReplayTool.current.pauseBeforeRetry)
            pusher.lock = lock
            let outcome = pusher.push(batches.map(AnySequence.init) ?? AnySequence([]), from: path)
            if let problem = outcome.spoolError {
                printError("avt-replay: \(sink.name): \(problem)")
            }
            for refusal in outcome.refused {
                printError("avt-replay: \(sink.name) refused a batch: \(refusal)")
            }
            for loss in outcome.lost {
                printError("avt-replay: \(sink.name): LOST \(loss)")
            }
            let waiting = spool.pending(for: sink.name).count
            summaries.append(
                PushSinkSummary(
                    name: sink.name, delivered: outcome.delivered, fromSpool: outcome.flushed, kept: outcome.spooled,
                    refused: outcome.refused.count, lost: outcome.lost.count, waiting: waiting,
                    unreachable: outcome.unreachable))
            if !outcome.lost.isEmpty {
                result = .lost
            } else if waiting > 0 || outcome.spoolError != nil, case .delivered = result {
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
