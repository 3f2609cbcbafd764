import Foundation
import Testing

/// Nightly runs with `--state`: two runs over two halves give what one run over both gives.
struct NightlyRunTests {
    @Test func twoRunsWithStateGiveTheSameReportsAsOneRun() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = CommandRunner.samples
        let whole = folder.appendingPathComponent("whole")
        let first = folder.appendingPathComponent("first")
        let second = folder.appendingPathComponent("second")
        let state = folder.appendingPathComponent("open.state").path
        let wholeState = folder.appendingPathComponent("whole.state").path
        let arguments = CommandRunner.mainArguments
        #expect(try CommandRunner.run(arguments + ["--out", whole.path, "--state", wholeState] + samples).status == 0)
        let day1 = try CommandRunner.run(arguments + ["--out", first.path, "--state", state, samples[0]])
        #expect(day1.status == 0)
        #expect(day1.standardError.contains("kept in \(state)"))
        let day2 = try CommandRunner.run(arguments + ["--out", second.path, "--state", state, samples[1]])
        #expect(day2.status == 0)
        #expect(day2.standardError.contains("records resumed from"))
        // Every report but summary.csv, aggregates.csv and report.html, which sum up each run's own sessions.
        let perRun: Set = ["summary.csv", "aggregates.csv", "report.html"]
        let concatenated = SampleReplayTests.reportFiles.filter { !perRun.contains($0) }
        for name in concatenated {
            let expected = try lines(whole, name)
            let split = try lines(first, name) + (try lines(second, name)).dropFirst(name.hasSuffix(".csv") ? 1 : 0)
            #expect(split == expected, "\(name) differs")
            #expect(!expected.isEmpty || name == "rejects.jsonl", "\(name)")
        }
        // The sessions still open at the end are the same, kept for the next night.
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == Data(contentsOf: URL(fileURLWithPath: wholeState)))
        // The last run of a series closes them: then the reports are those of a run without state.
        let last = folder.appendingPathComponent("last")
        let finished = try CommandRunner.run(
            arguments + ["--out", last.path, "--state", state, "--finish", "/dev/null"])
        #expect(finished.status == 0)
        let plain = folder.appendingPathComponent("plain")
        #expect(try CommandRunner.run(arguments + ["--out", plain.path] + samples).status == 0)
        for name in concatenated {
            let expected = try lines(plain, name)
            let header = name.hasSuffix(".csv") ? 1 : 0
            let split =
                try lines(first, name) + (try lines(second, name)).dropFirst(header)
                + (try lines(last, name)).dropFirst(header)
            #expect(split == expected, "\(name)")
        }
        // Reruns over the same input give the same bytes.
        let again = folder.appendingPathComponent("again")
        #expect(try CommandRunner.run(arguments + ["--out", again.path] + samples).status == 0)
        for name in SampleReplayTests.reportFiles {
            #expect(try lines(again, name) == lines(plain, name), "\(name)")
        }
    }

    @Test func aStateFileThatIsNotOneFailsWithoutWritingAnything() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("broken.state")
        try Data("not a state\n".utf8).write(to: state)
        let out = folder.appendingPathComponent("out")
        let result = try CommandRunner.run(["--out", out.path, "--state", state.path] + CommandRunner.samples)
        #expect(result.status == 4)
        #expect(result.standardError.contains("not an avt-replay state file"))
        #expect(try String(contentsOf: state, encoding: .utf8) == "not a state\n")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("playbacks.csv").path))
    }

    private func lines(_ folder: URL, _ name: String) throws -> [Substring] {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).split(separator: "\n")
    }
}
