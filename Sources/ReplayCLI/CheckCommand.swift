import ArgumentParser
import Foundation
import ReplayApp
import ReportDiff
import TextFormat

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
            instead (replacing them only when the replay succeeds), with the options it ran \
            with in check-options.json: a later check given no options reuses them. report.html \
            is compared by the values it shows, not by its layout. --junit writes the outcome as \
            JUnit XML, a test case per report file, for CI systems.

            Exit status: 0 when the reports are the same (or were recorded), 1 when they differ, \
            2 for a usage error, 3 when the reports or the --junit file could not be written, 4 \
            when the expected set cannot be read or --strict or --max-rejects refused the input.
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp("The stored report set to compare with (written with --record).", valueName: "dir"))
    var expect: String

    @Flag(name: .long, help: "Write the replay's reports into the --expect folder instead of comparing.")
    var record = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Also write the outcome as JUnit XML to this file (- for standard output; the differences then go to standard error).",
            valueName: "file"))
    var junit: String?

    @OptionGroup var differences: DifferenceOptions

    @OptionGroup var replay: ReplayArguments
    @OptionGroup(title: "Scale") var threads: ThreadsOption

    /// The file beside the expected reports with the options they were recorded with.
    static let optionsName = "check-options.json"

    func validate() throws {
        guard UsageError.checksValues else { return }
        try replay.requireFiles()
        let targets = OutputTargets(inputs: replay.files)
        if record { try targets.checkFolder("--expect", expect) }
        if let junit { try targets.checkFile("--junit", junit, kind: .junit, reports: expect) }
    }

    func run() throws {
        let code = record ? recordReports() : check()
        if code != .success { throw code }
    }

    /// The replay's options: those given, or with none given, those the expected set was
    /// recorded with; `nil` (with the reason printed) when they are not the recorded ones.
    private func replayArguments() -> ReplayArguments? {
        guard let recorded = Self.recordedOptions(in: expect) else { return replay }
        let defaults = (try? ReplayArguments.parse(replay.files))?.options
        if replay.options == recorded { return replay }
        if replay.options == defaults, let arguments = try? ReplayArguments.parse(recorded + replay.files) {
            return arguments
        }
        printError(
            "avt-replay check: \(expect) was recorded with the options \(recorded.joined(separator: " ")); "
                + "this check gives \(replay.options.joined(separator: " ")): give the same ones, or none to reuse them"
        )
        return nil
    }

    /// The options an expected set was recorded with, or `nil` when it has none (recorded by a
    /// `replay`, or an earlier version).
    static func recordedOptions(in folder: String) -> [String]? {
        let path = (folder as NSString).appendingPathComponent(optionsName)
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let options = object["options"] as? [String]
        else { return nil }
        return options
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
        let removal = Interruption.register { try? FileManager.default.removeItem(atPath: folder) }
        defer {
            Interruption.unregister(removal)
            try? FileManager.default.removeItem(atPath: folder)
        }
        guard let arguments = replayArguments() else {
            return writeJUnit(
                JUnitReport.failedReplay(expect: expect, reason: "the options differ from the recorded ones"),
                status: ExitStatus.usage.exitCode)
        }
        let replayed = (folder as NSString).appendingPathComponent("reports")
        var run = ReplayRun(arguments: arguments.configuration, out: replayed, quiet: true, threads: threads.count)
        // A refused replay keeps its rejects beside the expected set, as --record's would.
        run.refusedRejects = ReportFolder.refusedRejects(of: expect)
        let outcome = run.execute()
        outcome.end()
        let status = outcome.status
        guard outcome.published else {
            return writeJUnit(
                JUnitReport.failedReplay(
                    expect: expect, reason: "the replay failed with exit status \(status.rawValue)"),
                status: status.exitCode)
        }
        let produced: ReportFiles
        do {
            produced = try ReportFiles(folder: replayed)
        } catch {
            printError("avt-replay: cannot read the replay's reports: \(error)")
            return ExitStatus.outputFailed.exitCode
        }
        let comparison = ReportComparison(
            before: expected, after: produced, renamedInputs: Self.compareInputNames(expected, produced, expect: expect)
        )
        // With --junit -, standard output is the XML's: the differences go to standard error.
        let compared = differences.report(
            comparison, command: "check", before: expect, after: "the replay",
            to: junit == "-" ? .standardError : .standardOutput)
        return writeJUnit(JUnitReport.comparison(comparison, expect: expect), status: compared)
    }

    /// Says plainly when the inputs' paths differ from those `rejects.jsonl` recorded (a check
    /// run from another folder than the one it was recorded in), and returns the given paths
    /// whose file name matches one recorded path: their rejects are compared under the
    /// recorded name.
    static func compareInputNames(_ expected: ReportFiles, _ produced: ReportFiles, expect: String) -> [String: String]
    {
        guard let recorded = expected[.rejects].flatMap(RejectsComparison.inputs),
            let given = produced[.rejects].flatMap(RejectsComparison.inputs), recorded != given
        else { return [:] }
        let renamed = RejectsComparison.renamedInputs(before: recorded, after: given)
        if !renamed.isEmpty {
            let pairs = renamed.sorted { $0.key < $1.key }.map { "\($0.key) (recorded as \($0.value))" }
            printError(
                "avt-replay check: the inputs' paths differ from those \(expect) was recorded with (run from another "
                    + "folder?): \(pairs.joined(separator: ", ")); their rejects are compared by file name")
        }
        let unmatchedRecorded = recorded.filter { !given.contains($0) && !renamed.values.contains($0) }
        let unmatchedGiven = given.filter { !recorded.contains($0) && renamed[$0] == nil }
        if !unmatchedRecorded.isEmpty || !unmatchedGiven.isEmpty {
            printError(
                "avt-replay check: the rejects recorded in \(expect) name "
                    + (unmatchedRecorded.isEmpty ? "no other input" : unmatchedRecorded.joined(separator: ", "))
                    + "; this check's name "
                    + (unmatchedGiven.isEmpty ? "no other input" : unmatchedGiven.joined(separator: ", "))
                    + ": give the inputs by the paths they were recorded with, from the same folder")
        }
        return renamed
    }

    /// Writes `--junit`'s file, if asked for (`-`: standard output), and returns the check's
    /// exit status: `status`, or 3 when the file could not be written (said once on standard
    /// error), so that CI never passes on a stale or missing JUnit report.
    private func writeJUnit(_ bytes: [UInt8], status: ExitCode) -> ExitCode {
        guard let junit else { return status }
        if junit == "-" {
            FileHandle.standardOutput.write(Data(bytes))
            return status
        }
        do {
            try AtomicFile.write(bytes, to: junit)
            return status
        } catch {
            printError("avt-replay check: --junit: \(error)")
            return ExitStatus.outputFailed.exitCode
        }
    }

    /// Replays into the expected folder as `replay --out` does: the folder is replaced whole
    /// (``ReportFolder``), with the options the replay was made with, only when the replay
    /// succeeded.
    private func recordReports() -> ExitCode {
        let outcome = ReplayRun(
            arguments: replay.configuration, out: expect, quiet: true, threads: threads.count,
            extraFiles: [(Self.optionsName, Self.optionsFile(replay.options))]
        ).execute()
        outcome.end()
        guard outcome.published else { return outcome.status.exitCode }
        var text = "avt-replay check: recorded the replay's reports in \(expect)"
        if outcome.counts.problems > 0 { text += " (with \(outcome.counts.problems) input problems, in rejects.jsonl)" }
        print(text)
        return .success
    }

    /// `check-options.json`: `{"format":"avt-replay check options","options":[...],"version":"0.9.0"}`.
    static func optionsFile(_ options: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        var json = JSONWriter()
        json.beginObject(into: &bytes)
        json.key("format", into: &bytes)
        json.string("avt-replay check options", into: &bytes)
        json.key("options", into: &bytes)
        json.beginArray(into: &bytes)
        for option in options { json.string(option, into: &bytes) }
        json.endArray(into: &bytes)
        json.key("version", into: &bytes)
        json.string(AvtReplayVersion.current, into: &bytes)
        json.endObject(into: &bytes)
        json.endLine(into: &bytes)
        return bytes
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
