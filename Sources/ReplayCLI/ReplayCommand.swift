import ArgumentParser
import EventModel
import Foundation
import ReplayApp

/// `avt-replay [replay] [options] FILE...`: replays event logs and writes the reports.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay event logs and write the reports (the default command)."
    )

    @OptionGroup(title: "Output") var folder: FolderOption

    @OptionGroup var replay: ReplayArguments

    @OptionGroup(title: "Output") var runSummary: RunSummaryOption

    @OptionGroup(title: "Push") var push: PushOptions

    @OptionGroup(title: "Nightly runs") var nightly: NightlyOptions

    @OptionGroup(title: "Scale") var scale: ScaleOptions
    @OptionGroup(title: "Scale") var threads: ThreadsOption

    @Flag(
        name: .shortAndLong,
        help:
            "Print no progress line and no summary; warnings and input problems still go to standard error. Twice (-qq): print nothing but fatal errors."
    )
    var quiet: Int

    // The options by name, as the rest of the command reads them.
    var out: String { folder.out }
    var summaryJSON: String? { runSummary.summaryJSON }
    var state: String? { nightly.state }
    var finish: Bool { nightly.finish }
    var replaceRun: Bool { nightly.replaceRun }
    var previousMerge: String? { nightly.previousMerge }
    var shard: ShardArgument? { scale.shard }

    func validate() throws {
        guard UsageError.checksValues else { return }
        if let first = replay.files.first, Self.looksLikeASubcommand(first) {
            throw ValidationError(
                "'\(first)' is neither a file nor a subcommand ("
                    + AvtReplayCommand.subcommandNames.joined(separator: ", ") + ").")
        }
        try push.validate(besideReportsIn: out)
        let targets = OutputTargets(inputs: replay.files, state: state)
        if let state { try targets.checkState(state) }
        try targets.checkFolder("--out", out)
        if let summaryJSON { try targets.checkFile("--summary-json", summaryJSON, kind: .runSummary, reports: out) }
        if let spool = push.spool { try targets.checkFolder("--spool", spool) }
        if finish && state == nil {
            throw ValidationError("--finish goes with --state: without it, every run ends its lives at the end.")
        }
        // The last run of a series may have no input: it ends the lives the state holds.
        if !(finish && state != nil) { try replay.requireFiles() }
        if replaceRun && state == nil {
            throw ValidationError(
                "--replace-run goes with --state: it replays the last run the state file recorded again.")
        }
        if previousMerge != nil && (state == nil || shard == nil) {
            throw ValidationError(
                "--previous-merge goes with --shard and --state: it gives a shard of a nightly series the merge of the night before."
            )
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

    /// Whether a first argument is a misspelt subcommand rather than a file: a plain word
    /// (letters, digits and `-`, no `.` or `/`) that names no file.
    static func looksLikeASubcommand(_ argument: String) -> Bool {
        guard let first = argument.unicodeScalars.first, first.properties.isAlphabetic,
            argument.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" })
        else { return false }
        return !FileManager.default.fileExists(atPath: argument)
    }

    func run() throws {
        let status = execute()
        if status != .success { throw status.exitCode }
    }

    private func execute() -> ExitStatus {
        let clock = ContinuousClock()
        let started = clock.now
        for warning in replay.warnings where quiet < 2 { printError("avt-replay: \(warning)") }
        let outcome = ReplayRun(
            arguments: replay.configuration, out: out, state: state, finish: finish, replaceRun: replaceRun,
            shard: shard?.shard, previousMerge: previousMerge,
            quiet: quiet >= 2, showsProgress: quiet == 0, threads: threads.count
        )
        .execute()
        // The locks are held until run.json is written.
        defer { outcome.end() }
        func seconds() -> Double {
            let elapsed = (clock.now - started).components
            return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        }
        let counts = outcome.counts
        guard outcome.published else {
            // A run refused because another one holds the folder writes nothing into it, nor
            // does a failed run create a report folder that was not there.
            if outcome.holdsFolder || summaryJSON != nil {
                writeSummary(
                    RunJSON(
                        status: outcome.status, counts: counts, output: out, state: state, pushes: [],
                        seconds: seconds(), threads: threads.count))
            }
            return outcome.status
        }
        let (pushed, pushes) =
            push.isEnabled
            ? push.push(fromFolder: out, quiet: quiet > 0) : (.delivered, [])
        var final = pushed.status(after: outcome.status)
        if case .lost = pushed, outcome.hasStagedState, let state {
            // The state is not moved on: the same run again replays and pushes this night again.
            outcome.keepPreviousState()
            printError(
                "avt-replay: \(state) is left as it was, so that the same run again sends the metrics lost; "
                    + "the reports are this run's")
        } else {
            do {
                try outcome.commitState()
            } catch {
                printError(
                    "avt-replay: the state could not be saved (\(error)): it is the one before this run, whose "
                        + "reports are published; run the same command again")
                final = .outputFailed
            }
        }
        if quiet == 0 {
            printError(RunSummary(counts: counts, seconds: seconds(), outputFolder: out, state: state).text)
        }
        writeSummary(
            RunJSON(
                status: final, counts: counts, output: out, state: state, pushes: pushes, seconds: seconds(),
                threads: threads.count))
        return final
    }

    /// Writes `run.json` (or `--summary-json`). A failure to write it is printed and changes
    /// nothing else: the reports and the exit status are the run's.
    private func writeSummary(_ summary: RunJSON) {
        let target = summaryJSON ?? (out as NSString).appendingPathComponent("run.json")
        if target == "-" {
            FileHandle.standardOutput.write(Data(summary.encoded()))
            return
        }
        let folder = (target as NSString).deletingLastPathComponent
        do {
            if !folder.isEmpty { try AtomicFile.makeDirectory(folder) }
            try AtomicFile.write(summary.encoded(), to: target)
        } catch {
            printError("avt-replay: cannot write the run's summary \(target): \(error)")
        }
    }
}

/// The replay's options in groups, each under its title in the help, beside those of
/// ``ReplayArguments`` (`OUTPUT:` starts with `--out`).
extension ReplayCommand {
    /// `--out`, the first option of the help.
    struct FolderOption: ParsableArguments {
        @Option(
            name: .long,
            help: ArgumentHelp("The folder the reports are written into (created if missing).", valueName: "dir"),
            completion: .directory)
        var out: String = "reports"
    }

    /// `--summary-json`.
    struct RunSummaryOption: ParsableArguments {
        @Option(
            name: .long,
            help: ArgumentHelp(
                "Where to write the run's summary as JSON (default: <out>/run.json; - for standard output).",
                valueName: "file"),
            completion: .file())
        var summaryJSON: String?
    }

    /// `--state`, `--finish` and `--replace-run`: a series of runs, each going on from the last.
    struct NightlyOptions: ParsableArguments {
        @Option(
            name: .long,
            help: ArgumentHelp(
                "Keep the sessions still open at the end in FILE, and go on with the ones FILE holds (nightly runs). An input FILE consumed already is refused (exit 4).",
                valueName: "file"),
            completion: .file())
        var state: String?

        @Flag(name: .long, help: "With --state, close every session at the end anyway (the last run of a series).")
        var finish = false

        @Flag(
            name: .long,
            help:
                "With --state, replay the last run again when the inputs were replayed into FILE already: start from FILE.previous, the state before that run."
        )
        var replaceRun = false

        @Option(
            name: .long,
            help: ArgumentHelp(
                "With --shard and --state, in a sharded nightly series: the folder merge wrote for the night the state goes on from (its merge.state says which buckets are still open in any shard).",
                valueName: "dir"),
            completion: .directory)
        var previousMerge: String?
    }

    /// `--shard`: one of several machines replaying a day.
    struct ScaleOptions: ParsableArguments {
        @Option(
            name: .long,
            help: ArgumentHelp(
                "Replay only the sessions whose id hashes to shard K of N (reading all input), and write what merge needs to combine the N shards' reports.",
                valueName: "k/n"),
            transform: ShardArgument.init(parsing:))
        var shard: ShardArgument?
    }
}
