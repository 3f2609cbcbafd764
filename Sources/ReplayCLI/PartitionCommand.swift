import ArgumentParser
import EventLog
import Foundation
import ReplayApp

/// `avt-replay partition --shards N --out DIR FILE...`: splits the inputs among the shards of a
/// sharded run, so that `avt-replay --shard K/N DIR/K/*` reads only shard K's records.
struct PartitionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "partition",
        abstract: "Split the input among the N shards of a sharded run, each shard's records into a folder of its own.",
        discussion: """
            Writes DIR/1 … DIR/N, each holding a part file per input with the lines of the shard's \
            instruments, apps and players (and in DIR/1 the lines that are not records), and \
            DIR/partition.json. Then replay each shard with `avt-replay --shard K/N DIR/K/*` (with the \
            same --max-lateness and --ts-unit) and merge them with `avt-replay merge`: the reports are \
            byte for byte those of one run over the inputs. An existing partition in DIR is replaced \
            once the new one is complete. Exit 1 when a file could not be read whole (the shards report it).
            """
    )

    @Argument(help: "The event-log files (gzipped or not).")
    var files: [String] = []

    @Option(name: .long, help: "How many shards to split the input into.")
    var shards: Int

    @Option(name: .long, help: "The folder to write the partition into.")
    var out: String

    @Option(
        name: .long,
        help: .duration(
            "The reorder window the shards will replay with (their --max-lateness): it places the late records.",
            default: DurationArgument.maxLatenessDefault),
        transform: DurationArgument.init(parsing:))
    var maxLateness = DurationArgument.maxLatenessDefault

    @Option(
        name: .long,
        help: ArgumentHelp("The unit of a ts given as a number (as the shards' --ts-unit).", valueName: "unit"))
    var tsUnit: RecordDecoder.TimestampUnit?

    @OptionGroup var threads: ThreadsOption

    @Flag(name: .shortAndLong, help: "Print nothing but fatal errors.")
    var quiet = false

    func validate() throws {
        guard UsageError.checksValues else { return }
        if files.isEmpty { throw ValidationError("Give the event-log files to partition.") }
        if !(1...4_096).contains(shards) { throw ValidationError("--shards must be from 1 to 4096, not \(shards).") }
        if files.contains("-") { throw ValidationError("partition reads files, not standard input.") }
        try OutputTargets(inputs: files).checkFolder("--out", out)
    }

    func run() throws {
        let inputs = ReplayConfiguration.inputOrder(files)
        let manifest: PartitionManifest
        do {
            manifest = try Partition.run(
                paths: inputs, shards: shards, out: out, maxLateness: maxLateness.milliseconds, timestampUnit: tsUnit,
                threads: threads.count)
        } catch {
            printError("avt-replay partition: \(error); nothing was written")
            throw ExitCode(3)
        }
        for problem in manifest.problems {
            printError("avt-replay partition: \(problem.file): \(problem.message)")
        }
        if !quiet {
            let lines = manifest.inputs.reduce(0) { $0 + $1.lines }
            printError(
                "avt-replay partition: \(lines) lines of \(manifest.inputs.count) files into \(shards) shards in \(out)"
            )
        }
        if !manifest.problems.isEmpty { throw ExitCode(1) }
    }
}
