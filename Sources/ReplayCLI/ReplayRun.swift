import EventModel
import Foundation
import Replay

/// One replay of the inputs into a report folder, committed only when it succeeds: what
/// `replay` does before pushing metrics, and what `check` does into its own folder.
struct ReplayRun {
    var arguments: ReplayArguments
    /// The folder the reports are written into.
    var out: String
    /// `--state`: the open sessions to go on with, and where to keep those still open.
    var state: String? = nil
    /// `--finish`: close every session at the end even with a state.
    var finish = false
    /// `--shard K/N`: replay only this shard's sessions, and write what `merge` needs.
    var shard: Shard? = nil
    var quiet: Bool

    /// Replays and writes the reports (and the state). Returns ``ExitStatus/success`` or
    /// ``ExitStatus/inputSkipped`` when the reports were written; ``ExitStatus/outputFailed``
    /// or ``ExitStatus/inputFailed`` (with the reason printed) when nothing was.
    func execute() -> (status: ExitStatus, counts: RunCounts) {
        let options = arguments.replayOptions
        let reports: ReportSet
        do {
            reports = try ReportSet(
                folder: out, withTrace: options.includeTrace, prefix: arguments.prefix,
                bucket: arguments.bucket.milliseconds, groupBy: options.groupBy,
                aggregatesAsPoints: arguments.aggregate, window: arguments.window,
                sharding: shard.map { ReportSet.Sharding(shard: $0, options: reportOptions) })
        } catch {
            printError("avt-replay: \(error)")
            return (.outputFailed, RunCounts())
        }
        let pipeline = ReplayPipeline(reports: reports)
        var reader = InputReader(
            engine: ReplayEngine(options: options, shard: shard ?? .all), reports: reports, pipeline: pipeline,
            quiet: quiet,
            rejectLimit: arguments.maxRejects)
        if let state {
            do {
                reader.counts.resumedRecords = try RunState.load(from: state, into: &reader.engine)
            } catch {
                printError("avt-replay: \(error); no reports were written, the state file is unchanged")
                reports.discard()
                return (.inputFailed, reader.counts)
            }
        }
        let inputs = ReplayCommand.inputOrder(arguments.files)
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
        if (arguments.strict && reader.counts.problems > 0) || !reader.filesOverLimit.isEmpty {
            let why =
                reader.filesOverLimit.isEmpty
                ? "--strict: \(reader.counts.problems) input problems"
                : "too many rejected lines in \(reader.filesOverLimit.joined(separator: ", "))"
            printError("avt-replay: failed (\(why)); no reports were written, the previous ones are unchanged")
            reports.discard()
            return (.inputFailed, reader.counts)
        }
        do {
            try reports.commit()
            if let state { try RunState.save(reader.engine, to: state) }
        } catch {
            printError("avt-replay: \(error)")
            reports.discard()
            return (.outputFailed, reader.counts)
        }
        return (reader.counts.problems == 0 ? .success : .inputSkipped, reader.counts)
    }

    /// The options that shape the reports, one `name=value` each, in a fixed order: the shards
    /// of a sharded run must all have the same to be merged.
    var reportOptions: [String] {
        var options = [
            "hub=\(arguments.hub.rawValue)", "prefix=\(arguments.prefix)", "bucket=\(arguments.bucket.milliseconds)",
            "group-by=\(arguments.groupBy.flatMap(\.keys).joined(separator: ","))", "aggregate=\(arguments.aggregate)",
            "trace=\(arguments.writesTrace)", "trace-rejected=\(arguments.traceRejected)",
            "session-timeout=\(arguments.sessionTimeout.milliseconds)",
            "since=\(arguments.since.map { String($0.timestamp.milliseconds) } ?? "")",
            "until=\(arguments.until.map { String($0.timestamp.milliseconds) } ?? "")",
            "state=\(state != nil)", "finish=\(finish)",
        ]
        options += (arguments.vpDuration.map(\.option) + arguments.vpMiddleware).map { "vp-middleware=\($0.argument)" }
        return options
    }
}
