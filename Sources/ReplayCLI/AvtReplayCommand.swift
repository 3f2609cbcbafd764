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
            metrics.graphite and rejects.jsonl (and events.jsonl with --trace) into the output folder, each file whole or not at all. The same logs, \
            in any order, always give the same bytes.

            Exit status: 0 when every line was replayed, 1 when some input was skipped (see \
            rejects.jsonl), 2 for a usage error, 3 when the reports could not be written, 4 when \
            --strict or --max-rejects refused the input, or --state found it replayed already \
            (no reports written), 5 when metrics could \
            not be delivered to a server (they are kept in the spool for the next run or flush), \
            6 when no input could be read (the previous reports are left as they were), 7 when \
            metrics could be neither delivered nor kept in the spool. \
            check and diff exit 0 when the report sets are the same and 1 when they differ.

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
            ReplayCommand.self, MergeCommand.self, FlushCommand.self, CheckCommand.self, DiffCommand.self,
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
        // Two arenas for the reading thread and the two replay workers: each arena keeps its
        // own free memory, and more of them made the peak vary more from run to run.
        _ = avt_set_malloc_arena_max(2)
        if let message = unknownHelpTopic(CommandLine.arguments.dropFirst()) {
            FileHandle.standardError.write(Data((message + "\n").utf8))
            Foundation.exit(ExitStatus.usage.rawValue)
        }
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
}
