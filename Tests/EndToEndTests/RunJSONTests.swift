import Foundation
import Testing

/// `run.json`: what a run did, for cron wrappers, whether it succeeded or not.
struct RunJSONTests {
    private func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aRunSaysWhatItReadAndWrote() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("bad.jsonl")
        try Data("not json\n".utf8).write(to: bad)
        let out = folder.appendingPathComponent("out")
        let state = folder.appendingPathComponent("state").path
        let result = try CommandRunner.run(
            ["--quiet", "--out", out.path, "--state", state, bad.path] + CommandRunner.samples)
        #expect(result.status == 1)
        let run = try object(Data(contentsOf: out.appendingPathComponent("run.json")))
        #expect(run["exitStatus"] as? Int == 1)
        #expect(run["outcome"] as? String == "inputSkipped")
        #expect(run["reportsWritten"] as? Bool == true)
        let inputs = try #require(run["inputs"] as? [[String: Any]])
        #expect(inputs.count == 3)
        let badInput = try #require(inputs.first { ($0["name"] as? String)?.hasSuffix("bad.jsonl") == true })
        #expect(badInput["rejected"] as? Int == 1)
        #expect(badInput["size"] as? Int == 9)
        // With --state, every input's digest is known (the state records them).
        #expect(inputs.allSatisfy { ($0["digest"] as? String)?.count == 16 })
        let records = try #require(run["records"] as? [String: Any])
        #expect(records["read"] as? Int == 186)
        #expect(records["rejected"] as? Int == 1)
        let rows = try #require(run["rows"] as? [String: Any])
        #expect(rows["marconiItems"] as? Int != nil)
        #expect((run["peakMemoryKiB"] as? Int ?? 0) > 0)
    }

    /// A failed run writes its summary too, and `--summary-json -` prints it instead.
    @Test func aFailedRunSaysSoAndTheSummaryCanGoToStandardOutput() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let result = try CommandRunner.run(["--out", out.path, "--summary-json", "-", "/nonexistent/a.jsonl"])
        #expect(result.status == 6)
        let run = try object(Data(result.standardOutput.utf8))
        #expect(run["outcome"] as? String == "noInput")
        #expect(run["reportsWritten"] as? Bool == false)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("run.json").path))
    }
}
