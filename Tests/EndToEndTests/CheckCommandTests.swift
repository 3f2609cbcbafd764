import Foundation
import Testing

/// `check` and `diff` as a CI job runs them: against the committed reports of the samples.
struct CheckCommandTests {
    static let reports = CommandRunner.packageRoot.appendingPathComponent("Tests/Golden/samples")

    /// `check` with the README's main command's options.
    static func check(_ arguments: [String]) throws -> CommandRunner.Output {
        try CommandRunner.run(["check"] + arguments + CommandRunner.mainArguments + CommandRunner.samples)
    }

    /// A copy of the committed reports in `folder`, with `old` replaced by `new` in `file`.
    static func editedCopy(in folder: URL, file: String, replacing old: String, with new: String) throws -> URL {
        let copy = folder.appendingPathComponent("expected")
        try FileManager.default.copyItem(at: reports, to: copy)
        let path = copy.appendingPathComponent(file)
        let text = try String(contentsOf: path, encoding: .utf8)
        #expect(text.components(separatedBy: old).count == 2, "\(old) must occur once in \(file)")
        try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: path)
        return copy
    }

    @Test func checkAgainstTheCommittedReportsPasses() throws {
        let result = try Self.check(["--expect", "Tests/Golden/samples"])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(
            result.standardOutput
                == "avt-replay check: no difference between Tests/Golden/samples and the replay (10 files compared)\n")
    }

    @Test func oneEditedValueFailsTheCheckAndNamesThePlaybackAndTheColumn() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try Self.editedCopy(
            in: folder, file: "playbacks.csv", replacing: ",16150,156600,", with: ",16250,156600,")
        let result = try Self.check(["--expect", expected.path])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(
            result.standardOutput == """
                avt-replay check: 1 difference in 1 of 10 files, from \(expected.path) (before) to the replay (after):
                playbacks.csv: 1 difference
                  playback ios-7f3a9c:1763622300000:p1 of instrument ios-7f3a9c: start_time_ms 16250 → 16150

                """)
    }

    @Test func anEditedTraceMetricNamesTheEventAndTheMetric() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try Self.editedCopy(
            in: folder, file: "events.jsonl", replacing: #""metrics":{"StartTime":16150,"#,
            with: #""metrics":{"StartTime":16000,"#)
        let result = try Self.check(["--expect", expected.path])
        #expect(result.status == 1)
        #expect(
            result.standardOutput.contains(
                "\nevents.jsonl: 1 difference\n  event 6 (Start at 1763622316150) of instrument ios-7f3a9c, tracker 0: "
                    + "metric StartTime 16000 → 16150\n"))
    }

    @Test func recordThenCheckPassesAndAFailedRecordChangesNothing() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = folder.appendingPathComponent("expected")
        let recorded = try Self.check(["--record", "--expect", expected.path])
        #expect(recorded.status == 0, "\(recorded.standardError)")
        #expect(recorded.standardOutput == "avt-replay check: recorded the replay's reports in \(expected.path)\n")
        for name in SampleReplayTests.reportFiles {
            #expect(
                try Data(contentsOf: expected.appendingPathComponent(name))
                    == Data(contentsOf: Self.reports.appendingPathComponent(name)), "\(name)")
        }
        #expect(try Self.check(["--expect", expected.path]).status == 0)

        // A replay that fails (--strict and a missing file) leaves the recorded set as it was.
        let failed = try CommandRunner.run(
            ["check", "--record", "--expect", expected.path, "--strict", "--hub", "core", "/nonexistent/a.jsonl"]
                + CommandRunner.samples)
        #expect(failed.status == 4)
        #expect(try Self.check(["--expect", expected.path]).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: expected.path).sorted()
        #expect(names == (SampleReplayTests.reportFiles + ["check-options.json"]).sorted())

        // Recording without --trace removes the trace the set had, so that a check without it passes.
        let untraced = ["--expect", expected.path] + CommandRunner.samples
        #expect(try CommandRunner.run(["check", "--record"] + untraced).status == 0)
        #expect(!FileManager.default.fileExists(atPath: expected.appendingPathComponent("events.jsonl").path))
        let check = try CommandRunner.run(["check"] + untraced)
        #expect(check.status == 0, "\(check.standardOutput)")
        #expect(check.standardOutput.contains("(9 files compared)"))
    }

    @Test func aCheckRunFromAnotherFolderSaysTheInputsPathsDifferAndComparesByFileName() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let logs = folder.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        try Data(RefusalsTests.mostlyGood.utf8).write(to: logs.appendingPathComponent("day.jsonl"))
        let elsewhere = folder.appendingPathComponent("ci")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let recorded = try CommandRunner.run(
            ["check", "--record", "--expect", "expected", "logs/day.jsonl"], in: folder)
        #expect(recorded.status == 0, "\(recorded.standardError)")

        let check = try CommandRunner.run(["check", "--expect", "../expected", "../logs/day.jsonl"], in: elsewhere)
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        #expect(
            check.standardError.contains(
                "the inputs' paths differ from those ../expected was recorded with (run from another folder?): "
                    + "../logs/day.jsonl (recorded as logs/day.jsonl); their rejects are compared by file name"),
            "\(check.standardError)")
        #expect(!check.standardOutput.contains("missing reject"))

        // A reject that really changed is still one, named by the recorded path.
        var edited = RefusalsTests.mostlyGood
        edited.replace("not json 57", with: #"{"ts":1763622300057,"instrument":"i2","tracker":0,"action":"Ping"}"#)
        try Data(edited.utf8).write(to: logs.appendingPathComponent("day.jsonl"))
        let changed = try CommandRunner.run(["check", "--expect", "../expected", "../logs/day.jsonl"], in: elsewhere)
        #expect(changed.status == 1)
        #expect(changed.standardOutput.contains("missing reject of logs/day.jsonl:58"), "\(changed.standardOutput)")
    }

    @Test func diffComparesTwoStoredRuns() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let edited = try Self.editedCopy(
            in: folder, file: "summary.csv", replacing: "\nall,7,4,", with: "\nall,8,4,")
        let graphite = edited.appendingPathComponent("metrics.graphite")
        let lines = try String(contentsOf: graphite, encoding: .utf8).split(separator: "\n")
        try Data((lines.dropFirst().joined(separator: "\n") + "\n").utf8).write(to: graphite)
        try FileManager.default.removeItem(at: edited.appendingPathComponent("events.jsonl"))

        let result = try CommandRunner.run(["diff", "Tests/Golden/samples", edited.path])
        #expect(result.status == 1)
        #expect(
            result.standardOutput == """
                avt-replay diff: 3 differences in 3 of 10 files, from Tests/Golden/samples (before) to \(edited.path) (after):
                summary.csv: 1 difference
                  bucket all: views 7 → 8
                metrics.graphite: 1 line removed, 0 added
                  missing line: \(lines[0])
                events.jsonl: 1 difference
                  missing file

                """)
        let same = try CommandRunner.run(["diff", "Tests/Golden/samples", "Tests/Golden/samples"])
        #expect(same.status == 0)
        #expect(
            same.standardOutput
                == "avt-replay diff: no difference between Tests/Golden/samples and Tests/Golden/samples (10 files compared)\n"
        )
        let counted = try CommandRunner.run(["diff", "--max-differences", "0", edited.path, "Tests/Golden/samples"])
        #expect(counted.status == 1)
        #expect(
            counted.standardOutput.contains("summary.csv: 1 difference\n  ... and 1 more difference in summary.csv\n"))
        #expect(
            counted.standardOutput.contains("events.jsonl: 1 difference\n  ... and 1 more difference in events.jsonl\n")
        )
    }

    @Test func unreadableSetsAndUsageErrorsHaveTheirCodes() throws {
        let missing = try CommandRunner.run(["diff", "Tests/Golden/samples", "/nonexistent/reports"])
        #expect(missing.status == 4)
        #expect(missing.standardError.contains("/nonexistent/reports: no such folder"))
        let noExpected = try Self.check(["--expect", "/nonexistent/reports"])
        #expect(noExpected.status == 4)
        #expect(noExpected.standardError.contains("check --record"))
        #expect(try CommandRunner.run(["check"] + CommandRunner.samples).status == 2)
        #expect(try CommandRunner.run(["check", "--expect", "Tests/Golden/samples"]).status == 2)
        #expect(try CommandRunner.run(["diff", "Tests/Golden/samples"]).status == 2)
        #expect(
            try CommandRunner.run(["diff", "--max-differences", "-1", "Tests/Golden/samples", "Tests/Golden/samples"])
                .status == 2)
    }
}
