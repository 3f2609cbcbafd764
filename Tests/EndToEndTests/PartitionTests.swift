import Foundation
import Testing

/// `avt-replay partition`, then `avt-replay --shard K/N DIR/K/*` and `merge`: each shard reads
/// only its own records, and the shards merged are byte for byte one run over the inputs.
struct PartitionTests {
    /// The options of every run: a trace, groups and aggregates, a reorder window short enough
    /// that many records come late and some are rejected, lives ended by the idle gap.
    static let options = ["--trace", "--group-by", "title", "--aggregate", "--max-lateness", "2s", "--idle-gap", "20m"]

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

    /// Runs one night of a sharded series: partitions `inputs` into three shards (or, not
    /// `partitioned`, has every shard read them all), replays each with its state (given the
    /// merge of the night before, if any) and merges them into `merged`; returns the merge's
    /// exit status.
    private func shardedNight(
        _ inputs: [String], night: Int, in root: URL, previousMerge: URL?, into merged: URL, partitioned: Bool = true
    ) throws -> Int32 {
        let partition = root.appendingPathComponent("partition-\(night)")
        if partitioned {
            let split = try CommandRunner.run(
                ["partition", "--quiet", "--shards", "3", "--max-lateness", "2s", "--out", partition.path] + inputs)
            #expect(split.status == 0, "\(split.standardError)")
        }
        var folders: [String] = []
        for index in 1...3 {
            let folder = root.appendingPathComponent("night-\(night)-shard-\(index)")
            let state = root.appendingPathComponent("shard-\(index).state").path
            let previous = previousMerge.map { ["--previous-merge", $0.path] } ?? []
            let result = try CommandRunner.run(
                ["--quiet", "--shard", "\(index)/3", "--state", state, "--out", folder.path] + previous + Self.options
                    + (partitioned ? try parts(partition, index) : inputs))
            #expect(result.status <= 1, "\(result.standardError)")
            folders.append(folder.path)
        }
        return try CommandRunner.run(["merge", "--quiet", "--out", merged.path] + folders).status
    }

    /// A JSON object file's `openFrom`.
    private func openFrom(_ file: URL) throws -> Int? {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        return object?["openFrom"] as? Int
    }

    /// A nightly series in three shards, three nights: every night's merged reports are byte for
    /// byte the unsharded night's, the buckets left open included (their rows, the page, the
    /// aggregates' points), though the shards' own open buckets begin at other times.
    @Test func shardedNightsMergeIntoTheUnshardedNights() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = try generate(["--layout", "hourly"], into: root.appendingPathComponent("logs"))
        let nights = [Array(files[..<1]), Array(files[1..<3]), Array(files[3...])]
        var previous: URL?
        var shardsOpenApart = false
        for (night, inputs) in nights.enumerated() {
            let whole = root.appendingPathComponent("whole-\(night)")
            let single = try CommandRunner.run(
                ["--quiet", "--state", root.appendingPathComponent("whole.state").path, "--out", whole.path]
                    + Self.options + inputs)
            #expect(single.status <= 1, "\(single.standardError)")
            let merged = root.appendingPathComponent("merged-\(night)")
            let status = try shardedNight(inputs, night: night, in: root, previousMerge: previous, into: merged)
            #expect(status == single.status)
            try expectSameReports(merged, whole, "night \(night + 1)")
            let mergedOpenFrom = try openFrom(merged.appendingPathComponent("merge.state"))
            #expect(mergedOpenFrom != nil)
            for index in 1...3 {
                let shard = root.appendingPathComponent("night-\(night)-shard-\(index)/summary.state")
                if try openFrom(shard) != mergedOpenFrom { shardsOpenApart = true }
            }
            previous = merged
        }
        // Else the series would not tell whether a shard re-writes the buckets open in another.
        #expect(shardsOpenApart, "every shard's buckets opened where the merge's did")

        // The last night again (--replace-run) needs the merge of the night before it.
        let partition = root.appendingPathComponent("partition-2")
        let state = root.appendingPathComponent("shard-1.state").path
        func rerun(_ previousMerge: [String]) throws -> CommandRunner.Output {
            try CommandRunner.run(
                [
                    "--quiet", "--shard", "1/3", "--state", state, "--replace-run", "--out",
                    root.appendingPathComponent("rerun").path,
                ]
                    + previousMerge + Self.options + (try parts(partition, 1)))
        }
        let withoutMerge = try rerun([])
        #expect(withoutMerge.status == 4)
        #expect(withoutMerge.standardError.contains("give --previous-merge"), "\(withoutMerge.standardError)")
        let otherNight = try rerun(["--previous-merge", root.appendingPathComponent("merged-0").path])
        #expect(otherNight.status == 4)
        #expect(otherNight.standardError.contains("is not the merge of the night"), "\(otherNight.standardError)")
        let again = try rerun(["--previous-merge", root.appendingPathComponent("merged-1").path])
        #expect(again.status <= 1, "\(again.standardError)")
        try expectSameReports(
            root.appendingPathComponent("rerun"), root.appendingPathComponent("night-2-shard-1"), "rerun")

        let other = root.appendingPathComponent("partition-other")
        _ = try CommandRunner.run(
            ["partition", "--quiet", "--shards", "2", "--max-lateness", "2s", "--out", other.path] + nights[1])
        let refused = try CommandRunner.run(
            [
                "--quiet", "--shard", "1/2", "--state", state, "--out", root.appendingPathComponent("refused").path,
            ] + Self.options + (try parts(other, 1)))
        #expect(refused.status == 4)
        #expect(refused.standardError.contains("keeps the lives of shard 1/3"), "\(refused.standardError)")
    }

    /// Shards may go on from an unsharded night: shard 1 takes its open buckets, and the
    /// nights after merge into the unsharded ones (shards that read all the input, here).
    @Test func shardsGoOnFromAnUnshardedNight() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = try generate(["--layout", "hourly"], into: root.appendingPathComponent("logs"))
        let nights = [Array(files[..<2]), Array(files[2..<3]), Array(files[3...])]
        let wholeState = root.appendingPathComponent("whole.state")
        var previous: URL?
        for (night, inputs) in nights.enumerated() {
            let whole = root.appendingPathComponent("whole-\(night)")
            let single = try CommandRunner.run(
                ["--quiet", "--state", wholeState.path, "--out", whole.path] + Self.options + inputs)
            #expect(single.status <= 1, "\(single.standardError)")
            guard night > 0 else {
                for index in 1...3 {
                    try FileManager.default.copyItem(
                        at: wholeState, to: root.appendingPathComponent("shard-\(index).state"))
                }
                continue
            }
            let merged = root.appendingPathComponent("merged-\(night)")
            let status = try shardedNight(
                inputs, night: night, in: root, previousMerge: previous, into: merged, partitioned: false)
            #expect(status == single.status)
            try expectSameReports(merged, whole, "night \(night + 1)")
            previous = merged
        }
    }
}
