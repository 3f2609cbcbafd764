import Foundation
import Testing

/// `--shard K/N` and `merge`: the shards' reports merged are byte for byte the unsharded run's.
struct ShardMergeTests {
    /// Every file of a report set (with `--trace`).
    static let reportFiles = SampleReplayTests.reportFiles

    /// Runs `arguments` unsharded and as shards 1/n … n/n, merges the shards, and returns the
    /// folders: the unsharded run's, the merged one's, and the shards'.
    private func runSharded(
        _ arguments: [String], shards: Int = 3, in root: URL
    ) throws -> (whole: URL, merged: URL, shards: [URL]) {
        let whole = root.appendingPathComponent("whole")
        let single = try CommandRunner.run(["--quiet", "--out", whole.path] + arguments)
        #expect(single.status <= 1, "\(single.standardError)")
        var folders: [URL] = []
        for index in 1...shards {
            let folder = root.appendingPathComponent("shard-\(index)")
            let result = try CommandRunner.run(
                ["--quiet", "--shard", "\(index)/\(shards)", "--out", folder.path] + arguments)
            // A shard exits 1 only for rejects of its own (shard 1 has the lines no key owns).
            #expect(result.status <= single.status, "\(result.standardError)")
            folders.append(folder)
        }
        let merged = root.appendingPathComponent("merged")
        let merge = try CommandRunner.run(["merge", "--quiet", "--out", merged.path] + folders.map(\.path))
        #expect(merge.status == single.status, "\(merge.standardError)")
        return (whole, merged, folders)
    }

    private func expectSameReports(_ produced: URL, _ expected: URL, files: [String] = reportFiles) throws {
        for name in files {
            let left = try Data(contentsOf: produced.appendingPathComponent(name))
            let right = try Data(contentsOf: expected.appendingPathComponent(name))
            #expect(left == right, "\(name) differs")
        }
    }

    private func lines(_ folder: URL, _ name: String) throws -> Int {
        String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self)
            .split(separator: "\n").count
    }

    /// CSV rows after the header.
    private func rows(_ folder: URL, _ name: String) throws -> Int {
        try lines(folder, name) - 1
    }

    @Test(arguments: [
        [String](),
        ["--aggregate", "--group-by", "title,system", "--bucket", "5m", "--prefix", "a.b"],
        ["--metrics", "aggregates", "--group-by", "title", "--bucket", "5m"],
        ["--metrics", "playbacks", "--group-by", "title"],
        ["--metrics", "events"],
    ])
    func threeShardsOfTheSamplesMergeIntoTheUnshardedReports(extra: [String]) throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try runSharded(CommandRunner.mainArguments + extra + CommandRunner.samples, in: root)
        try expectSameReports(run.merged, run.whole)
        // Each shard has sessions of its own, and none has them all.
        let counts = try run.shards.map { try rows($0, "playbacks.csv") }
        #expect(counts.reduce(0, +) == (try rows(run.whole, "playbacks.csv")))
        #expect(counts.filter { $0 > 0 }.count >= 2)
        // The merged folder is a plain report set.
        let merged = try FileManager.default.contentsOfDirectory(atPath: run.merged.path)
        #expect(!merged.contains("summary.state") && !merged.contains("sessions.index"))
    }

    @Test func shardsOfAGeneratedLogWithLateRecordsAndRejectsMergeIntoTheUnshardedReports() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let logs = root.appendingPathComponent("logs")
        let generated = try CommandRunner.run(
            ["--records", "2500", "--files", "3", "--seed", "11", "--late", "25", "--out", logs.path],
            executable: CommandRunner.loggen)
        #expect(generated.status == 0, "\(generated.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: logs.path).sorted()
            .map { logs.appendingPathComponent($0).path }
        #expect(files.count == 3)
        // A line no shard can read, in the middle of the input.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: files[1]))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"ts\": \n".utf8))
        try handle.close()
        // A timeout shorter than the records' lateness: sessions restart and close out of order.
        let run = try runSharded(["--trace", "--idle-gap", "15s", "--aggregate"] + files, in: root)
        try expectSameReports(run.merged, run.whole)
        #expect(try lines(run.whole, "rejects.jsonl") == 1)
        for shard in run.shards {
            #expect(try rows(shard, "playbacks.csv") > 0)
        }
    }

    @Test func mergingOneShardGivesThatShardsOwnReports() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let shard = root.appendingPathComponent("shard-2")
        let result = try CommandRunner.run(
            CommandRunner.mainArguments + ["--aggregate", "--shard", "2/3", "--out", shard.path]
                + CommandRunner.samples)
        #expect(result.status == 0, "\(result.standardError)")
        let merged = root.appendingPathComponent("merged")
        let merge = try CommandRunner.run(["merge", "--partial", "--out", merged.path, shard.path])
        #expect(merge.status == 0, "\(merge.standardError)")
        #expect(merge.standardError.contains("shards 2 of 3"))
        try expectSameReports(merged, shard)
    }

    @Test func mergingTwoOfThreeShardsFailsUnlessPartialAndSaysWhichAreMissing() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        var shards: [String] = []
        for index in [1, 3] {
            let folder = root.appendingPathComponent("shard-\(index)")
            let result = try CommandRunner.run(
                ["--quiet", "--shard", "\(index)/3", "--out", folder.path] + CommandRunner.samples)
            #expect(result.status == 0, "\(result.standardError)")
            shards.append(folder.path)
        }
        let merged = root.appendingPathComponent("merged")
        let refused = try CommandRunner.run(["merge", "--quiet", "--out", merged.path] + shards)
        #expect(refused.status == 4)
        #expect(
            refused.standardError.contains("shard 2 of 3 missing (given: 1, 3); nothing was written"),
            "\(refused.standardError)")
        #expect(refused.standardError.contains("--partial"))
        #expect(!FileManager.default.fileExists(atPath: merged.path))

        let partial = try CommandRunner.run(["merge", "--partial", "--out", merged.path] + shards)
        #expect(partial.status == 0, "\(partial.standardError)")
        #expect(
            partial.standardError.contains("--partial: shard 2 of 3 missing: their sessions are not in the reports"))
        #expect(partial.standardError.contains("of shards 1, 3 of 3 written to \(merged.path)/ (shard 2 missing"))
        #expect(FileManager.default.fileExists(atPath: merged.appendingPathComponent("playbacks.csv").path))
    }

    @Test func mergeRefusesShardsOfDifferentRunsAndFoldersThatAreNoShards() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        func shard(_ spec: String, _ name: String, _ extra: [String] = []) throws -> String {
            let folder = root.appendingPathComponent(name).path
            let result = try CommandRunner.run(
                ["--quiet", "--shard", spec, "--out", folder] + extra + CommandRunner.samples)
            #expect(result.status == 0, "\(result.standardError)")
            return folder
        }
        let first = try shard("1/3", "a")
        let otherCount = try shard("2/2", "b")
        let otherOptions = try shard("2/3", "c", ["--bucket", "1d"])
        let unsharded = root.appendingPathComponent("plain").path
        _ = try CommandRunner.run(["--quiet", "--out", unsharded] + CommandRunner.samples)
        let out = root.appendingPathComponent("merged")
        for (folders, message) in [
            ([first, otherCount], "merge the shards of one run"),
            ([first, otherOptions], "bucket=86400000"),
            ([first, first], "are both shard 1"),
            ([first, unsharded], "summary.state"),
        ] {
            let result = try CommandRunner.run(["merge", "--out", out.path] + folders)
            #expect(result.status == 4)
            #expect(result.standardError.contains(message), "\(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("playbacks.csv").path))
        }
        // An unsharded run over a shard's folder removes what made it a shard's.
        _ = try CommandRunner.run(["--quiet", "--out", first] + CommandRunner.samples)
        let result = try CommandRunner.run(["merge", "--out", out.path, first])
        #expect(result.status == 4)
        #expect(result.standardError.contains("summary.state"), "\(result.standardError)")
        #expect(try CommandRunner.run(["merge", "--out", out.path]).status == 2)
        #expect(try CommandRunner.run(["merge", "--out", first, first]).status == 2)
    }
}
