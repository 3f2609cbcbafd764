import ArgumentParser
import CMallocTuning
import Foundation
import ReplayApp

/// `avt-replay`: replays event logs (the default `replay` command), sends kept metrics (`flush`),
/// or compares report sets (`check`, `diff`).
struct AvtReplayCommand: ParsableCommand {
    /// `avt-replay`'s configuration under the name of the running ``ReplayTool``.
    static var configuration: CommandConfiguration {
        let name = ReplayTool.current.name
        var configuration = avtReplayConfiguration
        configuration.commandName = name
        configuration.version = "\(name) \(AvtReplayVersion.current)"
        configuration.discussion = configuration.discussion.replacingOccurrences(of: "avt-replay ", with: name + " ")
        return configuration
    }

    private static let avtReplayConfiguration = CommandConfiguration(
        commandName: "avt-replay",
        abstract: "Replay recorded OpenAVT player telemetry and write analytics reports.",
        discussion: """
            Reads gzipped or plain JSON Lines event logs (- for standard input), replays each \
            instrument's records in time order through the OpenAVT hub and metricalc, and writes \
            playbacks.csv, vp_sessions.csv, marconi_items.csv, summary.csv, aggregates.csv, metrics.influx, \
            metrics.graphite and rejects.jsonl (and events.jsonl with --trace) into the output folder, replaced whole by each run. The same logs, \
            in any order, always give the same bytes.

            Exit status:
              0  every input line was replayed
              1  some input was skipped (rejected or late lines, unreadable files: see
                 rejects.jsonl); the rest was replayed and the reports written
              2  a usage error, before any work
              3  the reports or the --state file could not be written (the previous
                 ones are left as they were)
              4  --strict, --max-rejects or --max-late refused the input, or the
                 --state file could not be read or had consumed an input already (a
                 rerun without --replace-run): nothing was written
              5  the reports were written, but some metric batches could not be
                 delivered: they wait in the spool for the next run or flush
              6  no input could be read: nothing was written
              7  the reports were written, but some metric batches could be neither
                 delivered nor kept in the spool: they are lost (named on standard error)
              8  another run holds the report folder or the --state file: nothing was
                 written
            check and diff exit 0 when the report sets are the same and 1 when they \
            differ; merge and flush as a replay does (docs/operations.md).

            Examples:
              avt-replay logs/*.jsonl.gz
              avt-replay --out /var/reports/2025-11-20 \\
                --state /var/lib/avt/open.state --quiet logs/20251120*.jsonl.gz
              avt-replay --trace --trace-rejected --out expected/ recorded/*.jsonl.gz
              zcat today.jsonl.gz | avt-replay --hub core -
              avt-replay --bucket 1d --group-by title,source_host logs/*.jsonl.gz
              avt-replay --vp-duration open:complete \\
                --vp-middleware metrics=skip-name:debugScreen logs/*.gz
              avt-replay --influx 'http://127.0.0.1:8086/write?db=telemetry' \\
                --graphite 127.0.0.1:2003 logs/*.gz
              avt-replay flush --spool reports.spool \\
                --influx 'http://127.0.0.1:8086/write?db=telemetry'
              avt-replay check --expect expected/ --trace --trace-rejected \\
                recorded/*.jsonl.gz
              avt-replay check --record --expect expected/ --trace --trace-rejected \\
                recorded/*.jsonl.gz
              avt-replay diff --max-differences 20 reports-before/ reports-after/
              avt-replay --shard 2/3 --out shard-2 logs/*.gz  # one of three machines
              avt-replay merge --out reports shard-1 shard-2 shard-3
              avt-replay --generate-completion-script bash  # completions: bash, zsh, fish
            """,
        subcommands: [
            ReplayCommand.self, MergeCommand.self, PartitionCommand.self, FlushCommand.self, CheckCommand.self,
            DiffCommand.self,
            VersionCommand.self,
        ],
        defaultSubcommand: ReplayCommand.self
    )

    /// The names of the subcommands, as typed.
    static var subcommandNames: [String] {
        avtReplayConfiguration.subcommands.map { $0._commandName }
    }

    /// A usage error for `help NAME` when NAME is no subcommand (`help` alone, or with a
    /// subcommand, is the parser's).
    static func unknownHelpTopic(_ arguments: ArraySlice<String>) -> String? {
        guard arguments.first == "help", let topic = arguments.dropFirst().first,
            !subcommandNames.contains(topic)
        else { return nil }
        return "Error: '\(topic)' is not a subcommand of \(ReplayTool.current.name) ("
            + subcommandNames.joined(separator: ", ") + ")."
    }

    static func main() {
        // For glibc's malloc (`avt-replay` itself links jemalloc, which these calls leave
        // alone; a command built on this library may not): give freed memory back to the
        // system once 64 KiB are free at the top of the heap (glibc keeps 128 KiB and more
        // by default, and raises that as it goes): sessions come and go all night, and their
        // freed records would otherwise stay, raising the peak memory of a longer log.
        _ = avt_set_malloc_trim_threshold(64 * 1024)
        // Two arenas, as for jemalloc (CMallocTuning): each arena keeps its own free memory,
        // and more of them made the peak vary more from run to run.
        _ = avt_set_malloc_arena_max(2)
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let message = unknownHelpTopic(arguments[...]) {
            printError(message)
            Foundation.exit(ExitStatus.usage.rawValue)
        }
        if AvtReplayOverview.presents(arguments) {
            // `help` would be a file of the replay there.
            AvtReplayOverview.main(arguments == ["help"] ? ["--help"] : arguments)
        }
        if let script = CompletionScripts.requested(arguments) {
            print(script, terminator: "")
            Foundation.exit(0)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                printError(fullMessage(for: UsageError.cause(of: error, parsing: arguments, as: Self.self)))
                Foundation.exit(ExitStatus.usage.rawValue)
            }
            exit(withError: error)
        }
    }
}

/// `avt-replay` as its help (`avt-replay --help`, `help`) and manual present it: the replay's
/// options at the top, as people type them (`avt-replay --out DIR FILE...`), then the
/// subcommands. It only presents: ``AvtReplayCommand`` parses every command line, since
/// options of the replay declared at the top would be taken from the subcommands' own.
struct AvtReplayOverview: ParsableCommand {
    static var configuration: CommandConfiguration {
        var configuration = AvtReplayCommand.configuration
        let name = configuration.commandName ?? "avt-replay"
        configuration.usage = """
            \(name) [<options>] <files> ...
            \(name) <subcommand> [<options>] ...
            """
        return configuration
    }

    @OptionGroup var replay: ReplayCommand

    /// Whether `arguments` ask for the overview: the help alone (`--help`, `-h`, `help`) or
    /// the description of the commands that the man page is made from (`--experimental-dump-help`).
    static func presents(_ arguments: [String]) -> Bool {
        arguments.count == 1 && ["--help", "-h", "-help", "help", "--experimental-dump-help"].contains(arguments[0])
    }
}
