import Foundation
import Testing

/// Replay by event time: the same reports whatever the layout and order of the files; long
/// pauses that change nothing; late records accounted for.
struct EventTimeTests {
    /// Every report file (with `--trace`).
    static let reportFiles = SampleReplayTests.reportFiles

    /// Generates `records` records in `layout` into `folder`, with the given extra options.
    private func generate(_ layout: String, into folder: URL, extra: [String] = []) throws -> [String] {
        let generated = try CommandRunner.run(
            [
                "--records", "6000", "--files", "4", "--seed", "5", "--late", "25", "--layout", layout, "--out",
                folder.path,
            ]
                + extra, executable: CommandRunner.loggen)
        #expect(generated.status == 0, "\(generated.standardError)")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .map { folder.appendingPathComponent($0).path }
    }

    /// Replays `files` into `out` with the trace and aggregates; returns the exit status and standard error.
    @discardableResult
    private func replay(_ files: [String], into out: URL, extra: [String] = []) throws -> CommandRunner.Output {
        try CommandRunner.run(["--out", out.path, "--trace", "--aggregate", "--group-by", "title"] + extra + files)
    }

    /// Every report the same, but for the inputs `report.html` names at its foot.
    private func expectSameReports(_ produced: URL, _ expected: URL, _ what: String) throws {
        func read(_ folder: URL, _ name: String) throws -> Data {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            guard name == "report.html", let foot = data.range(of: Data("<footer id=\"provenance\">".utf8)) else {
                return data
            }
            return data[..<foot.lowerBound]
        }
        for name in Self.reportFiles {
            #expect(try read(produced, name) == read(expected, name), "\(what): \(name) differs")
        }
    }

    @Test func everyLayoutAndOrderOfTheFilesGivesTheSameReports() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let hourly = try generate("hourly", into: root.appendingPathComponent("hourly"))
        let reference = root.appendingPathComponent("out-hourly")
        let first = try replay(hourly, into: reference)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(
            try String(contentsOf: reference.appendingPathComponent("playbacks.csv"), encoding: .utf8).count > 1_000)
        // The hourly files gzipped, in reverse order on the command line.
        let gzipped = try hourly.map { path in
            let target = root.appendingPathComponent("gz").appendingPathComponent(
                (path as NSString).lastPathComponent + ".gz")
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            let zipped = Process()
            zipped.executableURL = URL(fileURLWithPath: "/bin/sh")
            zipped.arguments = ["-c", "gzip -c \"$1\" > \"$2\"", "gzip", path, target.path]
            try zipped.run()
            zipped.waitUntilExit()
            #expect(zipped.terminationStatus == 0)
            return target.path
        }
        var layouts: [(String, [String])] = [("gzipped, reversed", gzipped.reversed())]
        for (name, extra) in [
            ("hosts:4", []), ("apps", []), ("single", []), ("hourly", ["--shuffle-names"]),
            ("hosts:3", ["--shuffle-names"]),
        ] {
            let files = try generate(name, into: root.appendingPathComponent(name + extra.joined()), extra: extra)
            layouts.append((name + extra.joined(), files))
            layouts.append((name + extra.joined() + ", reversed", files.reversed()))
        }
        for (index, (name, files)) in layouts.enumerated() {
            let out = root.appendingPathComponent("out-\(index)")
            let result = try replay(files, into: out)
            #expect(result.status == 0, "\(name): \(result.standardError)")
            try expectSameReports(out, reference, name)
        }
    }

    @Test func pausesShorterThanTheIdleGapChangeNoRow() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let pauses = ["--pauses", "30", "--pause-length", "180", "--files", "12"]
        let hourly = try generate("hourly", into: root.appendingPathComponent("hourly"), extra: pauses)
        let hosts = try generate("hosts:4", into: root.appendingPathComponent("hosts"), extra: pauses)
        let byHour = root.appendingPathComponent("by-hour")
        let result = try replay(hourly, into: byHour)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("idle gap"))
        let byHost = root.appendingPathComponent("by-host")
        #expect(try replay(hosts, into: byHost).status == 0)
        try expectSameReports(byHost, byHour, "hosts:4")
        // No row is marked as cut by the idle gap; an idle gap of 1,000 days gives the same reports.
        let playbacks = try String(contentsOf: byHour.appendingPathComponent("playbacks.csv"), encoding: .utf8)
        let header = playbacks.split(separator: "\n")[0].split(separator: ",")
        let column = try #require(header.firstIndex(of: "timed_out"))
        #expect(
            playbacks.split(separator: "\n").dropFirst().allSatisfy {
                $0.split(separator: ",", omittingEmptySubsequences: false)[column] == "false"
            })
        let unbounded = root.appendingPathComponent("unbounded")
        #expect(try replay(hourly, into: unbounded, extra: ["--idle-gap", "1000d"]).status == 0)
        try expectSameReports(unbounded, byHour, "--idle-gap 1000d")
    }

    private func line(_ time: Int64, _ instrument: String, _ action: String) -> String {
        "{\"ts\":\(time),\"instrument\":\"\(instrument)\",\"tracker\":0,\"action\":\"\(action)\"}\n"
    }

    /// A log with records later than the window: one rejected as late, one replayed.
    private func lateLog(in root: URL) throws -> URL {
        let file = root.appendingPathComponent("late.jsonl")
        let minute: Int64 = 60_000
        var text = line(0, "i", "MediaRequest") + line(1_000, "i", "StreamLoad") + line(2_000, "i", "Start")
        text += line(5 * minute, "i", "Ping")
        // Inside the window (20 minutes late): replayed in order.
        text += line(60 * minute, "f", "Ping") + line(40 * minute, "i", "Ping")
        // An hour of another instrument, more lines than are read at once.
        for step in 0..<1_100 { text += line(60 * minute + Int64(step) * 3_000, "f", "Ping") }
        // Earlier than records already replayed, and than i's latest: rejected as late.
        text += line(3_000, "i", "Ping")
        // Earlier than records already replayed, but j has nothing later: replayed.
        text += line(4_000, "j", "MediaRequest")
        try Data(text.utf8).write(to: file)
        return file
    }

    @Test func recordsLaterThanTheWindowAreReplayedOrRejectedAsLate() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = try lateLog(in: root)
        let minute: Int64 = 60_000
        let out = root.appendingPathComponent("out")
        let result = try replay([file.path], into: out)
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("late.jsonl:1107: late"))
        #expect(result.standardError.contains("2 records later than --max-lateness, 1 replayed, 1 rejected as late"))
        let rejects = try String(contentsOf: out.appendingPathComponent("rejects.jsonl"), encoding: .utf8)
        #expect(
            rejects.hasPrefix(
                "{\"file\":\"\(file.path)\",\"line\":1107,\"reason\":\"late\",\"late_ms\":\(40 * minute - 3_000),"))
        let trace = try String(contentsOf: out.appendingPathComponent("events.jsonl"), encoding: .utf8)
        #expect(trace.contains("\"instrument\":\"j\""))
        // Two pings of i were replayed, in order; the late one not.
        let iPings = trace.split(separator: "\n").filter { $0.contains("\"instrument\":\"i\"") && $0.contains("Ping") }
        #expect(iPings.count == 2)
        // --max-late refuses the run and writes nothing.
        let refused = try replay([file.path], into: root.appendingPathComponent("refused"), extra: ["--max-late", "0"])
        #expect(refused.status == 4)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("refused/playbacks.csv").path))
        // A wider window replays them in order.
        let wide = try replay([file.path], into: root.appendingPathComponent("wide"), extra: ["--max-lateness", "2h"])
        #expect(wide.status == 0, "\(wide.standardError)")
    }

    /// `--shard K/N` and `merge` on per-host files give the reports of one run over hourly files.
    @Test func shardsOfPerHostFilesMergeIntoTheReportsOfHourlyFiles() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let hourly = try generate("hourly", into: root.appendingPathComponent("hourly"))
        let hosts = try generate("hosts:3", into: root.appendingPathComponent("hosts"))
        let reference = root.appendingPathComponent("reference")
        #expect(try replay(hourly, into: reference).status == 0)
        var shards: [String] = []
        for index in 1...3 {
            let folder = root.appendingPathComponent("shard-\(index)")
            let result = try replay(hosts, into: folder, extra: ["--quiet", "--shard", "\(index)/3"])
            #expect(result.status == 0, "\(result.standardError)")
            shards.append(folder.path)
        }
        let merged = root.appendingPathComponent("merged")
        let merge = try CommandRunner.run(["merge", "--quiet", "--out", merged.path] + shards)
        #expect(merge.status == 0, "\(merge.standardError)")
        try expectSameReports(merged, reference, "hosts:3, 3 shards merged")
    }

    /// Each shard rejects the late records of its own lives, as the unsharded run does, so the
    /// shards of such input merge into the unsharded reports.
    @Test func shardsRejectTheLateRecordsOfTheirLives() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = try lateLog(in: root)
        let whole = root.appendingPathComponent("whole")
        #expect(try replay([file.path], into: whole, extra: ["--quiet"]).status == 1)
        var shards: [String] = []
        var rejects = 0
        for index in 1...3 {
            let folder = root.appendingPathComponent("shard-\(index)")
            let status = try replay([file.path], into: folder, extra: ["--quiet", "--shard", "\(index)/3"]).status
            let written = try Data(contentsOf: folder.appendingPathComponent("rejects.jsonl")).count
            #expect(status == (written > 0 ? 1 : 0))
            rejects += written
            shards.append(folder.path)
        }
        #expect(rejects == (try Data(contentsOf: whole.appendingPathComponent("rejects.jsonl")).count))
        let merged = root.appendingPathComponent("merged")
        let merge = try CommandRunner.run(["merge", "--quiet", "--out", merged.path] + shards)
        #expect(merge.status == 1, "\(merge.standardError)")
        try expectSameReports(merged, whole, "3 shards of a log with a late record")
    }
}
