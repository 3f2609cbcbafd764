import Foundation
import Testing

/// What happens with bad input: every good record replays, every bad one is reported exactly.
struct BadInputTests {
    /// One line of each kind of bad record, between good ones.
    static let corpus: [(line: String, reason: String?)] = [
        (#"{"ts":1000,"instrument":"i","tracker":0,"action":"StreamLoad","attrs":{"title":"T"}}"#, nil),
        ("not json at all", "not valid JSON: "),
        (#"[1,2,3]"#, "not a JSON object"),
        (#"{"ts":1100,"tracker":0,"action":"Ping"}"#, #"missing "instrument""#),
        (#"{"ts":1200,"instrument":"i","tracker":"0","action":"Ping"}"#, #""tracker" must be an integer"#),
        (#"{"ts":99999999999999999,"instrument":"i","tracker":0,"action":"Ping"}"#, #""ts" is out of range"#),
        ("{\"ts\":1300,\"instrument\":\"i\u{FFFD}\",\"tracker\":0,\"action\":\"Ping\"}", nil),
        (#"{"ts":1400,"type":"video","instrument":"i","tracker":0,"action":"Ping"}"#, #"unknown type "video""#),
        (#"{"ts":1500,"instrument":"i","tracker":0,"action":"Ping","attrs":{"a":"#, "not valid JSON: "),
        (String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000), "not valid JSON: "),
        (#"{"ts":2000,"instrument":"i","tracker":0,"action":"Start"}"#, nil),
        (#"{"ts":3000,"instrument":"i","tracker":0,"action":"End"}"#, nil),
    ]

    private func makeLog(in folder: URL) throws -> URL {
        var bytes = Data()
        for (index, entry) in Self.corpus.enumerated() {
            bytes.append(Data(entry.line.utf8))
            if index == 6 {
                // Invalid UTF-8 and a NUL byte on a line of their own.
                bytes.append(Data("\n".utf8))
                bytes.append(Data([0x7B, 0x22, 0x74, 0x73, 0x22, 0x3A, 0x31, 0xFF, 0x00, 0x7D]))
            }
            bytes.append(Data("\n".utf8))
        }
        let url = folder.appendingPathComponent("bad.jsonl")
        try bytes.write(to: url)
        return url
    }

    @Test func everyBadLineIsRejectedWithItsReasonAndTheGoodOnesReplay() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = try makeLog(in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try CommandRunner.run(["--out", out.path, log.path])
        #expect(result.status == 1)
        let rejects = try String(contentsOf: out.appendingPathComponent("rejects.jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let expected =
            Self.corpus.enumerated().compactMap { index, entry in
                entry.reason.map { (line: index < 7 ? index + 1 : index + 2, reason: $0) }
            } + [(line: 8, reason: "not valid JSON: ")]
        #expect(rejects.count == expected.count)
        for (line, reason) in expected {
            let match = rejects.first { $0.contains(#""line":\#(line),"#) }
            #expect(
                match?.contains(#""reason":"\#(reason.replacingOccurrences(of: "\"", with: "\\\""))"#) == true,
                "line \(line): \(match ?? "none")")
        }
        #expect(result.standardError.contains("13 records: 4 replayed, 9 rejected"))
        let playbacks = try String(contentsOf: out.appendingPathComponent("playbacks.csv"), encoding: .utf8)
        #expect(playbacks.contains("i,0,i:1000:p1,i:1000:s1,1000,3000,T,,1000,1000,"))
    }

    @Test func aTruncatedGzipReplaysWhatCameBeforeTheCut() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sample = try Data(contentsOf: URL(fileURLWithPath: CommandRunner.samples[0]))
        let cut = folder.appendingPathComponent("cut.jsonl.gz")
        try sample.prefix(sample.count * 2 / 3).write(to: cut)
        let out = folder.appendingPathComponent("out")
        let result = try CommandRunner.run(["--out", out.path, cut.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("cut.jsonl.gz: truncated gzip stream"))
        let rejects = try String(contentsOf: out.appendingPathComponent("rejects.jsonl"), encoding: .utf8)
        #expect(rejects.contains(#""line":null,"reason":"truncated gzip stream"#))
        let playbacks = try String(contentsOf: out.appendingPathComponent("playbacks.csv"), encoding: .utf8)
        #expect(playbacks.split(separator: "\n").count > 2)
    }

    /// Every problem with a whole file is named on standard error, however many problems with
    /// lines came before it; only the list of line problems is cut.
    @Test func aDamagedFileIsNamedAfterManyBadLines() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let garbage = folder.appendingPathComponent("a-garbage.jsonl")
        try Data(String(repeating: "not json\n", count: 25).utf8).write(to: garbage)
        let sample = try Data(contentsOf: URL(fileURLWithPath: CommandRunner.samples[0]))
        let cut = folder.appendingPathComponent("b-cut.jsonl.gz")
        try sample.prefix(sample.count * 2 / 3).write(to: cut)
        let out = folder.appendingPathComponent("out")
        let result = try CommandRunner.run(["--out", out.path, garbage.path, cut.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("b-cut.jsonl.gz: truncated gzip stream"))
        #expect(result.standardError.contains("... and 15 more rejected or late lines"))
        #expect(result.standardError.components(separatedBy: "a-garbage.jsonl:").count - 1 == 10)
    }

    @Test func badFilesAreNamedAndTheOthersStillReplay() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notGzip = folder.appendingPathComponent("plain.jsonl.gz")
        try Data("{\"ts\":1,\"instrument\":\"x\",\"tracker\":0,\"action\":\"StreamLoad\"}\n".utf8).write(to: notGzip)
        let empty = folder.appendingPathComponent("empty.jsonl.gz")
        try Data().write(to: empty)
        let directory = folder.appendingPathComponent("dir.jsonl")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("out")
        let result = try CommandRunner.run(
            [
                "--out", out.path, notGzip.path, empty.path, directory.path,
                folder.appendingPathComponent("missing.jsonl").path,
            ]
                + CommandRunner.samples)
        #expect(result.status == 1)
        #expect(result.standardError.contains("plain.jsonl.gz: not a gzip file"))
        #expect(result.standardError.contains("dir.jsonl: "))
        #expect(result.standardError.contains("missing.jsonl: "))
        #expect(!result.standardError.contains("empty.jsonl.gz:"))
        #expect(result.standardError.contains("3 files not read to the end"))
        let playbacks = try String(contentsOf: out.appendingPathComponent("playbacks.csv"), encoding: .utf8)
        #expect(playbacks.split(separator: "\n").count == 8)
    }

    @Test func strictAndMaxRejectsFailWithoutTouchingThePreviousReports() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        #expect(try CommandRunner.run(["--out", out.path] + CommandRunner.samples).status == 0)
        let before = try Self.contents(of: out)
        let log = try makeLog(in: folder)
        let strict = try CommandRunner.run(["--out", out.path, "--strict", log.path])
        #expect(strict.status == 4)
        #expect(strict.standardError.contains("no reports were written"))
        #expect(try Self.contents(of: out) == before)
        // Nor are the refused run's temporary files left behind.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0 != "run.json" }.sorted()
                == before.keys.sorted())
        #expect(try CommandRunner.run(["--out", out.path, "--max-rejects", "50%", log.path]).status == 4)
        #expect(try CommandRunner.run(["--out", out.path, "--max-rejects", "8", log.path]).status == 4)
        #expect(try Self.contents(of: out) == before)
        #expect(try CommandRunner.run(["--out", out.path, "--max-rejects", "9", log.path]).status == 1)
        #expect(try CommandRunner.run(["--max-rejects", "x", log.path]).status == 2)
    }

    @Test func aRunKilledMidwayLeavesThePreviousReportsWhole() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        #expect(try CommandRunner.run(["--out", out.path] + CommandRunner.samples).status == 0)
        let before = try Self.contents(of: out)
        // The run reads standard input, so it cannot finish before the pipe closes: kill it first.
        let process = Process()
        process.executableURL = CommandRunner.binary
        process.arguments = ["--out", out.path, "-"]
        let input = Pipe()
        process.standardInput = input
        process.standardError = Pipe()
        try process.run()
        input.fileHandleForWriting.write(
            Data(#"{"ts":1,"instrument":"k","tracker":0,"action":"StreamLoad"}"#.utf8 + [10]))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try Self.contents(of: out) == before)
    }

    /// Attribute names get numbers up to a bound (4,096); a log with more distinct names
    /// still replays, names past the bound spelt out (found by `scripts/checks/fuzz.sh decoder`:
    /// unpacking such a name took a lock it held, and the run crashed).
    @Test func moreDistinctAttributeNamesThanTheKeyTableNumbersReplay() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var lines = (0..<4_200).map {
            #"{"ts":\#(1000 + $0),"instrument":"i","tracker":0,"action":"Ping","attrs":{"k\#($0)":1}}"#
        }
        lines += [
            #"{"type":"vp","ts":9000,"app":"a","name":"n","attrs":{"zone":"eu"},"action":"open"}"#,
            #"{"type":"vp","ts":9200,"app":"a","name":"n","attrs":{"zone":"eu"},"action":"start"}"#,
            #"{"type":"vp","ts":9500,"app":"a","name":"n","attrs":{"zone":"eu"},"action":"complete"}"#,
        ]
        let log = folder.appendingPathComponent("names.jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: log)
        let out = folder.appendingPathComponent("out")
        let result = try CommandRunner.run(["--out", out.path, log.path])
        #expect(result.status == 0, "\(result.standardError)")
        let sessions = try String(contentsOf: out.appendingPathComponent("vp_sessions.csv"), encoding: .utf8)
        #expect(sessions.contains(#"a,n,a:9000:v1,"{""zone"":""eu""}",9000,9500,completed,200,"#), "\(sessions)")
    }

    /// When the first records read take every attribute-name number before the first event is
    /// stamped, the stamped attributes still have their slots (their names' numbers are
    /// reserved): the playback's row and trace are the same as without those records.
    @Test func aFullTableOfNamesGivesTheSameRows() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = (0..<4_200).map {
            #"{"type":"vp","ts":\#(1000 + $0),"app":"a","name":"n","action":"open","attrs":{"k\#($0)":1}}"#
        }
        let playback = [
            (3_600_000, "MediaRequest"), (3_600_500, "StreamLoad"), (3_601_000, "Start"), (3_605_000, "PauseBegin"),
            (3_607_000, "PauseFinish"), (3_610_000, "BufferBegin"), (3_611_500, "BufferFinish"), (3_620_000, "End"),
        ].map { #"{"ts":\#($0.0),"instrument":"i","tracker":0,"action":"\#($0.1)","attrs":{"duration":60000}}"# }
        var playbacks: [String] = []
        var traces: [[Substring]] = []
        for (name, lines) in [("with-names.jsonl", names + playback), ("alone.jsonl", playback)] {
            let log = folder.appendingPathComponent(name)
            try Data(lines.joined(separator: "\n").utf8).write(to: log)
            let out = folder.appendingPathComponent("out-" + name)
            let result = try CommandRunner.run(["--trace", "--out", out.path, log.path])
            #expect(result.status == 0, "\(result.standardError)")
            playbacks.append(try String(contentsOf: out.appendingPathComponent("playbacks.csv"), encoding: .utf8))
            let trace = try String(contentsOf: out.appendingPathComponent("events.jsonl"), encoding: .utf8)
            traces.append(trace.split(separator: "\n").filter { $0.contains(#""instrument":"i""#) })
        }
        #expect(playbacks[0] == playbacks[1])
        #expect(playbacks[1].contains("\ni,0,i:3600000:p1,i:3600000:s1,3600000,3620000,"), "\(playbacks[1])")
        #expect(traces[0] == traces[1])
        #expect(traces[1].count == playback.count)
    }

    /// The report files of a folder (temporary files left by a killed run not included).
    /// The reports of a folder and their bytes: not `run.json`, which every run writes, nor the
    /// temporary files a killed run leaves.
    static func contents(of folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where !name.contains(".tmp-") && name != "run.json" {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }
}
