import EventLog
import EventModel
import Foundation
import OpenAVT
import Replay
import ReportEncoding
import ValueProposition

/// One replay of the inputs into a report folder, committed only when it succeeds: what
/// `replay` does before pushing metrics, and what `check` does into its own folder.
package struct ReplayRun {
    package var arguments: ReplayConfiguration
    /// The folder the reports are written into.
    var out: String
    /// `--state`: the open sessions to go on with, and where to keep those still open.
    var state: String? = nil
    /// `--finish`: close every session at the end even with a state.
    var finish = false
    /// `--replace-run`: with a state that consumed some of the inputs already, replay its last
    /// run again from the state before it (``StatePlan``).
    var replaceRun = false
    /// `--shard K/N`: replay only this shard's sessions, and write what `merge` needs.
    var shard: Shard? = nil
    /// `--previous-merge DIR`: with a shard's state, the merged reports of the night it goes
    /// on from, whose `merge.state` says from when that night's buckets are open.
    var previousMerge: String? = nil
    /// Print nothing but fatal errors: no warnings, no input problems.
    var quiet: Bool
    /// `--threads N`: with 1, one thread reads, one replays and one writes; with more, the
    /// lives are shared among N engines on threads of their own (``PartitionedFeed``). The
    /// reports are the same for every N.
    package var threads = ReplayRun.defaultThreads
    /// Draw the progress line on a terminal.
    var showsProgress = true
    /// Files written into the report set besides the reports, by name (`check --record`'s
    /// options).
    var extraFiles: [(name: String, bytes: [UInt8])] = []
    /// Where a refused run keeps its rejects (``ReportFolder/refusedRejects(of:)`` of the
    /// report folder, unless the command says otherwise); removed by a run that publishes.
    package var refusedRejects: String

    /// The threads of a run by default: the cores this process may run on (its CPU affinity).
    package static var defaultThreads: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    package init(
        arguments: ReplayConfiguration, out: String, state: String? = nil, finish: Bool = false,
        replaceRun: Bool = false, shard: Shard? = nil, previousMerge: String? = nil, quiet: Bool,
        showsProgress: Bool = true,
        threads: Int = ReplayRun.defaultThreads, extraFiles: [(name: String, bytes: [UInt8])] = []
    ) {
        self.threads = max(1, threads)
        self.extraFiles = extraFiles
        self.arguments = arguments
        self.out = out
        self.state = state
        self.finish = finish
        self.replaceRun = replaceRun
        self.shard = shard
        self.previousMerge = previousMerge
        self.quiet = quiet
        self.showsProgress = showsProgress
        refusedRejects = ReportFolder.refusedRejects(of: out)
    }

    /// Replays, and publishes the reports (``ReportFolder``); with `--state`, leaves the new
    /// state staged for ``RunOutcome/commitState()``, which the caller calls once the metrics
    /// are delivered or kept. The outcome holds the report folder's and the state's locks
    /// until ``RunOutcome/end()``.
    package func execute() -> RunOutcome {
        let folder: ReportFolder
        do {
            folder = try ReportFolder(path: out)
        } catch {
            printError("avt-replay: \(error)")
            return RunOutcome(status: error.isBusy ? .busy : .outputFailed)
        }
        var stateFile: StateFile?
        if let state {
            do {
                stateFile = try StateFile(path: state)
            } catch {
                printError("avt-replay: \(error)")
                folder.discard()
                // Refused for another run's state, a run writes nothing, not even its run.json.
                return error.isHeld ? RunOutcome(status: .busy) : RunOutcome(status: .outputFailed, folder: folder)
            }
        }
        let outcome = replay(into: folder, state: stateFile)
        if !outcome.published {
            stateFile?.discard()
            stateFile?.endUnpublished()
            folder.discard()
        }
        return outcome
    }

    /// Replays into the folder's new set, and publishes it when the run succeeds.
    private func replay(into folder: ReportFolder, state stateFile: StateFile?) -> RunOutcome {
        // With a state and without --finish, what is open at the end is kept for the next run.
        let keepsOpen = state != nil && !finish
        let options = arguments.replayOptions
        let (inputs, repeated) = ReplayConfiguration.uniqueInputs(arguments.files)
        func failed(_ status: ExitStatus, _ counts: RunCounts = RunCounts()) -> RunOutcome {
            RunOutcome(status: status, counts: counts, folder: folder)
        }
        let partition: (manifest: PartitionManifest, shard: Int, folder: String)?
        do {
            partition = try PartitionManifest.locate(inputs)
        } catch {
            printError("avt-replay: \(error); nothing was written")
            return failed(.inputFailed)
        }
        if let partition, let refusal = refusal(of: partition, inputs: inputs) {
            printError("avt-replay: \(refusal); nothing was written")
            return failed(.inputFailed)
        }
        var plan: StatePlan?
        if let state, let stateFile {
            do {
                let made = try StatePlan(state: state, inputs: inputs, replaceRun: replaceRun)
                plan = made
                try stateFile.beginRun(inputs: made.identities, out: out)
            } catch let error as AtomicFile.WriteError {
                printError("avt-replay: \(error); nothing was written")
                return failed(.outputFailed)
            } catch {
                printError("avt-replay: \(error)")
                return failed(.inputFailed)
            }
        }
        let reports: ReportSet
        do {
            reports = try ReportSet(
                folder: folder.staging, withTrace: options.includeTrace, prefix: arguments.prefix,
                bucket: options.bucket, groupBy: options.groupBy,
                metricPoints: arguments.metricPoints,
                window: arguments.window,
                sharding: shard.map { shard in
                    // Shards of two partitions (of other inputs) must not be merged.
                    let partitionOption = partition.map { ["partition=\($0.manifest.digest)"] } ?? []
                    return ReportSet.Sharding(shard: shard, options: reportOptions + partitionOption)
                },
                breakdownMinimumViews: arguments.breakdownMinimumViews)
        } catch {
            printError("avt-replay: \(error)")
            return failed(.outputFailed)
        }
        var engines = ReplayEngines(options: options, shard: shard ?? .all, count: threads)
        var merge = EventTimeMerge(inputs: inputs.count, maxLateness: arguments.maxLateness)
        var resumed = 0
        var resumedOpenFrom: Timestamp?
        if let plan {
            if let damaged = plan.damaged, !quiet {
                printError("avt-replay: --replace-run: \(damaged)")
            }
            if plan.replacesLastRun && !quiet {
                printError("avt-replay: --replace-run: replaying the last run again, from \(plan.resumed)")
                for input in plan.leftOut {
                    printError(
                        "avt-replay: --replace-run: \(input.name), replayed by the run replaced, is not given again: "
                            + "the new state will not hold it")
                }
            }
            do {
                let loaded = try RunState.load(
                    from: plan.resumed, into: &engines, merge: &merge, shard: shard, options: stateOptions)
                resumed = loaded.lives
                resumedOpenFrom = try addCarried(loaded, resumedFrom: plan.resumed, to: reports)
            } catch {
                printError("avt-replay: \(error); no reports were written, the state file is unchanged")
                reports.discard()
                return failed(.inputFailed)
            }
        }
        let pipeline = ReplayPipeline(reports: reports, freesOnAThreadOfItsOwn: threads > 1)
        var reader = InputReader(
            paths: inputs, merge: merge, rejectLimit: arguments.maxRejects, timestampUnit: arguments.timestampUnit,
            decodeThreads: threads, partition: partition?.manifest)
        reader.shard = shard ?? .all
        reader.progress = ProgressLine(
            totalBytes: inputs.reduce(0) { $0 + InputReader.fileSize($1) }, files: inputs.count,
            quiet: quiet || !showsProgress)
        let problemLog = ProblemLog(reports: reports, quiet: quiet, names: reader.names)
        let problems: ProblemLog
        // The night's records are all replayed: with a state, what is pending is written now,
        // and the lives keep only their state machines and open rows.
        let ending: ReplayEnding = keepsOpen ? .handOverPending : .finish
        if engines.engines.count == 1 {
            var feed = ReplayFeed(engine: engines.engines.removeLast(), pipeline: pipeline, problems: problemLog)
            reader = feed.run(reader, ending: ending)
            engines.engines.append(feed.engine)
            problems = feed.problems
        } else {
            var feed = PartitionedFeed(engines: engines, pipeline: pipeline, problems: problemLog)
            reader = feed.run(reader, ending: ending)
            engines = feed.engines
            problems = feed.problems
        }
        reader.progress?.finish()
        var counts = reader.counts
        counts.add(replaying: problems.counts)
        counts.resumedLives = resumed
        if let plan, plan.resumed != state { counts.resumedFrom = plan.resumed }
        var filesOverLimit = reader.filesOverLimit
        for (index, name) in reader.names.enumerated() {
            let late = reader.lateByInput[index]
            let rejected = problems.lateRejected[index]
            let identity = plan?.identities[index]
            counts.inputs.append(
                InputSummary(
                    name: name,
                    size: partition?.manifest.inputs[index].size ?? identity?.size
                        ?? InputReader.regularFileSize(inputs[index]),
                    digest: identity?.digestText, lines: reader.ownLinesByInput[index],
                    rejected: reader.rejectedByInput[index], late: late, lateRejected: rejected))
            if let limit = arguments.maxLate, limit.isExceeded(rejected: rejected, of: reader.ownLinesByInput[index]) {
                filesOverLimit.append(name)
            }
            if late > 0 && !quiet {
                printError(
                    "avt-replay: \(name): \(late) records later than --max-lateness, \(late - rejected) replayed, "
                        + "\(rejected) rejected as late")
            }
        }
        var saved = RunState.Saved(frontier: engines.frontier, options: stateOptions)
        saved.shard = shard
        saved.inputs = plan?.inputsAfter(lines: reader.linesByInput) ?? []
        if keepsOpen {
            saved.released = reader.merge.endTime
            counts.carried = engines.openCounts
            saved.lives = engines.openLives
        }
        counts.add(replayed: pipeline.finish())
        // A bucket from the earliest open row on may still get rows and their points, and the
        // bucket of the last record the next run's records and rows.
        let earliest = [engines.earliestOpenRow, engines.frontier].compactMap { $0 }.min()
        if keepsOpen, let earliest {
            saved.openFrom = earliest
            // A shard keeps its buckets from no later than where any shard's are open: a row
            // still open began this night or was open at the end of the night before.
            var kept: Timestamp?
            if shard != nil { kept = [earliest, reader.merge.startTime, resumedOpenFrom].compactMap { $0 }.min() }
            saved.carried = reports.leaveOpen(from: earliest, keepingFrom: kept)
        }
        counts.livesEndedByGap = engines.livesEndedByGap
        counts.warnings = warnings(reader: reader, inputs: inputs, repeated: repeated, reports: reports)
        if !quiet {
            for warning in counts.warnings { printError("avt-replay: \(warning.message)") }
        }
        // No input at all is a run that only ends the lives of its state (`--state --finish`).
        let noInput = reader.inputsOpened == 0 && !inputs.isEmpty
        let refused = !noInput && ((arguments.strict && counts.problems > 0) || !filesOverLimit.isEmpty)
        if !quiet && counts.lineProblems > ProblemLog.problemsShown {
            let list = refused ? refusedRejects : (out as NSString).appendingPathComponent("rejects.jsonl")
            printError(
                "avt-replay: ... and \(counts.lineProblems - ProblemLog.problemsShown) more rejected or late lines "
                    + "(see \(list))")
        }
        if noInput {
            // Named even with -qq, where the problems were not printed as they came.
            if quiet { for problem in problems.fileProblems { printError("avt-replay: \(problem)") } }
            printError(
                "avt-replay: failed (no input could be read: \(reader.names.joined(separator: ", "))); "
                    + "no reports were written, the previous ones are unchanged")
            reports.discard()
            return failed(.noInput, counts)
        }
        if refused {
            let why =
                filesOverLimit.isEmpty
                ? "--strict: \(counts.problems) input problems"
                : "too many rejected or late lines in \(filesOverLimit.joined(separator: ", "))"
            var kept: String
            do {
                try reports.keepRejects(at: refusedRejects)
                kept = "every problem is listed in \(refusedRejects)"
            } catch {
                kept = "its rejects could not be kept: \(error)"
            }
            printError("avt-replay: failed (\(why)); no reports were written, the previous ones are unchanged; \(kept)")
            reports.discard()
            return failed(.inputFailed, counts)
        }
        // The state is written beside its file before anything is published: a life that cannot
        // be kept (a custom component that cannot save its state) fails the run with the
        // previous reports and state as they were.
        if let stateFile {
            if shard != nil { reports.stateIdentity = RunState.identity(ofHeaderLine: RunState.headerLine(of: saved)) }
            do {
                try stateFile.stage(saved)
            } catch let error as RunState.Failure {
                printError(
                    "avt-replay: failed (\(error)); no reports were written, the previous ones and the state are "
                        + "unchanged")
                reports.discard()
                return failed(.inputFailed, counts)
            } catch {
                printError(
                    "avt-replay: \(error); no reports were written, the previous ones and the state are unchanged")
                reports.discard()
                return failed(.outputFailed, counts)
            }
        }
        do {
            try reports.stage(provenance: provenance(counts))
            try reports.publish()
            for (name, bytes) in extraFiles {
                try AtomicFile.write(bytes, to: (folder.staging as NSString).appendingPathComponent(name))
            }
            // The pending record names the staged state: a kill from here on leaves the series
            // to be finished by this run again (``PendingRun``).
            if let stateFile {
                try stateFile.willCommit(
                    stagedIdentity: RunState.identity(ofHeaderLine: RunState.headerLine(of: saved)))
            }
            // From the switch to run.json, a signal waits (``RunOutcome/end()`` ends the commit).
            Interruption.beginCommit()
            do {
                try folder.publish()
            } catch {
                Interruption.endCommit()
                throw error
            }
            // The rejects a refused run kept beside the folder are not those of the reports now in it.
            unlink(refusedRejects)
        } catch {
            printError("avt-replay: \(error); no reports were written, the previous ones and the state are unchanged")
            reports.discard()
            return failed(.outputFailed, counts)
        }
        return RunOutcome(
            status: counts.problems == 0 ? .success : .inputSkipped, counts: counts, folder: folder,
            state: stateFile, replacesLastRun: plan?.replacesLastRun ?? false)
    }

    /// Adds the buckets a state left open to the reports, and returns the time from which they
    /// are open in the whole series (what a shard keeps its buckets from, at most).
    ///
    /// A shard's state keeps more buckets than its own open ones: those the merge of its night
    /// found open in any shard (`merge.state` in `--previous-merge`, which must name this
    /// state) are re-written. An unsharded state's open buckets go to shard 1 alone.
    private func addCarried(_ loaded: RunState.Loaded, resumedFrom path: String, to reports: ReportSet) throws
        -> Timestamp?
    {
        guard let header = loaded.header else { return nil }
        guard let shard else {
            if let carried = loaded.carried { try reports.addCarried(carried) }
            return header.openFrom
        }
        guard header.shard != nil else {
            if let carried = loaded.carried, shard.index == 1 { try reports.addCarried(carried) }
            return header.openFrom
        }
        guard let previousMerge else {
            throw RunState.Failure(
                description: "\(path) goes on from a sharded night: give --previous-merge with the "
                    + "folder `avt-replay merge` wrote for that night (docs/sharding.md)")
        }
        let merged = try MergeState.read(folder: previousMerge)
        guard merged.shards == shard.count, merged.states[shard.index - 1] == header.identity else {
            throw RunState.Failure(
                description: "\(previousMerge)/\(MergeState.fileName) is not the merge of the night "
                    + "\(path) goes on from: give the folder `avt-replay merge` wrote for that night")
        }
        let openFrom = merged.openFrom.map { Timestamp(milliseconds: $0) }
        if let carried = loaded.carried { try reports.addCarried(carried, from: openFrom) }
        return openFrom
    }

    /// The warnings of the run, in order: by input (its other names, then what its records
    /// looked like), then the `--group-by` keys no row carries.
    private func warnings(
        reader: InputReader, inputs: [String], repeated: [(path: String, as: String)], reports: ReportSet
    )
        -> [RunWarning]
    {
        var warnings: [RunWarning] = []
        let byInput = reader.warningsByInput
        for (index, input) in inputs.enumerated() {
            for other in repeated where other.as == input {
                warnings.append(
                    RunWarning(
                        kind: .sameFileTwice, file: reader.names[index], count: 1, line: nil, example: other.path,
                        fix: "give each file once"))
            }
            warnings += byInput[index]
        }
        // Sorted: with several decoding threads, the order names were first seen in varies.
        let seen = AttributeKey.namesSeen.sorted()
        for key in reports.groupByKeysWithoutValues {
            var warning = RunWarning(
                kind: .groupByKeyUnused, file: nil, count: 1, line: nil, example: "--group-by \(key)",
                fix: "check its spelling, and that the logger writes it")
            let candidates = GroupBy.derivedKeys + seen.filter { $0 != key }
            if let suggestion = Suggestion.closest(to: key, among: candidates) {
                warning.fix = "did you mean \(suggestion)?"
            }
            warnings.append(warning)
        }
        return warnings
    }

    /// Why the part files of a partition's shard folder cannot be replayed as given, if they cannot.
    private func refusal(
        of partition: (manifest: PartitionManifest, shard: Int, folder: String), inputs: [String]
    ) -> String? {
        let (manifest, index, folder) = partition
        guard let shard, shard.count == manifest.shards, shard.index == index else {
            return "\(folder) holds shard \(index) of a partition into \(manifest.shards): replay it with "
                + "--shard \(index)/\(manifest.shards)"
        }
        let expected = manifest.inputs.indices.map { Partition.partName(rank: $0) }
        guard inputs.map({ ($0 as NSString).lastPathComponent }) == expected,
            Set(inputs.map { ($0 as NSString).deletingLastPathComponent }).count == 1
        else {
            return "give every part file of \(folder) (\(folder)/*), and nothing else: the partition has "
                + "\(manifest.inputs.count) inputs"
        }
        if manifest.maxLateness != arguments.maxLateness {
            return "\(folder): the partition was made with --max-lateness \(manifest.maxLateness) ms; "
                + "replay its shards with the same"
        }
        if manifest.timestampUnit != (arguments.timestampUnit?.rawValue ?? "ms") {
            return "\(folder): the partition was made with --ts-unit \(manifest.timestampUnit); "
                + "replay its shards with the same"
        }
        return nil
    }

    /// The foot of `report.html`: the inputs by file name (without their folders, so that the
    /// page does not depend on where the run was started), the options, and the problems counted.
    private func provenance(_ counts: RunCounts) -> HTMLReport.Provenance {
        HTMLReport.Provenance(
            tool: arguments.toolName, version: AvtReplayVersion.current,
            inputs: counts.inputs.map { input in
                HTMLReport.Provenance.Input(
                    name: (input.name as NSString).lastPathComponent, size: input.size, lines: Int64(input.lines),
                    rejected: Int64(input.rejected), late: Int64(input.late))
            }, options: reportOptions, rejectedLines: Int64(counts.rejectedLines), lateRecords: Int64(counts.late),
            lateRejected: Int64(counts.lateRejected),
            carried: counts.carried.map { carried in
                HTMLReport.Provenance.Carried(
                    instruments: Int64(carried.lives[.openavt] ?? 0), openPlaybacks: Int64(carried.rows[.openavt] ?? 0),
                    appSessions: Int64(carried.lives[.vp] ?? 0), openSessions: Int64(carried.rows[.vp] ?? 0),
                    players: Int64(carried.lives[.marconi] ?? 0), openItems: Int64(carried.rows[.marconi] ?? 0))
            })
    }

    /// The options that shape the replay, which a state records and every run that goes on
    /// from it must share (``RunState/Options``): the components' types are those of one
    /// instrument's, made for this.
    var stateOptions: RunState.Options {
        let replay = arguments.replayOptions
        let components = replay.components
        func typeName(_ component: Any) -> String { String(describing: type(of: component)) }
        return RunState.Options(
            hub: arguments.hubName, prefix: arguments.prefix, tentacles: replay.tentaclesVersion.rawValue,
            idleGap: replay.idleGap, metrics: arguments.grain.rawValue, bucket: replay.bucket,
            groupBy: replay.groupBy.keys, middlewares: arguments.middlewareArguments,
            hubComponent: typeName(components.makeHub(SequentialIDGenerator())),
            metricalcComponent: typeName(components.makeMetricalc()),
            backendComponent: typeName(components.makeBackend()))
    }

    /// The options that shape the reports, one `name=value` each, in a fixed order: the shards
    /// of a sharded run must all have the same to be merged.
    package var reportOptions: [String] {
        let replay = arguments.replayOptions
        var options = [
            "hub=\(arguments.hubName)", "prefix=\(arguments.prefix)", "bucket=\(replay.bucket)",
            "group-by=\(replay.groupBy.keys.joined(separator: ","))",
            "aggregate=\(arguments.aggregate)", "metrics=\(arguments.grain.rawValue)",
            "trace=\(replay.includeTrace)", "trace-rejected=\(replay.includeRejected)",
            "idle-gap=\(replay.idleGap)", "max-lateness=\(arguments.maxLateness)",
            "since=\(arguments.since.map { String($0.milliseconds) } ?? "")",
            "until=\(arguments.until.map { String($0.milliseconds) } ?? "")",
            "state=\(state != nil)", "finish=\(finish)", "tentacles=\(replay.tentaclesVersion.rawValue)",
            "breakdown-min-views=\(arguments.breakdownMinimumViews)",
        ]
        options += arguments.middlewareArguments.map { "vp-middleware=\($0)" }
        return options
    }
}
