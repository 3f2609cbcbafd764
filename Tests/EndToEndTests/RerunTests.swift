import EventModel
import Foundation
import Testing

/// Reruns with `--state`: an input the state consumed already is refused, and `--replace-run`
/// replays the last run again from the state before it.
struct RerunTests {
    /// Four generated hours (the last one empty) in a new folder: night 1 is the first two,
    /// night 2 the other two.
    private struct Nights {
        let folder: URL
        let night1: [String]
        let night2: [String]

        init() throws {
            folder = try CommandRunner.makeTemporaryFolder()
            let logs = folder.appendingPathComponent("logs")
            let generated = try CommandRunner.run(
                ["--records", "3000", "--files", "4", "--seed", "7", "--out", logs.path],
                executable: CommandRunner.loggen)
            #expect(generated.status == 0, "\(generated.standardError)")
            let files = try FileManager.default.contentsOfDirectory(atPath: logs.path).sorted()
                .map { logs.appendingPathComponent($0).path }
            #expect(files.count == 4)
            night1 = Array(files.prefix(2))
            night2 = Array(files.dropFirst(2))
        }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        /// Replays `files` into the folder `out` with the state file `state`.
        func replay(
            _ files: [String], out: String, state: String, _ extra: [String] = []
        ) throws -> CommandRunner.Output {
            try CommandRunner.run(
                CommandRunner.mainArguments + ["--idle-gap", "10m", "--out", path(out), "--state", path(state)] + extra
                    + files)
        }

        /// The bytes of the file `name`, `nil` when there is none.
        func bytes(_ name: String) -> Data? {
            FileManager.default.contents(atPath: path(name))
        }

        /// The report files of the folder `out`, by name.
        func reports(_ out: String) throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in SampleReplayTests.reportFiles {
                files[name] = try Data(contentsOf: folder.appendingPathComponent(out).appendingPathComponent(name))
            }
            return files
        }

        /// The inputs listed in the header of the state file `name`.
        func inputs(_ name: String) throws -> [[String: Any]] {
            let data = bytes(name) ?? Data()
            let first = data.prefix(while: { $0 != UInt8(ascii: "\n") })
            let header = try JSONSerialization.jsonObject(with: first) as? [String: Any]
            return header?["inputs"] as? [[String: Any]] ?? []
        }
    }

    @Test func theSameNightTwiceIsRefusedAndWritesNothing() throws {
        let nights = try Nights()
        defer { try? FileManager.default.removeItem(at: nights.folder) }
        #expect(try nights.replay(nights.night1, out: "first", state: "open.state").status == 0)
        let state = nights.bytes("open.state")
        let previous = nights.bytes("open.state.previous")
        let reports = try nights.reports("first")
        #expect(try nights.inputs("open.state").compactMap { $0["name"] as? String } == nights.night1)

        let again = try nights.replay(nights.night1, out: "again", state: "open.state")
        #expect(again.status == 4)
        let statePath = nights.path("open.state")
        #expect(
            again.standardError.contains(
                "\(nights.night1[0]) and \(nights.night1[1]) were already replayed into \(statePath) (a rerun); "
                    + "nothing was written. Give --replace-run to replay the last run again."),
            "\(again.standardError)")
        #expect(nights.bytes("open.state") == state)
        #expect(nights.bytes("open.state.previous") == previous)
        #expect(!FileManager.default.fileExists(atPath: nights.path("again/playbacks.csv")))

        // Into the same folder, with a new input beside the one already replayed.
        let overlap = try nights.replay([nights.night1[1]] + nights.night2, out: "first", state: "open.state")
        #expect(overlap.status == 4)
        #expect(overlap.standardError.contains("\(nights.night1[1]) was already replayed into \(statePath)"))
        #expect(!overlap.standardError.contains(nights.night2[0]))
        #expect(try nights.reports("first") == reports)
        #expect(nights.bytes("open.state") == state)
    }

    @Test func replaceRunGivesWhatTheFirstTimeGave() throws {
        let nights = try Nights()
        defer { try? FileManager.default.removeItem(at: nights.folder) }
        #expect(try nights.replay(nights.night1, out: "night1", state: "open.state").status == 0)
        let afterNight1 = nights.bytes("open.state")
        let night2 = try nights.replay(nights.night2, out: "night2", state: "open.state")
        #expect(night2.status == 0)
        let afterNight2 = nights.bytes("open.state")
        #expect(afterNight2 != afterNight1)
        #expect(nights.bytes("open.state.previous") == afterNight1)
        let reports = try nights.reports("night2")
        #expect(reports["playbacks.csv"].map { $0.count > 200 } == true)

        for out in ["replaced", "replaced-again"] {
            let replaced = try nights.replay(nights.night2, out: out, state: "open.state", ["--replace-run"])
            #expect(replaced.status == 0, "\(replaced.standardError)")
            #expect(replaced.standardError.contains("resumed from \(nights.path("open.state.previous"))"))
            #expect(try nights.reports(out) == reports, "\(out)")
            #expect(nights.bytes("open.state") == afterNight2, "\(out)")
            // The state before the replaced run is kept as it was.
            #expect(nights.bytes("open.state.previous") == afterNight1, "\(out)")
        }
    }

    @Test func replacingTheLastRunGivesTheStateOfTheRunsWithoutIt() throws {
        let nights = try Nights()
        defer { try? FileManager.default.removeItem(at: nights.folder) }
        #expect(try nights.replay(nights.night1, out: "a1", state: "a.state").status == 0)
        #expect(try nights.replay(nights.night2, out: "a2", state: "a.state").status == 0)

        // The first run replaced (from the empty state kept before it), then night 2 given
        // --replace-run when nothing of it was replayed (an ordinary run), then replaced.
        #expect(try nights.replay(nights.night1, out: "b1", state: "b.state").status == 0)
        #expect(try nights.replay(nights.night1, out: "b1", state: "b.state", ["--replace-run"]).status == 0)
        #expect(try nights.reports("b1") == nights.reports("a1"))
        #expect(try nights.replay(nights.night2, out: "b2", state: "b.state", ["--replace-run"]).status == 0)
        #expect(nights.bytes("b.state") == nights.bytes("a.state"))
        #expect(try nights.replay(nights.night2, out: "b2", state: "b.state", ["--replace-run"]).status == 0)
        #expect(nights.bytes("b.state") == nights.bytes("a.state"))
        #expect(nights.bytes("b.state.previous") == nights.bytes("a.state.previous"))
        #expect(try nights.reports("b2") == nights.reports("a2"))
        #expect(try nights.inputs("b.state").count == 3)

        // Only the last run can be replaced.
        let state = nights.bytes("b.state")
        let older = try nights.replay(nights.night1, out: "b3", state: "b.state", ["--replace-run"])
        #expect(older.status == 4)
        #expect(older.standardError.contains("only the last run can be replaced"), "\(older.standardError)")
        #expect(nights.bytes("b.state") == state)
        #expect(!FileManager.default.fileExists(atPath: nights.path("b3/playbacks.csv")))
        try FileManager.default.removeItem(atPath: nights.path("b.state.previous"))
        let withoutPrevious = try nights.replay(nights.night2, out: "b3", state: "b.state", ["--replace-run"])
        #expect(withoutPrevious.status == 4)
        #expect(
            withoutPrevious.standardError.contains(
                "\(nights.path("b.state.previous")), the state before the last run, does not exist"))
        #expect(nights.bytes("b.state") == state)

        // A replaced run that leaves out an input of the run it replaces says so.
        #expect(try nights.replay(nights.night1, out: "c1", state: "c.state").status == 0)
        let fewer = try nights.replay([nights.night1[0]], out: "c2", state: "c.state", ["--replace-run"])
        #expect(fewer.status == 0)
        #expect(fewer.standardError.contains("\(nights.night1[1]), replayed by the run replaced, is not given again"))
        #expect(try nights.inputs("c.state").compactMap { $0["name"] as? String } == [nights.night1[0]])
    }

    @Test func theSameBytesUnderAnotherNameAreRefused() throws {
        let nights = try Nights()
        defer { try? FileManager.default.removeItem(at: nights.folder) }
        let copy = nights.path("renamed.jsonl")
        try FileManager.default.copyItem(atPath: nights.night1[0], toPath: copy)
        #expect(try nights.replay(nights.night1, out: "first", state: "open.state").status == 0)
        let state = nights.bytes("open.state")
        let renamed = try nights.replay([copy], out: "renamed", state: "open.state")
        #expect(renamed.status == 4)
        #expect(
            renamed.standardError.contains(
                "\(copy) (the same bytes as \(nights.night1[0])) was already replayed into \(nights.path("open.state"))"
            ),
            "\(renamed.standardError)")
        #expect(nights.bytes("open.state") == state)
        #expect(!FileManager.default.fileExists(atPath: nights.path("renamed/playbacks.csv")))

        // Twice in one run.
        let twice = try nights.replay([nights.night1[0], copy], out: "twice", state: "new.state")
        #expect(twice.status == 4)
        #expect(twice.standardError.contains("hold the same bytes"), "\(twice.standardError)")
        #expect(nights.bytes("new.state") == nil)
        #expect(!FileManager.default.fileExists(atPath: nights.path("twice/playbacks.csv")))
    }

    @Test func inputsWithNothingToCountTwiceAreNotRecorded() throws {
        let nights = try Nights()
        defer { try? FileManager.default.removeItem(at: nights.folder) }
        // Gzip of nothing, as `gzip` writes it from a pipe: the same bytes every hour.
        let emptyGzip = Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        let empty = ["empty-1.jsonl.gz", "empty-2.jsonl.gz", "empty-3.jsonl.gz"].map(nights.path)
        for path in empty { try emptyGzip.write(to: URL(fileURLWithPath: path)) }
        let first = try nights.replay(nights.night1 + empty.prefix(2), out: "first", state: "open.state")
        #expect(first.status == 0, "\(first.standardError)")
        let second = try nights.replay([empty[2]], out: "second", state: "open.state")
        #expect(second.status == 0, "\(second.standardError)")
        #expect(try nights.inputs("open.state").compactMap { $0["name"] as? String } == nights.night1)
        // Standard input is never recorded nor checked: the same log twice is replayed twice
        // (the second time, its records come too late for the lives the first left open).
        let log = try Data(contentsOf: URL(fileURLWithPath: nights.night2[0]))
        for (out, status) in [("stdin-1", 0), ("stdin-2", 1)] {
            let piped = try CommandRunner.run(
                ["--out", nights.path(out), "--state", nights.path("stdin.state"), "-"], standardInput: log)
            #expect(piped.status == status, "\(out): \(piped.standardError)")
            #expect(FileManager.default.fileExists(atPath: nights.path(out + "/playbacks.csv")))
        }
        #expect(try nights.inputs("stdin.state").isEmpty)
    }

    @Test func theStateRecordsEachInputsSizeAndDigest() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let logs = folder.appendingPathComponent("logs")
        let generated = try CommandRunner.run(
            ["--records", "12000", "--files", "1", "--seed", "3", "--out", logs.path], executable: CommandRunner.loggen)
        #expect(generated.status == 0, "\(generated.standardError)")
        let names = try FileManager.default.contentsOfDirectory(atPath: logs.path).sorted()
        let paths = names.map { logs.appendingPathComponent($0).path } + CommandRunner.samples
        let state = folder.appendingPathComponent("open.state").path
        let run = try CommandRunner.run(["--out", folder.appendingPathComponent("out").path, "--state", state] + paths)
        #expect(run.status == 0, "\(run.standardError)")
        // The first line is text; the lives after it are binary.
        let contents = try Data(contentsOf: URL(fileURLWithPath: state))
        let header = String(decoding: contents.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        var expected = ""
        for path in paths {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            // FNV-1a 64 of the whole file, byte by byte.
            var digest: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
            let hex = String(digest, radix: 16)
            if !expected.isEmpty { expected += "," }
            expected +=
                "{\"name\":\"\(path)\",\"size\":\(bytes.count),\"digest\":\"\(String(repeating: "0", count: 16 - hex.count) + hex)\"}"
        }
        #expect(bytes(atLeast: 1 << 20, paths[0]))
        #expect(header.hasPrefix("{\"avtReplayState\":5,"))
        // The inputs, then the checksum of the line before it (CRC-32 in 8 hex digits).
        let inputs = ",\"inputs\":[\(expected)],\"crc32\":\""
        #expect(header.contains(inputs), "\(header)")
        #expect(
            header.hasSuffix("\"}")
                && header.count
                    == (header.range(of: inputs)?.upperBound).map {
                        header.distance(from: header.startIndex, to: $0) + 10
                    },
            "\(header)")
    }

    private func bytes(atLeast count: Int, _ path: String) -> Bool {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) >= count
    }
}
