import ArgumentParser
import Foundation
import ReportDiff

/// `avt-replay check --expect DIR FILE...`: replays as `replay` does, into a temporary folder,
/// and compares the reports with the stored set in `DIR`; with `--record`, rewrites `DIR`.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Replay event logs and compare the reports with a stored set (regression testing).",
        discussion: """
            Replays FILE... with the options given, exactly as the replay command would, into a \
            temporary folder, and compares every report file with the one in --expect: CSV rows \
            by their key columns, trace events by instrument, tracker and place, rejects by file \
            and line, metric lines as they are. With --record, writes the reports into --expect \
            instead (replacing them only when the replay succeeds).

            Exit status: 0 when the reports are the same (or were recorded), 1 when they differ, \
            2 for a usage error, 3 when the reports could not be written, 4 when the expected set \
            cannot be read or --strict or --max-rejects refused the input.
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp("The stored report set to compare with (written with --record).", valueName: "dir"))
    var expect: String

    @Flag(name: .long, help: "Write the replay's reports into the --expect folder instead of comparing.")
    var record = false

    @OptionGroup var differences: DifferenceOptions

    @OptionGroup var replay: ReplayArguments

    func run() throws {
        let code = record ? recordReports() : check()
        if code != .success { throw code }
    }

    private func check() -> ExitCode {
        let expected: ReportFiles
        do {
            expected = try ReportFiles(folder: expect)
        } catch {
            printError("avt-replay: cannot read the expected reports: \(error) (write them with check --record)")
            return ExitStatus.inputFailed.exitCode
        }
        guard let folder = Self.makeTemporaryFolder() else {
            printError("avt-replay: cannot create a temporary folder in \(NSTemporaryDirectory())")
            return ExitStatus.outputFailed.exitCode
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (status, _) = ReplayRun(arguments: replay, out: folder, quiet: true).execute()
        guard status == .success || status == .inputSkipped else { return status.exitCode }
        let produced: ReportFiles
        do {
            produced = try ReportFiles(folder: folder)
        } catch {
            printError("avt-replay: cannot read the replay's reports: \(error)")
            return ExitStatus.outputFailed.exitCode
        }
        return differences.report(
            ReportComparison(before: expected, after: produced), command: "check", before: expect,
            after: "the replay")
    }

    /// Replays into the expected folder as `replay --out` does: every file is written to a
    /// temporary name and renamed over the old one only when the replay succeeded. A report
    /// file the replay no longer writes (`events.jsonl` without `--trace`) is removed after.
    private func recordReports() -> ExitCode {
        let (status, counts) = ReplayRun(arguments: replay, out: expect, quiet: true).execute()
        guard status == .success || status == .inputSkipped else { return status.exitCode }
        let trace = (expect as NSString).appendingPathComponent(ReportFile.trace.name)
        if !replay.writesTrace && FileManager.default.fileExists(atPath: trace) {
            do {
                try FileManager.default.removeItem(atPath: trace)
            } catch {
                printError("avt-replay: cannot remove \(trace), which this replay does not write: \(error)")
                return ExitStatus.outputFailed.exitCode
            }
        }
        var text = "avt-replay check: recorded the replay's reports in \(expect)"
        if counts.problems > 0 { text += " (with \(counts.problems) input problems, in rejects.jsonl)" }
        print(text)
        return .success
    }

    /// A new empty folder under the system's temporary folder, or nil.
    private static func makeTemporaryFolder() -> String? {
        var template = Array(
            (NSTemporaryDirectory() as NSString).appendingPathComponent("avt-replay-check-XXXXXX").utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
        }
    }
}
