import Foundation
import Testing

/// `--threads N`: the same bytes in every report for every N, on every layout, with every
/// option that changes what a run writes.
struct ThreadsTests {
    /// Every report file (with `--trace`), and what `--shard` adds.
    static let reportFiles = SampleReplayTests.reportFiles

    /// A generated day with pauses and late records, in `layout`.
    private func generate(_ layout: String, into folder: URL, extra: [String] = []) throws -> [String] {
        let generated = try CommandRunner.run(
            [
                "--records", "8000", "--files", "6", "--seed", "11", "--late", "30", "--pauses", "20",
                "--pause-length", "120", "--layout", layout, "--out", folder.path,
            ] + extra, executable: CommandRunner.loggen)
        #expect(generated.status == 0, "\(generated.standardError)")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .map { folder.appendingPathComponent($0).path }
    }

    /// Replays `files` into `out` with `threads` threads and `extra` options, with a reorder
    /// window of a second: many records come later than it, some are rejected as late.
    @discardableResult
    private func replay(_ files: [String], threads: Int, into out: URL, extra: [String] = []) throws
        -> CommandRunner.Output
    {
        try CommandRunner.run(
            ["--quiet", "--out", out.path, "--threads", "\(threads)", "--max-lateness", "1s"] + extra + files)
    }

    /// Every file of `produced` (run.json aside) has the bytes of the same file in `expected`.
    private func expectSameFiles(_ produced: URL, _ expected: URL, _ what: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: expected.path).filter { $0 != "run.json" }
        #expect(names.contains("playbacks.csv"), "\(what)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: produced.path).filter { $0 != "run.json" }.sorted()
                == names.sorted(), "\(what)")
        for name in names {
            let same =
                try Data(contentsOf: produced.appendingPathComponent(name))
                == Data(contentsOf: expected.appendingPathComponent(name))
            #expect(same, "\(what): \(name) differs")
        }
    }

    @Test func everyThreadCountGivesTheSameReportsOnEveryLayout() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        var layouts: [(String, [String])] = []
        for (name, extra) in [("hourly", []), ("hosts:4", []), ("single", []), ("apps", ["--shuffle-names"])] {
            let files = try generate(name, into: root.appendingPathComponent(name), extra: extra)
            layouts.append((name, files))
        }
        // Bad lines among the good ones: rejects.jsonl keeps its order for every N.
        let hourly = layouts[0].1
        let broken = root.appendingPathComponent("broken.jsonl")
        var text = try String(contentsOfFile: hourly[2], encoding: .utf8).split(separator: "\n")
        for index in stride(from: 5, to: text.count, by: 97) { text[index] = "{\"ts\":\"noon\"" }
        try (text.joined(separator: "\n") + "\n").write(to: broken, atomically: true, encoding: .utf8)
        layouts.append(("with bad lines, shuffled", [hourly[4], broken.path, hourly[0], hourly[5], hourly[1]]))
        for (name, files) in layouts {
            let reference = root.appendingPathComponent("\(name)-1")
            let options = ["--trace", "--trace-rejected", "--aggregate", "--group-by", "title"]
            let first = try replay(files, threads: 1, into: reference, extra: options)
            #expect(first.status == 0 || first.status == 1, "\(name): \(first.standardError)")
            for threads in [2, 3, 8] {
                let out = root.appendingPathComponent("\(name)-\(threads)")
                let result = try replay(files, threads: threads, into: out, extra: options)
                #expect(result.status == first.status, "\(name), \(threads) threads: \(result.standardError)")
                try expectSameFiles(out, reference, "\(name), \(threads) threads")
            }
        }
        let rejects = try String(
            contentsOf: root.appendingPathComponent("with bad lines, shuffled-8/rejects.jsonl"), encoding: .utf8)
        #expect(rejects.contains("\"line\":6,"))
        #expect(rejects.contains("\"late\""))
    }

    @Test func standardInputAndEveryMetricsModeGiveTheSameReports() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = try generate("single", into: root.appendingPathComponent("single"))
        let input = try Data(contentsOf: URL(fileURLWithPath: files[0]))
        var outputs: [Int: URL] = [:]
        for threads in [1, 3, 8] {
            let out = root.appendingPathComponent("stdin-\(threads)")
            let result = try CommandRunner.run(
                ["--quiet", "--threads", "\(threads)", "--trace", "--out", out.path, "-"], standardInput: input)
            #expect(result.status == 0, "\(result.standardError)")
            outputs[threads] = out
        }
        try expectSameFiles(try #require(outputs[3]), try #require(outputs[1]), "standard input, 3 threads")
        try expectSameFiles(try #require(outputs[8]), try #require(outputs[1]), "standard input, 8 threads")
        for mode in ["events", "playbacks", "aggregates"] {
            let one = root.appendingPathComponent("\(mode)-1")
            let three = root.appendingPathComponent("\(mode)-3")
            // Some records are rejected as late (exit 1), the same ones for every N.
            #expect(try replay(files, threads: 1, into: one, extra: ["--metrics", mode]).status <= 1)
            #expect(try replay(files, threads: 3, into: three, extra: ["--metrics", mode]).status <= 1)
            try expectSameFiles(three, one, "--metrics \(mode), 3 threads")
        }
    }

    /// Shards and nights: each shard's files (`sessions.index` included), each night's reports
    /// and the state carried between them are the same bytes for every N.
    @Test func shardsAndNightsGiveTheSameFiles() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = try generate("hourly", into: root.appendingPathComponent("hourly"))
        for threads in [1, 2, 5] {
            // Some records are rejected as late (exit 1), the same ones for every N.
            let shard = root.appendingPathComponent("shard-\(threads)")
            #expect(try replay(files, threads: threads, into: shard, extra: ["--shard", "2/3"]).status <= 1)
            let state = root.appendingPathComponent("state-\(threads)").path
            for (night, range) in [(1, 0..<3), (2, 3..<6)] {
                let out = root.appendingPathComponent("night\(night)-\(threads)")
                let result = try replay(Array(files[range]), threads: threads, into: out, extra: ["--state", state])
                #expect(result.status <= 1, "\(result.standardError)")
                try FileManager.default.copyItem(atPath: state, toPath: "\(state)-night\(night)")
            }
        }
        for threads in [2, 5] {
            for name in ["shard", "night1", "night2"] {
                try expectSameFiles(
                    root.appendingPathComponent("\(name)-\(threads)"), root.appendingPathComponent("\(name)-1"),
                    "\(name), \(threads) threads")
            }
            for night in [1, 2] {
                let same =
                    try Data(contentsOf: root.appendingPathComponent("state-\(threads)-night\(night)"))
                    == Data(contentsOf: root.appendingPathComponent("state-1-night\(night)"))
                #expect(same, "the state after night \(night), \(threads) threads")
            }
        }
    }

    /// The order of the outputs does not depend on how the threads are scheduled: twenty runs
    /// with more threads than cores give the same bytes.
    @Test func twentyRunsWithEightThreadsAreTheSame() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = try generate("hosts:3", into: root.appendingPathComponent("hosts"))
        let reference = root.appendingPathComponent("run-0")
        #expect(try replay(files, threads: 8, into: reference, extra: ["--trace"]).status <= 1)
        for run in 1..<20 {
            let out = root.appendingPathComponent("run-\(run)")
            #expect(try replay(files, threads: 8, into: out, extra: ["--trace"]).status <= 1)
            try expectSameFiles(out, reference, "run \(run)")
            try FileManager.default.removeItem(at: out)
        }
    }

    /// `check` passes with any N against reports recorded with another, and run.json says N.
    @Test func checkAndRunJSONWithThreads() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = try generate("hourly", into: root.appendingPathComponent("hourly"))
        let expected = root.appendingPathComponent("expected")
        let record = try CommandRunner.run(["check", "--threads", "1", "--record", "--expect", expected.path] + files)
        #expect(record.status == 0, "\(record.standardError)")
        let check = try CommandRunner.run(["check", "--threads", "6", "--expect", expected.path] + files)
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        let out = root.appendingPathComponent("out")
        #expect(try replay(files, threads: 3, into: out).status <= 1)
        let summary = try String(contentsOf: out.appendingPathComponent("run.json"), encoding: .utf8)
        #expect(summary.contains("\"threads\":3,"))
        let refused = try CommandRunner.run(["--threads", "0", "--out", out.path] + files)
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("--threads must be from 1 to 256, not 0."))
    }
}
