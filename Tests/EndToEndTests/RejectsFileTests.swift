import Foundation
import Testing

/// `rejects.jsonl` of runs with more rejects than a run keeps in memory (issue 63.4): in the
/// order of docs/reports.md whatever the threads or shards, the first 200 bytes of each line
/// kept, and a refused run's rejects kept beside the report folder whole or not at all.
struct RejectsFileTests {
    static let base: Int64 = 1_763_622_300_000

    static func record(_ ts: Int64, _ instrument: String, _ action: String = "Ping") -> String {
        #"{"ts":\#(ts),"instrument":"\#(instrument)","tracker":0,"action":"\#(action)"}"# + "\n"
    }

    /// A log of `blocks` blocks of ten seconds: a ping of each of ten instruments (`prefix`0 …
    /// 9), three lines that are not records, and a record of each instrument fifteen seconds
    /// old, rejected as late with `--max-lateness 1s` (its instrument replayed a later one), all
    /// placed at one time and so replayed in the order of their keys, not of their lines.
    static func log(blocks: Int, prefix: String, offset: Int64) -> String {
        var text = ""
        for block in 0..<blocks {
            let time = base + offset + Int64(block) * 10_000
            for number in 0..<10 { text += record(time + Int64(number), "\(prefix)\(number)") }
            for junk in 0..<3 { text += "not json \(prefix) \(block) \(junk)\n" }
            for number in 0..<10 { text += record(time - 15_000, "\(prefix)\(number)") }
        }
        return text
    }

    /// Each line's file and line (`nil` for a whole file's problem).
    static func places(_ rejects: Data) throws -> [(file: String, line: Int?)] {
        try rejects.split(separator: UInt8(ascii: "\n")).map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            return (try #require(object["file"] as? String), object["line"] as? Int)
        }
    }

    /// Two files of 600 blocks (some 2.4 MB of rejects, more than a run keeps in memory) and a
    /// missing one: `rejects.jsonl` lists them by file name (`a.jsonl`, then `logs/b.jsonl`,
    /// then the missing `c.jsonl`), each by line, the same with one thread or two, and shards
    /// merged give it byte for byte.
    @Test func manyRejectsComeByFileAndLineWhateverTheThreadsAndShards() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("logs"), withIntermediateDirectories: true)
        try Data(Self.log(blocks: 600, prefix: "i", offset: 0).utf8).write(
            to: folder.appendingPathComponent("logs/b.jsonl"))
        try Data(Self.log(blocks: 600, prefix: "j", offset: 3_000).utf8).write(
            to: folder.appendingPathComponent("a.jsonl"))
        let inputs = ["logs/b.jsonl", "a.jsonl", "c.jsonl"]
        func replay(_ out: String, _ extra: [String]) throws -> Data {
            let result = try CommandRunner.run(
                ["--quiet", "--max-lateness", "1s", "--out", out] + extra + inputs, in: folder)
            #expect(result.status == 1, "\(result.standardError)")
            return try Data(contentsOf: folder.appendingPathComponent(out).appendingPathComponent("rejects.jsonl"))
        }
        let one = try replay("one", ["--threads", "1"])
        #expect(try replay("two", ["--threads", "2"]) == one)
        let places = try Self.places(one)
        // Per file: 3 lines a block not records, 10 late records a block but the first.
        #expect(places.count == 2 * (600 * 3 + 599 * 10) + 1)
        #expect(one.count > 1 << 20)
        let files = places.map(\.file)
        #expect(files.first == "a.jsonl")
        #expect(files.last == "c.jsonl")
        #expect(files.firstIndex(of: "logs/b.jsonl") == 600 * 3 + 599 * 10)
        for (previous, next) in zip(places, places.dropFirst()) where previous.file == next.file {
            #expect((previous.line ?? .max) < (next.line ?? .max), "\(previous) then \(next)")
        }
        #expect(places.last?.line == nil)
        let lates = String(decoding: one, as: UTF8.self).split(separator: "\n").filter {
            $0.contains(#""reason":"late""#)
        }
        #expect(lates.count == 2 * 599 * 10)

        for shard in ["1/2", "2/2"] {
            let out = "shard-" + shard.prefix(1)
            let result = try CommandRunner.run(
                ["--quiet", "--max-lateness", "1s", "--shard", shard, "--out", out] + inputs, in: folder)
            #expect(result.status == 1, "\(result.standardError)")
        }
        let merge = try CommandRunner.run(["merge", "--quiet", "--out", "merged", "shard-1", "shard-2"], in: folder)
        #expect(merge.status == 1, "\(merge.standardError)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("merged/rejects.jsonl")) == one)
    }

    /// What `rejects.jsonl` keeps of a line is its first 200 bytes, for a line too long to be
    /// read (2 MB), a long line that is not JSON, and a long record rejected as late (the
    /// record as a line of the log).
    @Test func theExcerptIsTheFirst200BytesOfTheLine() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let long = String(repeating: "x", count: 2 << 20)
        let notJSON = "{" + String(repeating: "\"a\":1,", count: 1_000)
        let title = String(repeating: "t", count: 500)
        var text = Self.record(Self.base, "i") + long + "\n" + notJSON + "\n"
        // i's later record is replayed (two others move the clock on) before i's late one comes.
        text += Self.record(Self.base + 60_000, "i") + Self.record(Self.base + 120_000, "k")
        text += Self.record(Self.base + 120_000, "m")
        text +=
            #"{"ts":\#(Self.base + 1_000),"instrument":"i","tracker":0,"action":"Ping","attrs":{"title":"\#(title)"}}"#
        text += "\n"
        try Data(text.utf8).write(to: folder.appendingPathComponent("long.jsonl"))
        let result = try CommandRunner.run(
            ["--quiet", "--max-lateness", "1s", "--out", "out", "long.jsonl"], in: folder)
        #expect(result.status == 1, "\(result.standardError)")
        let rejects = try Data(contentsOf: folder.appendingPathComponent("out/rejects.jsonl"))
        let excerpts = try rejects.split(separator: UInt8(ascii: "\n")).map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            return try #require(object["excerpt"] as? String)
        }
        #expect(excerpts.count == 3)
        #expect(excerpts.allSatisfy { $0.utf8.count == 200 })
        #expect(excerpts.first == String(long.prefix(200)))
        #expect(excerpts.dropFirst().first == String(notJSON.prefix(200)))
        #expect(excerpts.last?.hasPrefix(#"{"ts":\#(Self.base + 1_000),"#) == true)
        #expect(excerpts.last?.contains(String(repeating: "t", count: 100)) == true)
    }

    /// The names in a report folder but `run.json` and what a run cut short left of it.
    static func reportNames(_ names: [String]) -> [String] {
        names.filter { !$0.hasPrefix("run.json") }.sorted()
    }

    static func reportNames(_ folder: URL) throws -> [String] {
        reportNames(try FileManager.default.contentsOfDirectory(atPath: folder.path))
    }

    /// A refused run with more rejects than it keeps in memory, killed before each step that
    /// changes the disk (``DiskStep``): `reports.refused-rejects.jsonl` is either not there or
    /// whole (every reject, in order), the report folder is untouched, and the next run (refused
    /// again) leaves it whole and no workspace.
    @Test func aRefusedRunKeepsItsRejectsWholeOrNotAtAll() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.log(blocks: 600, prefix: "i", offset: 0).utf8).write(
            to: folder.appendingPathComponent("day.jsonl"))
        let arguments = ["-qq", "--strict", "--max-lateness", "1s", "--out", "reports", "day.jsonl"]
        let good = try CommandRunner.run(["-qq", "--out", "reports"] + CommandRunner.samples, in: folder)
        #expect(good.status == 0)
        let reports = folder.appendingPathComponent("reports")
        let before = try FileManager.default.contentsOfDirectory(atPath: reports.path).sorted()
        let playbacks = try Data(contentsOf: reports.appendingPathComponent("playbacks.csv"))
        let kept = folder.appendingPathComponent("reports.refused-rejects.jsonl")
        let workspace = folder.appendingPathComponent(".reports.avt-replay")

        let refused = try CommandRunner.run(arguments, in: folder)
        #expect(refused.status == 4, "\(refused.standardError)")
        let whole = try Data(contentsOf: kept)
        #expect(try Self.places(whole).count == 600 * 3 + 599 * 10)
        #expect(whole.count > 1 << 20)
        #expect(!FileManager.default.fileExists(atPath: workspace.path))
        try FileManager.default.removeItem(at: kept)

        var step = 1
        while step < 100 {
            let killed = try CommandRunner.run(arguments, environment: ["AVT_REPLAY_KILL_AT": String(step)], in: folder)
            if killed.status != SIGKILL {
                #expect(killed.status == 4)
                break
            }
            let message = killed.standardError
            if FileManager.default.fileExists(atPath: kept.path) {
                #expect(try Data(contentsOf: kept) == whole, "\(message)")
            }
            // A refused run writes only its run.json into the report folder (which the next run
            // removes when it is cut short).
            #expect(try Self.reportNames(reports) == Self.reportNames(before), "\(message)")
            #expect(try Data(contentsOf: reports.appendingPathComponent("playbacks.csv")) == playbacks, "\(message)")
            let again = try CommandRunner.run(arguments, in: folder)
            #expect(again.status == 4, "\(message): \(again.standardError)")
            #expect(try Data(contentsOf: kept) == whole, "\(message)")
            #expect(!FileManager.default.fileExists(atPath: workspace.path), "\(message)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: reports.path).sorted() == before, "\(message)")
            try FileManager.default.removeItem(at: kept)
            step += 1
        }
        // The rejects are spooled (the spool's folder and run made), kept and the spool removed:
        // a run of fewer steps would not have been killed where it matters.
        #expect(step > 5)
    }
}
