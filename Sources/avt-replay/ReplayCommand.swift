import ArgumentParser
import EventLog
import EventModel
import Foundation
import Replay
import ReportEncoding

/// `avt-replay [options] FILE...`: replays event logs and writes the reports.
@main
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "avt-replay",
        abstract: "Replay recorded OpenAVT player telemetry and write analytics reports.",
        discussion: """
            Reads gzipped or plain JSON Lines event logs (- for standard input), replays each \
            instrument's records in time order through the OpenAVT hub and metricalc, and writes \
            playbacks.csv, vp_sessions.csv, metrics.influx, metrics.graphite and rejects.jsonl (and \
            events.jsonl with --trace) into the output folder, each file whole or not at all. The same logs, \
            in any order, always give the same bytes.

            Exit status: 0 when every line was replayed, 1 when some input was skipped (see \
            rejects.jsonl), 2 for a usage error, 3 when the reports could not be written.

            Examples:
              avt-replay logs/*.jsonl.gz
              avt-replay --out /var/reports/2025-11-20 --quiet logs/2025112*.jsonl.gz
              avt-replay --trace --trace-rejected --out expected/ recorded/*.jsonl.gz
              zcat today.jsonl.gz | avt-replay --hub core -
              avt-replay --vp-duration open:complete --vp-middleware metrics=skip-name:debugScreen logs/*.gz
            """
    )

    @Argument(help: "Event log files (.jsonl.gz or .jsonl), or - for standard input.")
    var files: [String] = []

    @Option(name: .long, help: "The folder the reports are written into (created if missing).")
    var out: String = "reports"

    @Flag(name: .long, help: "Also write events.jsonl: every event that left the hub, with its metrics.")
    var trace = false

    @Flag(name: .long, help: "List the events the hub rejected in events.jsonl too (implies --trace).")
    var traceRejected = false

    @Option(name: .long, help: "The hub every instrument runs: ads (HubCoreAds) or core (HubCore).")
    var hub: HubKind = .ads

    @Option(name: .long, help: "The first part of metric names (Graphite path nodes, InfluxDB measurement).")
    var prefix: String = "avt"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Add the milliseconds between two statuses to value-proposition events that have both, as durationFromTo.",
            valueName: "from:to"))
    var vpDuration: [DurationOption] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A value-proposition middleware: duration:FROM:TO, capitalise-keys, skip-category:CAT or skip-name:N[,N]; prefix trace= or metrics= for one output. Applied in order, after --vp-duration.",
            valueName: "[output=]spec"))
    var vpMiddleware: [MiddlewareOption] = []

    @Flag(name: .shortAndLong, help: "Print nothing but fatal errors.")
    var quiet = false

    func validate() throws {
        if files.isEmpty {
            throw ValidationError("Give at least one event log file, or - to read standard input.")
        }
        if files.count(where: { $0 == "-" }) > 1 {
            throw ValidationError("Standard input (-) can be read only once.")
        }
    }

    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(ExitStatus.usage.rawValue)
            }
            exit(withError: error)
        }
    }

    func run() throws {
        let status = execute()
        if status != .success { throw status.exitCode }
    }

    private func execute() -> ExitStatus {
        let clock = ContinuousClock()
        let started = clock.now
        let options = ReplayOptions(
            hub: hub, includeTrace: trace || traceRejected, includeRejected: traceRejected,
            middlewares: MiddlewareOption.chains(vpDuration.map(\.option) + vpMiddleware))
        var replayer = Replayer(options: options)
        let input = InputReader.read(Self.inputOrder(files), into: &replayer)
        let result = replayer.finish()
        let reports = MetricsReport(prefix: prefix)
        var outputs: [(String, [UInt8])] = [
            ("playbacks.csv", PlaybacksReport.encode(result.playbacks)),
            ("vp_sessions.csv", VPSessionsReport.encode(result.vpSessions)),
            ("metrics.influx", reports.influx(result.points)),
            ("metrics.graphite", reports.graphite(result.points)),
            ("rejects.jsonl", input.encodedRejects()),
        ]
        if options.includeTrace {
            outputs.append(("events.jsonl", TraceReport.encode(result.trace)))
        }
        do {
            try AtomicFile.makeDirectory(out)
            for (name, bytes) in outputs {
                try AtomicFile.write(bytes, to: (out as NSString).appendingPathComponent(name))
            }
        } catch {
            printError("avt-replay: \(error)")
            return .outputFailed
        }
        if !quiet {
            for problem in input.problems.prefix(Self.problemsShown) {
                printError("avt-replay: \(problem.message)")
            }
            if input.problems.count > Self.problemsShown {
                printError("avt-replay: ... and \(input.problems.count - Self.problemsShown) more (see rejects.jsonl)")
            }
            let seconds =
                Double((clock.now - started).components.attoseconds) / 1e18
                + Double((clock.now - started).components.seconds)
            printError(RunSummary(input: input, result: result, seconds: seconds, outputFolder: out).text)
        }
        return input.problems.isEmpty ? .success : .inputSkipped
    }

    /// How many problems are printed before the rest are only counted.
    static let problemsShown = 10

    /// The inputs in replay order: by file name, then by path, each path once.
    static func inputOrder(_ paths: [String]) -> [String] {
        Array(Set(paths)).sorted { lhs, rhs in
            let lhsName = (lhs as NSString).lastPathComponent
            let rhsName = (rhs as NSString).lastPathComponent
            if lhsName != rhsName { return lhsName.utf8.lexicographicallyPrecedes(rhsName.utf8) }
            return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
        }
    }
}

extension HubKind: ExpressibleByArgument {}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
