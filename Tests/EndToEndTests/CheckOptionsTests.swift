import Foundation
import Testing

/// `check`'s recorded options, `report.html` compared by its data, and `--junit`.
struct CheckOptionsTests {
    @Test func recordedOptionsAreReusedAndOthersRefused() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expect = folder.appendingPathComponent("expected").path
        let options = ["--trace", "--bucket", "5m", "--group-by", "title"]
        let recorded = try CommandRunner.run(
            ["check", "--record", "--expect", expect] + options + CommandRunner.samples)
        #expect(recorded.status == 0, "\(recorded.standardError)")
        let file = try String(contentsOfFile: expect + "/check-options.json", encoding: .utf8)
        #expect(file.contains(#""--bucket","5m""#) && file.contains(#""--group-by","title""#))
        // No options: the recorded ones; the same ones: fine; others: a usage error.
        let reused = try CommandRunner.run(["check", "--expect", expect] + CommandRunner.samples)
        #expect(reused.status == 0, "\(reused.standardOutput)\(reused.standardError)")
        #expect(try CommandRunner.run(["check", "--expect", expect] + options + CommandRunner.samples).status == 0)
        let other = try CommandRunner.run(["check", "--expect", expect, "--bucket", "30m"] + CommandRunner.samples)
        #expect(other.status == 2)
        #expect(other.standardError.contains("was recorded with the options --trace"))
    }

    @Test func thePageIsComparedByTheValuesItShowsNotItsLayout() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let layout = try CheckCommandTests.editedCopy(
            in: folder.appendingPathComponent("layout"), file: "report.html", replacing: "<h1>avt-replay report</h1>",
            with: "<h1>Our videos</h1>")
        #expect(try CheckCommandTests.check(["--expect", layout.path]).status == 0)
        let value = try CheckCommandTests.editedCopy(
            in: folder.appendingPathComponent("value"), file: "report.html",
            replacing: #"data-row="all" data-col="views">7<"#, with: #"data-row="all" data-col="views">8<"#)
        let result = try CheckCommandTests.check(["--expect", value.path])
        #expect(result.status == 1)
        #expect(
            result.standardOutput.contains(
                "report.html: 1 difference\n  value csv=summary.csv row=all col=views: shown 8 → 7\n"))
    }

    @Test func junitHasATestCasePerFileAndTheDifferences() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try CheckCommandTests.editedCopy(
            in: folder, file: "playbacks.csv", replacing: ",16150,156600,", with: ",16250,156600,")
        let junit = folder.appendingPathComponent("junit.xml")
        #expect(try CheckCommandTests.check(["--expect", expected.path, "--junit", junit.path]).status == 1)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(xml.contains(#"<testsuites name="avt-replay check" tests="10" failures="1" errors="0">"#))
        #expect(xml.contains(#"<testcase classname="avt-replay.check" name="summary.csv"/>"#))
        #expect(
            xml.contains(
                #"<testcase classname="avt-replay.check" name="playbacks.csv">"# + "\n"
                    + #"      <failure message="1 difference">playback ios-7f3a9c:1763622300000:p1 of instrument ios-7f3a9c: start_time_ms 16250 → 16150</failure>"#
            ))
        // Other options than the recorded ones, and a replay that fails: one test case in error.
        let refused = try CommandRunner.run(
            [
                "check", "--expect", expected.path, "--junit", junit.path, "--bucket", "5m",
            ] + CommandRunner.samples)
        #expect(refused.status == 2)
        #expect(
            try String(contentsOf: junit, encoding: .utf8).contains(
                #"<error message="the options differ from the recorded ones"/>"#))
        try FileManager.default.removeItem(at: expected.appendingPathComponent("check-options.json"))
        let failed = try CommandRunner.run([
            "check", "--expect", expected.path, "--junit", junit.path, "--strict", "/nonexistent/a.jsonl",
        ])
        #expect(failed.status != 0 && failed.status != 1)
        #expect(try String(contentsOf: junit, encoding: .utf8).contains(#"<error message="the replay failed"#))
    }

    @Test func aJUnitFileThatCannotBeWrittenFailsTheCheck() throws {
        let result = try CheckCommandTests.check([
            "--expect", "Tests/Golden/samples", "--junit", "/nonexistent/folder/junit.xml",
        ])
        // The reports are the same, but CI must not pass on a JUnit file that is not there.
        #expect(result.status == 3, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(lines.first?.hasPrefix("avt-replay check: --junit: cannot write /nonexistent/folder/junit.xml") == true)
        #expect(result.standardError.components(separatedBy: "cannot write").count == 2)
    }

    @Test func junitDashWritesTheXMLToStandardOutput() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try CheckCommandTests.editedCopy(
            in: folder, file: "playbacks.csv", replacing: ",16150,156600,", with: ",16250,156600,")
        let result = try CommandRunner.run(
            ["check", "--expect", expected.path, "--junit", "-"] + CommandRunner.mainArguments
                + CommandRunner.samples, in: folder)
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(result.standardOutput.contains(#"<failure message="1 difference">"#))
        // The differences go to standard error, and no file named "-" is written.
        #expect(result.standardError.contains("avt-replay check: 1 difference in 1 of 10 files"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("-").path))
    }
}
