import ArgumentParser
import EventLog
import EventModel
import Replay
import ReplayApp
import ValueProposition

/// The input files and every option that decides what a replay writes: shared by `replay`
/// and `check`, so that a check replays exactly as the command it stands for.
struct ReplayArguments: ParsableArguments {
    @Argument(help: "Event log files (.jsonl.gz or .jsonl), or - for standard input.", completion: .file())
    var files: [String] = []

    @OptionGroup(title: "Input") var input: InputOptions
    @OptionGroup(title: "Time") var time: TimeOptions
    @OptionGroup(title: "Output") var output: OutputOptions

    // The options by name, as the rest of the command reads them.
    var hub: HubKind { input.hub }
    var tentacles: TentaclesVersion { input.tentacles }
    var strict: Bool { input.strict }
    var maxRejects: RejectLimit? { input.maxRejects }
    var tsUnit: RecordDecoder.TimestampUnit? { input.tsUnit }
    var since: TimeArgument? { time.since }
    var until: TimeArgument? { time.until }
    var maxLateness: DurationArgument { time.maxLateness }
    var maxLate: RejectLimit? { time.maxLate }
    var idleGap: DurationArgument { time.idleGap }
    var trace: Bool { output.trace }
    var traceRejected: Bool { output.traceRejected }
    var bucket: DurationArgument { output.bucket }
    var groupBy: [GroupByArgument] { output.groupBy }
    var metrics: MetricsGrain { output.metrics }
    var aggregate: Bool { output.aggregate }
    var prefix: String { output.prefix }
    var vpDuration: [DurationOption] { output.vpDuration }
    var vpMiddleware: [MiddlewareOption] { output.vpMiddleware }
    var breakdownMinViews: Int64 { output.breakdownMinViews }

    /// The files and options as a run takes them.
    var configuration: ReplayConfiguration {
        var configuration = ReplayConfiguration(
            files: files, replayOptions: replayOptions, hubName: hub.rawValue, prefix: prefix, grain: metrics,
            aggregate: aggregate, since: since?.timestamp,
            until: until?.timestamp, maxLateness: maxLateness.milliseconds, maxRejects: maxRejects, maxLate: maxLate,
            strict: strict, middlewareArguments: (vpDuration.map(\.option) + vpMiddleware).map(\.argument),
            toolName: ReplayTool.current.name)
        configuration.timestampUnit = tsUnit
        configuration.breakdownMinimumViews = breakdownMinViews
        return configuration
    }

    /// What goes to the metric files and servers (`--metrics`, `--aggregate`).
    var metricPoints: MetricPoints { MetricPoints(grain: metrics, aggregate: aggregate) }

    /// Refuses an empty list of files (the commands call it: `--state --finish` needs none).
    func requireFiles() throws {
        if files.isEmpty {
            throw ValidationError("Give at least one event log file, or - to read standard input.")
        }
    }

    func validate() throws {
        guard UsageError.checksValues else { return }
        if files.count(where: { $0 == "-" }) > 1 {
            throw ValidationError("Standard input (-) can be read only once.")
        }
        if !(60_000...86_400_000).contains(bucket.milliseconds) {
            throw ValidationError("--bucket must be from 1m to 1d.")
        }
        if breakdownMinViews < 1 {
            throw ValidationError("--breakdown-min-views must be at least 1.")
        }
        if idleGap.milliseconds < 1_000 {
            throw ValidationError("--idle-gap must be at least 1s.")
        }
        if maxLateness.milliseconds > 86_400_000 {
            throw ValidationError("--max-lateness must be at most 1d.")
        }
        if let since, let until, since.timestamp >= until.timestamp {
            throw ValidationError("--since must be before --until.")
        }
        var seen: Set<String> = []
        for key in groupBy.flatMap(\.keys) where !seen.insert(key).inserted {
            throw ValidationError("--group-by names \(key) twice.")
        }
    }

    /// What the command line should be told about its options (an epoch number whose unit was
    /// a guess), without the program's name.
    var warnings: [String] {
        [("--since", since), ("--until", until)].compactMap { name, time in
            time?.ambiguity.map { "\(name): \($0)" }
        }
    }

    /// Every option as a command line would give it (all of them, defaults too, files left
    /// out), in a fixed order: what `check --record` keeps beside the reports, and what
    /// ``ReplayArguments/parse(_:)`` of it and the files gives back.
    var options: [String] {
        var options: [String] = []
        if trace { options.append("--trace") }
        if traceRejected { options.append("--trace-rejected") }
        options += ["--hub", hub.rawValue, "--prefix", prefix, "--tentacles", tentacles.rawValue]
        for middleware in vpDuration.map(\.option) + vpMiddleware {
            options += ["--vp-middleware", middleware.argument]
        }
        options += [
            "--idle-gap", idleGap.description, "--max-lateness", maxLateness.description, "--bucket",
            bucket.description, "--metrics", metrics.rawValue,
        ]
        if aggregate { options.append("--aggregate") }
        for keys in groupBy { options += ["--group-by", keys.keys.joined(separator: ",")] }
        // Only when not the default, so that the recordings made before the option still match.
        if breakdownMinViews != ReplayConfiguration.defaultBreakdownMinimumViews {
            options += ["--breakdown-min-views", String(breakdownMinViews)]
        }
        if let since { options += ["--since", since.argument] }
        if let until { options += ["--until", until.argument] }
        if let maxLate { options += ["--max-late", maxLate.argument] }
        if let maxRejects { options += ["--max-rejects", maxRejects.argument] }
        if strict { options.append("--strict") }
        if let tsUnit { options += ["--ts-unit", tsUnit.rawValue] }
        return options
    }

    /// Whether `events.jsonl` is written (`--trace` or `--trace-rejected`).
    var writesTrace: Bool { trace || traceRejected }

    /// The replay engine's options.
    var replayOptions: ReplayOptions {
        ReplayOptions(
            components: ReplayTool.current.components(hub), includeTrace: writesTrace,
            includeRejected: traceRejected,
            middlewares: MiddlewareOption.chains(vpDuration.map(\.option) + vpMiddleware),
            idleGap: idleGap.milliseconds, groupBy: GroupBy(groupBy.flatMap(\.keys)), bucket: bucket.milliseconds,
            tentaclesVersion: tentacles)
    }
}

/// The options in groups, each under its title in the help (`INPUT:`, `TIME:`, `OUTPUT:`).
extension ReplayArguments {
    /// How the logs are read and replayed: the hub, the Tentacles names, how much bad input a run takes.
    struct InputOptions: ParsableArguments {
        @Option(name: .long, help: "The hub every instrument runs: ads (HubCoreAds) or core (HubCore).")
        var hub: HubKind = .ads

        @Option(
            name: .long,
            help: ArgumentHelp(
                "The Tentacles names value-proposition events carry: value-proposition (category valueProposition, valuePropositionSessionId; Tentacles ffcb97e) or domain-activity (domainActivity, domainActivitySessionId and timestamp; aef2fe4).",
                valueName: "names"))
        var tentacles: TentaclesVersion = .valueProposition

        @Flag(name: .long, help: "Fail (exit 4, no reports written) when any input is skipped.")
        var strict = false

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Fail (exit 4, no reports written) when a file has more rejected lines than this: a count, or a percentage of its lines (5%).",
                valueName: "n|p%"))
        var maxRejects: RejectLimit?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "The unit of a ts given as a number: ms (the format's) or s (for loggers that write epoch seconds; fractions allowed). Without it, numbers are milliseconds and those that look like seconds are warned of.",
                valueName: "unit"))
        var tsUnit: RecordDecoder.TimestampUnit?
    }

    /// Which lives are reported, how late a record may come, and when a life ends.
    struct TimeOptions: ParsableArguments {
        @Option(
            name: .long,
            help: ArgumentHelp(
                "Report only the sessions whose first record is at or after this time: a date (2025-11-20, UTC), an RFC 3339 time, or epoch seconds or milliseconds (told apart by magnitude).",
                valueName: "time"),
            transform: TimeArgument.init(parsing:))
        var since: TimeArgument?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Report only the sessions whose first record is before this time (as --since).",
                valueName: "time"),
            transform: TimeArgument.init(parsing:))
        var until: TimeArgument?

        @Option(
            name: .long,
            help: .duration(
                "How much later than a record after it in time a record may come in its file and still be replayed in order (90s, 30m, 1h30m).",
                default: DurationArgument.maxLatenessDefault),
            transform: DurationArgument.init(parsing:))
        var maxLateness = DurationArgument.maxLatenessDefault

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Fail (exit 4, no reports written) when a file has more records rejected as late than this: a count, or a percentage of its lines (5%).",
                valueName: "n|p%"))
        var maxLate: RejectLimit?

        @Option(
            name: .long,
            help: .duration(
                "Forget an instrument, app or player after this long without records, in log time (90s, 1h30m, 2d); a later record starts a new life.",
                default: DurationArgument.idleGapDefault),
            transform: DurationArgument.init(parsing:))
        var idleGap = DurationArgument.idleGapDefault

    }

    /// What the reports hold: the trace, the buckets and groups, the metric files.
    struct OutputOptions: ParsableArguments {
        @Flag(name: .long, help: "Also write events.jsonl: every event that left the hub, with its metrics.")
        var trace = false

        @Flag(name: .long, help: "List the events the hub rejected in events.jsonl too (implies --trace).")
        var traceRejected = false

        @Option(
            name: .long,
            help: .duration(
                "The time buckets of summary.csv and aggregates.csv, from 1m to 1d.",
                default: DurationArgument.bucketDefault),
            transform: DurationArgument.init(parsing:))
        var bucket = DurationArgument.bucketDefault

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Split summary.csv and aggregates.csv (and the --aggregate points) by these dimensions: attribute names or system, instrument, source_host, app, name, player; repeatable, e.g. --group-by title,source_host.",
                valueName: "key[,key...]"))
        var groupBy: [GroupByArgument] = []

        @Option(
            name: .long,
            help: ArgumentHelp(
                "What metrics.influx and metrics.graphite hold, and what is pushed: aggregates (those of aggregates.csv: a bounded number of series), playbacks (a point per report row in metrics.influx, the aggregates in metrics.graphite) or events (every event's metrics, device ids as InfluxDB fields).",
                valueName: "grain"))
        var metrics: MetricsGrain = .aggregates

        @Flag(name: .long, help: "Also write the aggregates of aggregates.csv to metrics.influx and metrics.graphite.")
        var aggregate = false

        @Option(
            name: .long,
            help: ArgumentHelp(
                "In report.html's breakdowns, add up the values with fewer views than this into one last row.",
                valueName: "n"))
        var breakdownMinViews: Int64 = ReplayConfiguration.defaultBreakdownMinimumViews

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

    }
}

extension HubKind: ExpressibleByArgument {}

extension MetricsGrain: ExpressibleByArgument {}
extension TentaclesVersion: ExpressibleByArgument {}
extension RecordDecoder.TimestampUnit: ExpressibleByArgument {}
