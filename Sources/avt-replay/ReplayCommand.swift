import ArgumentParser
import EventLog
import EventModel
import Foundation
import Replay
import ReportEncoding

/// `avt-replay [replay] [options] FILE...`: replays event logs and writes the reports.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay event logs and write the reports (the default command)."
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

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Close an instrument, app or player after this long without records, in log time (ms, s, m, h, d).",
            valueName: "duration"))
    var sessionTimeout = DurationArgument(minutes: 30)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Keep the sessions still open at the end in FILE, and go on with the ones FILE holds (nightly runs).",
            valueName: "file"))
    var state: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Report only the sessions whose first record is at or after this time (RFC 3339 or epoch ms).",
            valueName: "time"))
    var since: TimeArgument?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Report only the sessions whose first record is before this time (RFC 3339 or epoch ms).",
            valueName: "time"))
    var until: TimeArgument?

    @Option(
        name: .long,
        help: ArgumentHelp("The time buckets of summary.csv and aggregates.csv, from 1m to 1d.", valueName: "duration"))
    var bucket = DurationArgument(minutes: 60)

    @Flag(name: .long, help: "Also write the aggregates of aggregates.csv to metrics.influx and metrics.graphite.")
    var aggregate = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Split summary.csv and aggregates.csv (and the --aggregate points) by these dimensions: attribute names or system, instrument, source_host, app, name, player; repeatable, e.g. --group-by title,source_host.",
            valueName: "key[,key...]"))
    var groupBy: [GroupByArgument] = []

    @Flag(name: .long, help: "With --state, close every session at the end anyway (the last run of a series).")
    var finish = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Fail (exit 4, no reports written) when a file has more rejected lines than this: a count, or a percentage of its lines (5%).",
            valueName: "n|p%"))
    var maxRejects: RejectLimit?

    @Flag(name: .long, help: "Fail (exit 4, no reports written) when any input is skipped.")
    var strict = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Replay only the sessions whose id hashes to shard K of N (reading all input), and write what merge needs to combine the N shards' reports.",
            valueName: "k/n"))
    var shard: ShardArgument?

    @OptionGroup var push: PushOptions

    @Flag(name: .shortAndLong, help: "Print nothing but fatal errors.")
    var quiet = false

    func validate() throws {
        if files.isEmpty {
            throw ValidationError("Give at least one event log file, or - to read standard input.")
        }
        if files.count(where: { $0 == "-" }) > 1 {
            throw ValidationError("Standard input (-) can be read only once.")
        }
        if !(60_000...86_400_000).contains(bucket.milliseconds) {
            throw ValidationError("--bucket must be from 1m to 1d.")
        }
        if let since, let until, since.timestamp >= until.timestamp {
            throw ValidationError("--since must be before --until.")
        }
        var seen: Set<String> = []
        for key in groupBy.flatMap(\.keys) where !seen.insert(key).inserted {
            throw ValidationError("--group-by names \(key) twice.")
        }
        if finish && state == nil {
            throw ValidationError("--finish goes with --state: without it, every run closes its sessions at the end.")
        }
        if let shard {
            if shard.count < 1 {
                throw ValidationError(
                    "--shard \(shard.index)/\(shard.count): N, the number of shards, must be at least 1.")
            }
            if shard.shard == nil {
                throw ValidationError(
                    "--shard \(shard.index)/\(shard.count): K must be from 1 to N (\(shard.count)), as in --shard 1/\(shard.count)."
                )
            }
            if push.isEnabled {
                throw ValidationError(
                    "--shard writes one shard's reports: push the merged reports instead (avt-replay merge --influx/--graphite)."
                )
            }
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
            middlewares: MiddlewareOption.chains(vpDuration.map(\.option) + vpMiddleware),
            sessionTimeout: sessionTimeout.milliseconds, groupBy: GroupBy(groupBy.flatMap(\.keys)))
        let reports: ReportSet
        do {
            reports = try ReportSet(
                folder: out, withTrace: options.includeTrace, prefix: prefix, bucket: bucket.milliseconds,
                groupBy: options.groupBy, aggregatesAsPoints: aggregate,
                window: (since?.timestamp ?? Timestamp(milliseconds: .min))..<(until?.timestamp
                    ?? Timestamp(milliseconds: .max)),
                sharding: shard?.shard.map { ReportSet.Sharding(shard: $0, options: reportOptions) })
        } catch {
            printError("avt-replay: \(error)")
            return .outputFailed
        }
        let pipeline = ReplayPipeline(reports: reports)
        var reader = InputReader(
            engine: ReplayEngine(options: options, shard: shard?.shard ?? .all), reports: reports, pipeline: pipeline,
            quiet: quiet,
            rejectLimit: maxRejects)
        if let state {
            do {
                reader.counts.resumedRecords = try RunState.load(from: state, into: &reader.engine)
            } catch {
                printError("avt-replay: \(error); no reports were written, the state file is unchanged")
                return .inputFailed
            }
        }
        let inputs = Self.inputOrder(files)
        reader.progress = ProgressLine(
            totalBytes: inputs.reduce(0) { $0 + InputReader.fileSize($1) }, files: inputs.count, quiet: quiet)
        for (rank, path) in inputs.enumerated() {
            reader.read(path, rank: rank)
        }
        reader.progress?.finish()
        if state == nil || finish {
            pipeline.submit(reader.engine.finish())
        } else {
            reader.counts.savedRecords = reader.engine.openSessionRecords.count
        }
        reader.counts.add(replayed: pipeline.finish())
        reader.counts.timedOutSessions = reader.engine.timedOutSessions
        if !quiet && reader.counts.problems > InputReader.problemsShown {
            printError(
                "avt-replay: ... and \(reader.counts.problems - InputReader.problemsShown) more (see rejects.jsonl)")
        }
        if (strict && reader.counts.problems > 0) || !reader.filesOverLimit.isEmpty {
            let why =
                reader.filesOverLimit.isEmpty
                ? "--strict: \(reader.counts.problems) input problems"
                : "too many rejected lines in \(reader.filesOverLimit.joined(separator: ", "))"
            printError("avt-replay: failed (\(why)); no reports were written, the previous ones are unchanged")
            return .inputFailed
        }
        do {
            try reports.commit()
            if let state { try RunState.save(reader.engine, to: state) }
        } catch {
            printError("avt-replay: \(error)")
            return .outputFailed
        }
        let pushed = push.isEnabled ? push.push(fromFolder: out, quiet: quiet) : true
        if !quiet {
            let elapsed = (clock.now - started).components
            let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            printError(RunSummary(counts: reader.counts, seconds: seconds, outputFolder: out, state: state).text)
        }
        if !pushed { return .metricsKept }
        return reader.counts.problems == 0 ? .success : .inputSkipped
    }

    /// The options that shape the reports, one `name=value` each, in a fixed order: the shards
    /// of a sharded run must all have the same to be merged.
    var reportOptions: [String] {
        var options = [
            "hub=\(hub.rawValue)", "prefix=\(prefix)", "bucket=\(bucket.milliseconds)",
            "group-by=\(groupBy.flatMap(\.keys).joined(separator: ","))", "aggregate=\(aggregate)",
            "trace=\(trace || traceRejected)", "trace-rejected=\(traceRejected)",
            "session-timeout=\(sessionTimeout.milliseconds)",
            "since=\(since.map { String($0.timestamp.milliseconds) } ?? "")",
            "until=\(until.map { String($0.timestamp.milliseconds) } ?? "")",
            "state=\(state != nil)", "finish=\(finish)",
        ]
        options += (vpDuration.map(\.option) + vpMiddleware).map { "vp-middleware=\($0.argument)" }
        return options
    }

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
