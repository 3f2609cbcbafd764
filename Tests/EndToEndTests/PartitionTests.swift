import Foundation
import Testing

/// `avt-replay partition`, then `avt-replay --shard K/N DIR/K/*` and `merge`: each shard reads
/// only its own records, and the shards merged are byte for byte one run over the inputs.
struct PartitionTests {
    /// The options of every run: a trace, groups and aggregates, a reorder window short enough
    /// that many records come late and some are rejected, lives ended by the idle gap.
    static let options = ["--trace", "--group-by", "title", "--aggregate", "--max-lateness", "2s", "--idle-gap", "20m"]

    /// ``options`` without the aggregates and groups, whose points hold the buckets still open.
    static let nightlyOptions = ["--trace", "--max-lateness", "2s", "--idle-gap", "20m"]

    /// Every report file but `run.json` (which tells what one process did).
    static let reportFiles = SampleReplayTests.reportFiles

    /// A generated day in `layout`, with two lines that are not records at the end of its first file.
    private func generate(_ layout: [String], into folder: URL) throws -> [String] {
        let generated = try CommandRunner.run(
            [
                "--records", "6000", "--files", "4", "--seed", "21", "--late", "25", "--pauses", "10", "--out",
                folder.path,
            ]
                + layout, executable: CommandRunner.loggen)
        #expect(generated.status == 0, "\(generated.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .map { folder.appendingPathComponent($0).path }
        let handle = try #require(FileHandle(forWritingAtPath: files[0]))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("not json\n{\"ts\":\"yesterday\",\"instrument\":\"x\"}\n".utf8))
        try handle.close()
        return files
    }

    private func expectSameReports(_ produced: URL, _ expected: URL, _ what: String) throws {
        for name in Self.reportFiles {
            let left = try Data(contentsOf: produced.appendingPathComponent(name))
            let right = try Data(contentsOf: expected.appendingPathComponent(name))
            #expect(left == right, "\(what): \(name) differs")
        }
    }

    /// The part files of shard `index` of the partition in `folder`.
    private func parts(_ folder: URL, _ index: Int) throws -> [String] {
        let shard = folder.appendingPathComponent("\(index)")
        return try FileManager.default.contentsOfDirectory(atPath: shard.path).sorted()
            .map { shard.appendingPathComponent($0).path }
    }

    /// Partitions `files` into `count` shards, replays each from its own folder, merges them.
    private func partitionAndMerge(
        _ files: [String], shards count: Int, in root: URL, extra: [String] = []
    ) throws -> (merged: URL, status: Int32, partition: URL) {
        let partition = root.appendingPathComponent("partition-\(count)")
        let split = try CommandRunner.run(
            ["partition", "--quiet", "--shards", "\(count)", "--max-lateness", "2s", "--out", partition.path] + files)
        #expect(split.status == 0, "\(split.standardError)")
        var folders: [String] = []
        for index in 1...count {
            let folder = root.appendingPathComponent("shard-\(count)-\(index)")
            let result = try CommandRunner.run(
                ["--quiet", "--shard", "\(index)/\(count)", "--out", folder.path] + Self.options + extra
                    + (try parts(partition, index)))
            #expect(result.status <= 1, "\(result.standardError)")
            folders.append(folder.path)
        }
        let merged = root.appendingPathComponent("merged-\(count)")
        let merge = try CommandRunner.run(["merge", "--quiet", "--out", merged.path] + folders)
        return (merged, merge.status, partition)
    }

    @Test(arguments: [["--layout", "hourly"], ["--layout", "hosts:3"], ["--layout", "apps", "--shuffle-names"]])
    func partitionedShardsMergeIntoOneRun(layout: [String]) throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = try generate(layout, into: root.appendingPathComponent("logs"))
        let whole = root.appendingPathComponent("whole")
        let single = try CommandRunner.run(["--quiet", "--out", whole.path] + Self.options + files)
        // Rejected lines, and records rejected as late.
        #expect(single.status == 1, "\(single.standardError)")
        let rejects = String(
            decoding: try Data(contentsOf: whole.appendingPathComponent("rejects.jsonl")), as: UTF8.self)
        #expect(rejects.contains("\"reason\":\"late\"") && rejects.contains("not valid JSON"))
        let totalLines = files.reduce(0) { total, file in
            total + ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").count
        }
        for count in [1, 2, 3, 7] {
            let run = try partitionAndMerge(files, shards: count, in: root)
            #expect(run.status == single.status, "\(layout), \(count) shards")
            try expectSameReports(run.merged, whole, "\(layout), \(count) shards")
            // Each shard's part files hold its own lines only: all of them together, each once.
            var lines: [Int] = []
            for index in 1...count {
                lines.append(
                    try parts(run.partition, index).reduce(0) { total, part in
                        total + (try String(contentsOfFile: part, encoding: .utf8)).split(separator: "\n").count
                    })
            }
            #expect(lines.reduce(0, +) == totalLines, "\(layout), \(count) shards")
            if count > 1 { #expect(lines.allSatisfy { $0 < totalLines / 2 + totalLines / 5 }, "\(lines)") }
        }
    }

    /// A shard that reads only its part files writes the reports of a shard that reads every input.
    @Test func aShardOfAPartitionWritesWhatAShardReadingEverythingWrites() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = try generate(["--layout", "hosts:3"], into: root.appendingPathComponent("logs"))
        let run = try partitionAndMerge(files, shards: 3, in: root)
        #expect(run.status == 1)
        for index in 1...3 {
            let reading = root.appendingPathComponent("reading-\(index)")
            let result = try CommandRunner.run(
                ["--quiet", "--shard", "\(index)/3", "--out", reading.path] + Self.options + files)
            #expect(result.status <= 1, "\(result.standardError)")
            try expectSameReports(root.appendingPathComponent("shard-3-\(index)"), reading, "shard \(index)")
        }
    }

    @Test func aShardOrAMergeGivenTheWrongFoldersIsRefused() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = try generate(["--layout", "hourly"], into: root.appendingPathComponent("logs"))
        let run = try partitionAndMerge(files, shards: 3, in: root)
        #expect(run.status == 1)
        let partition = run.partition
        func replay(_ shard: String, _ inputs: [String], _ extra: [String] = []) throws -> CommandRunner.Output {
            try CommandRunner.run(
                ["--quiet", "--shard", shard, "--out", root.appendingPathComponent("refused").path] + Self.options
                    + extra + inputs)
        }
        // Another shard's folder, a folder without all its part files, another reorder window.
        let wrongFolder = try replay("2/3", try parts(partition, 1))
        #expect(wrongFolder.status == 4)
        #expect(wrongFolder.standardError.contains("replay it with --shard 1/3"), "\(wrongFolder.standardError)")
        let missingPart = try replay("1/3", Array(try parts(partition, 1).dropFirst()))
        #expect(missingPart.status == 4)
        #expect(missingPart.standardError.contains("give every part file"), "\(missingPart.standardError)")
        let otherWindow = try replay("1/3", try parts(partition, 1), ["--max-lateness", "5m"])
        #expect(otherWindow.status == 4)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("refused/playbacks.csv").path))
        // A missing shard.
        let missing = try CommandRunner.run(
            ["merge", "--quiet", "--out", root.appendingPathComponent("m1").path]
                + [1, 3].map { root.appendingPathComponent("shard-3-\($0)").path })
        #expect(missing.status == 4)
        #expect(missing.standardError.contains("shard 2 of 3 missing"), "\(missing.standardError)")
        // Shards of two partitions (of other inputs).
        let other = try partitionAndMerge(Array(files.dropLast()), shards: 3, in: root.appendingPathComponent("other"))
        #expect(other.status <= 1)
        let mixed = try CommandRunner.run(
            ["merge", "--quiet", "--out", root.appendingPathComponent("m2").path]
                + [root.appendingPathComponent("shard-3-1").path, root.appendingPathComponent("shard-3-2").path]
                + [root.appendingPathComponent("other/shard-3-3").path])
        #expect(mixed.status == 4)
        #expect(mixed.standardError.contains("partition="), "\(mixed.standardError)")
    }

    /// A nightly job sharded: each night partitioned, each shard with a state of its own, the
    /// shards merged: every night's rows, trace and rejects are the unsharded night's, and the
    /// first night's every report. (The next nights re-write the buckets each shard left open,
    /// which may be fewer than the unsharded run's: docs/sharding.md.) Another N is refused.
    @Test func shardedNightsMergeIntoTheUnshardedNights() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = try generate(["--layout", "hourly"], into: root.appendingPathComponent("logs"))
        let nights = [Array(files[..<2]), Array(files[2...])]
        for (night, inputs) in nights.enumerated() {
            let whole = root.appendingPathComponent("whole-\(night)")
            let single = try CommandRunner.run(
                ["--quiet", "--state", root.appendingPathComponent("whole.state").path, "--out", whole.path]
                    + Self.nightlyOptions + inputs)
            #expect(single.status <= 1, "\(single.standardError)")
            let partition = root.appendingPathComponent("partition-\(night)")
            let split = try CommandRunner.run(
                ["partition", "--quiet", "--shards", "3", "--max-lateness", "2s", "--out", partition.path] + inputs)
            #expect(split.status == 0, "\(split.standardError)")
            var folders: [String] = []
            for index in 1...3 {
                let folder = root.appendingPathComponent("night-\(night)-shard-\(index)")
                let state = root.appendingPathComponent("shard-\(index).state").path
                let result = try CommandRunner.run(
                    ["--quiet", "--shard", "\(index)/3", "--state", state, "--out", folder.path]
                        + Self.nightlyOptions + (try parts(partition, index)))
                #expect(result.status <= 1, "\(result.standardError)")
                folders.append(folder.path)
            }
            let merged = root.appendingPathComponent("merged-\(night)")
            let merge = try CommandRunner.run(["merge", "--quiet", "--out", merged.path] + folders)
            #expect(merge.status == single.status, "\(merge.standardError)")
            // The buckets left open are re-written the next night: what the metrics files
            // begin with, summary.csv, aggregates.csv and the page.
            let rows = ["playbacks.csv", "vp_sessions.csv", "marconi_items.csv", "events.jsonl", "rejects.jsonl"]
            for name in Self.reportFiles where night == 0 || rows.contains(name) {
                let left = try Data(contentsOf: merged.appendingPathComponent(name))
                let right = try Data(contentsOf: whole.appendingPathComponent(name))
                #expect(left == right, "night \(night + 1): \(name) differs")
            }
        }
        let other = root.appendingPathComponent("partition-2")
        _ = try CommandRunner.run(
            ["partition", "--quiet", "--shards", "2", "--max-lateness", "2s", "--out", other.path] + nights[1])
        let refused = try CommandRunner.run(
            [
                "--quiet", "--shard", "1/2", "--state", root.appendingPathComponent("shard-1.state").path, "--out",
                root.appendingPathComponent("refused").path,
            ] + Self.options + (try parts(other, 1)))
        #expect(refused.status == 4)
        #expect(refused.standardError.contains("keeps the lives of shard 1/3"), "\(refused.standardError)")
    }
}
