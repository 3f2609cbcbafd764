import ArgumentParser
import Foundation
import ReplayApp
import ReportDiff

/// How `check` and `diff` print what differs.
struct DifferenceOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Differences printed in full for each file; the rest of the file's are counted.", valueName: "n"))
    var maxDifferences = 5

    func validate() throws {
        guard UsageError.checksValues else { return }
        if maxDifferences < 0 { throw ValidationError("--max-differences must be 0 or more.") }
    }

    /// Prints the outcome of `comparison` on standard output (or standard error, when standard
    /// output carries something else: `check --junit -`): one line when the sets are the same,
    /// else a line with the counts and the differences. Returns the exit code: 0 for the same
    /// sets, 1 for sets that differ.
    func report(
        _ comparison: ReportComparison, command: String, before: String, after: String,
        to output: FileHandle = .standardOutput
    ) -> ExitCode {
        let compared = comparison.comparedFiles.count
        guard !comparison.isEmpty else {
            output.write(
                Data(
                    "avt-replay \(command): no difference between \(before) and \(after) (\(count(compared, "file")) compared)\n"
                        .utf8))
            return .success
        }
        var text = "avt-replay \(command): \(count(comparison.differenceCount, "difference")) in "
        text +=
            "\(comparison.files.count) of \(count(compared, "file")), from \(before) (before) to \(after) (after):\n"
        text += comparison.text(maxDifferencesPerFile: maxDifferences)
        output.write(Data(text.utf8))
        return ExitStatus.reportsDiffer
    }

    private func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
