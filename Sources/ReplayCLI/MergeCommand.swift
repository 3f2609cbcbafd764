import ArgumentParser
import Foundation
import Replay
import ReplayApp

/// `avt-replay merge --out DIR SHARD_DIR...`: combines the reports of the shards of a run
/// (`--shard K/N`) into the report set an unsharded run writes.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the report folders of the shards of a run (--shard K/N) into one report set.",
        discussion: """
            The result is byte for byte what one run without --shard writes with the same options and \
            input. Each folder must hold a shard's reports with its sessions.index and summary.state; \
            the shards must be of one run (the same N and options), each once. Merging fewer than N \
            shards fails (exit 4) unless --partial is given: then the reports hold their sessions only.
            """
    )

    @Argument(help: "The report folders of the shards.")
    var shards: [String] = []

    @Option(name: .long, help: "The folder the merged reports are written into (created if missing).")
    var out: String = "reports"

    @OptionGroup var push: PushOptions

    @Flag(name: .shortAndLong, help: "Print nothing but fatal errors.")
    var quiet = false

    @Flag(
        name: .long,
        help: "Merge the shards given even when some of the N are missing (their sessions are then not in the reports)."
    )
    var partial = false

    func validate() throws {
        guard UsageError.checksValues else { return }
        if shards.isEmpty {
            throw ValidationError("Give the report folders of the shards to merge.")
        }
        let target = URL(fileURLWithPath: out).standardizedFileURL.path
        if shards.contains(where: { URL(fileURLWithPath: $0).standardizedFileURL.path == target }) {
            throw ValidationError("--out must not be one of the shard folders: merge into a folder of its own.")
        }
        try push.validate(besideReportsIn: out)
        let targets = OutputTargets(inputs: shards)
        try targets.checkFolder("--out", out)
        if let spool = push.spool { try targets.checkFolder("--spool", spool) }
    }

    func run() throws {
        let status = execute()
        if status != .success { throw status.exitCode }
    }

    private func execute() -> ExitStatus {
        let merger: ShardMerger
        do {
            merger = try ShardMerger(folders: shards)
        } catch {
            printError("avt-replay merge: \(error); nothing was written")
            return .inputFailed
        }
        let missing = (1...max(merger.shardCount, 1)).filter { !merger.shardIndices.contains($0) }
        let missingText =
            (missing.count == 1 ? "shard " : "shards ") + missing.map(String.init).joined(separator: ", ")
        if !missing.isEmpty {
            let given = merger.shardIndices.sorted().map(String.init).joined(separator: ", ")
            guard partial else {
                printError(
                    "avt-replay merge: \(missingText) of "
                        + "\(merger.shardCount) missing (given: \(given)); nothing was written: give every shard's "
                        + "folder, or --partial to merge these alone")
                return .inputFailed
            }
            if !quiet {
                printError(
                    "avt-replay merge: --partial: \(missingText) of "
                        + "\(merger.shardCount) missing: their sessions are not in the reports")
            }
        }
        let folder: ReportFolder
        do {
            folder = try ReportFolder(path: out)
        } catch {
            printError("avt-replay merge: \(error)")
            return error.isBusy ? .busy : .outputFailed
        }
        // The lock is held until the metrics are pushed.
        defer { withExtendedLifetime(folder) {} }
        let reports: ReportSet
        do {
            reports = try ReportSet(
                folder: folder.staging, withTrace: merger.trace, prefix: merger.prefix, bucket: merger.bucket,
                groupBy: merger.groupBy,
                metricPoints: MetricPoints(
                    influxAggregates: merger.aggregate, graphiteAggregates: merger.graphiteAggregate),
                breakdownMinimumViews: merger.breakdownMinimumViews)
        } catch {
            printError("avt-replay merge: \(error)")
            folder.discard()
            return .outputFailed
        }
        let merged: (sessions: Int, hasRejects: Bool)
        do {
            merged = try merger.merge(into: reports)
        } catch {
            printError("avt-replay merge: \(error); nothing was written")
            folder.discard()
            return .inputFailed
        }
        do {
            try reports.commit(provenance: merger.provenance)
            try merger.writeMergeState(into: folder.staging)
            try folder.publish()
        } catch {
            printError("avt-replay merge: \(error)")
            folder.discard()
            return .outputFailed
        }
        let pushed = push.isEnabled ? push.push(fromFolder: out, quiet: quiet).result : .delivered
        if !quiet {
            let indices = merger.shardIndices.sorted().map(String.init).joined(separator: ", ")
            var text = "avt-replay merge: \(merged.sessions) sessions of shards \(indices) of \(merger.shardCount)"
            text += " written to \(out)/"
            if !missing.isEmpty {
                text += " (\(missingText) missing: their sessions are not in them)"
            }
            if merged.hasRejects { text += "; some input was skipped (see rejects.jsonl)" }
            printError(text + ".")
        }
        return pushed.status(after: merged.hasRejects ? .inputSkipped : .success)
    }
}
