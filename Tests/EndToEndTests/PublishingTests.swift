import Foundation
import Testing

/// A run replaces the reports only when it succeeds: staged beside them, the state written,
/// then published; a run that reads no input, cannot write its state, or is killed at any
/// step leaves the previous reports byte-identical.
struct PublishingTests {
    private func reports(in folder: URL) throws -> [String: Data] {
        try BadInputTests.contents(of: folder)
    }

    @Test func aRunThatReadsNoInputLeavesThePreviousReports() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        #expect(try CommandRunner.run(["--out", out.path] + CommandRunner.samples).status == 0)
        let before = try reports(in: out)
        // A glob that matched nothing, and a missing file.
        for arguments in [[folder.appendingPathComponent("logs/*.jsonl.gz").path], ["/nonexistent/a.jsonl"]] {
            let result = try CommandRunner.run(["--out", out.path] + arguments)
            #expect(result.status == 6, "\(arguments)")
            #expect(result.standardError.contains("no input could be read"))
            #expect(try reports(in: out) == before)
        }
        // A misspelt subcommand is a usage error before any work.
        let misspelt = try CommandRunner.run(["--out", out.path, "verison"])
        #expect(misspelt.status == 2)
        #expect(try reports(in: out) == before)
    }

    @Test func aStateThatCannotBeWrittenLeavesThePreviousReports() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        #expect(try CommandRunner.run(["--out", out.path] + CommandRunner.samples).status == 0)
        let before = try reports(in: out)
        let file = folder.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let result = try CommandRunner.run(
            ["--out", out.path, "--trace", "--state", file.appendingPathComponent("state").path]
                + CommandRunner.samples)
        #expect(result.status == 3)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0 != "run.json" }.sorted()
                == before.keys.sorted())
        #expect(try reports(in: out) == before)
    }

    /// Killed with every report staged, a run leaves the reports and the state as they were,
    /// and the same run again goes on.
    @Test func aRunKilledAfterStagingChangesNothing() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let state = folder.appendingPathComponent("state").path
        let (first, second) = (CommandRunner.samples[0], CommandRunner.samples[1])
        #expect(try CommandRunner.run(["--out", out.path, "--state", state, first]).status == 0)
        let before = try reports(in: out)
        let stateBefore = try Data(contentsOf: URL(fileURLWithPath: state))
        let killed = try CommandRunner.run(
            ["--out", out.path, "--state", state, second], environment: ["AVT_REPLAY_KILL_AT": "staged"])
        #expect(killed.status == SIGKILL)
        #expect(try reports(in: out) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == stateBefore)
        #expect(try CommandRunner.run(["--out", out.path, "--state", state, second]).status == 0)
    }

    /// Killed after its state and before its reports, a run has consumed its inputs: the
    /// reports are the previous ones, the same run again is refused, and `--replace-run` gives
    /// the reports of an unbroken run.
    @Test func aRunKilledAfterItsStateIsReplacedByReplaceRun() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (first, second) = (CommandRunner.samples[0], CommandRunner.samples[1])
        let clean = folder.appendingPathComponent("clean")
        let cleanState = folder.appendingPathComponent("clean.state").path
        #expect(try CommandRunner.run(["--out", clean.path, "--state", cleanState, first]).status == 0)
        #expect(try CommandRunner.run(["--out", clean.path, "--state", cleanState, second]).status == 0)
        let out = folder.appendingPathComponent("out")
        let state = folder.appendingPathComponent("state").path
        #expect(try CommandRunner.run(["--out", out.path, "--state", state, first]).status == 0)
        let before = try reports(in: out)
        let killed = try CommandRunner.run(
            ["--out", out.path, "--state", state, second], environment: ["AVT_REPLAY_KILL_AT": "state-written"])
        #expect(killed.status == SIGKILL)
        #expect(try reports(in: out) == before)
        #expect(try CommandRunner.run(["--out", out.path, "--state", state, second]).status == 4)
        #expect(try CommandRunner.run(["--out", out.path, "--state", state, "--replace-run", second]).status == 0)
        #expect(try reports(in: out) == reports(in: clean))
    }
}
