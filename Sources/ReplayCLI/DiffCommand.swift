import ArgumentParser
import ReplayApp
import ReportDiff

/// `avt-replay diff DIR_A DIR_B`: compares two stored report sets.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two stored report sets, file by file, and say what changed from the first to the second.",
        discussion: """
            Exit status: 0 when they are the same, 1 when they differ, 2 for a usage error, 4 when \
            a folder or a report file in it cannot be read.
            """
    )

    @Argument(help: ArgumentHelp("The first report set (before).", valueName: "dir-a"))
    var before: String

    @Argument(help: ArgumentHelp("The second report set (after).", valueName: "dir-b"))
    var after: String

    @OptionGroup var differences: DifferenceOptions

    func run() throws {
        let sets: (ReportFiles, ReportFiles)
        do {
            sets = (try ReportFiles(folder: before), try ReportFiles(folder: after))
        } catch {
            printError("avt-replay: cannot read a report set: \(error)")
            throw ExitStatus.inputFailed.exitCode
        }
        let code = differences.report(
            ReportComparison(before: sets.0, after: sets.1), command: "diff", before: before, after: after)
        if code != .success { throw code }
    }
}
