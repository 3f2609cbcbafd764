import Foundation
import Testing

/// Input that is valid but probably wrong (issue 52.1): warned of once per file, with the
/// first example and a fix, on standard error and in `run.json`, and never changing a report.
struct InputWarningsTests {
    /// The files of a report set without `--trace` whose bytes are compared.
    static let reportFiles = [
        "playbacks.csv", "vp_sessions.csv", "marconi_items.csv", "summary.csv", "aggregates.csv", "metrics.influx",
        "metrics.graphite", "rejects.jsonl", "report.html",
    ]

    /// A hand-written playback as docs/event-log.md shows it, with `ts` as `time(ts)` gives it.
    static func playback(_ time: (Int64) -> String, actions: [String] = ["Start", "End"]) -> String {
        var lines = [
            #"{"ts":\#(time(1_763_622_300_000)),"instrument":"ios-7f3a9c","tracker":0,"action":"MediaRequest","attrs":{"title":"Episode 42","platform":"ios"}}"#,
            #"{"ts":\#(time(1_763_622_301_000)),"instrument":"ios-7f3a9c","tracker":0,"action":"StreamLoad"}"#,
            #"{"ts":\#(time(1_763_622_304_000)),"instrument":"ios-7f3a9c","tracker":0,"action":"\#(actions[0])"}"#,
        ]
        lines.append(
            #"{"ts":\#(time(1_763_622_360_000)),"instrument":"ios-7f3a9c","tracker":0,"action":"\#(actions[1])"}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    private func write(_ text: String, _ name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    private func runJSON(_ folder: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: folder.appendingPathComponent("run.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func expectSameReports(_ left: URL, _ right: URL, except: [String] = []) throws {
        for name in Self.reportFiles where !except.contains(name) {
            let a = try Data(contentsOf: left.appendingPathComponent(name))
            let b = try Data(contentsOf: right.appendingPathComponent(name))
            #expect(a == b, "\(name) differs")
        }
    }

    @Test func epochSecondsAreWarnedOfAndTsUnitSecondsGivesTheMillisecondReports() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let seconds = try write(Self.playback { String($0 / 1_000) }, "seconds.jsonl", in: folder)
        let milliseconds = try write(
            Self.playback { String($0) }, "seconds.jsonl", in: folder.appendingPathComponent("ms"))
        let plain = try CommandRunner.run(["--out", folder.appendingPathComponent("plain").path, seconds.path])
        #expect(plain.status == 0)
        #expect(
            plain.standardError.contains(
                "warning: \(seconds.path):1: \"ts\":1763622300 looks like epoch seconds (4 records of this file)"),
            "\(plain.standardError)")
        #expect(plain.standardError.contains("give --ts-unit s"))
        let warnings = try #require(try runJSON(folder.appendingPathComponent("plain"))["warnings"] as? [[String: Any]])
        #expect(warnings.count == 1)
        #expect(warnings.first?["kind"] as? String == "tsLooksLikeSeconds")
        #expect(warnings.first?["file"] as? String == seconds.path)
        #expect(warnings.first?["count"] as? Int == 4)
        #expect(warnings.first?["line"] as? Int == 1)
        #expect((warnings.first?["fix"] as? String)?.contains("--ts-unit s") == true)

        let inSeconds = folder.appendingPathComponent("s")
        let unit = try CommandRunner.run(["--out", inSeconds.path, "--ts-unit", "s", seconds.path])
        #expect(unit.status == 0)
        #expect(!unit.standardError.contains("warning"), "\(unit.standardError)")
        let inMilliseconds = folder.appendingPathComponent("reference")
        let reference = try CommandRunner.run(["--out", inMilliseconds.path, milliseconds.path])
        #expect(reference.status == 0)
        #expect(!reference.standardError.contains("warning"), "\(reference.standardError)")
        // report.html names the input's size, which the seconds make 12 bytes shorter.
        try expectSameReports(inSeconds, inMilliseconds, except: ["report.html"])
        let playbacks = try String(contentsOf: inSeconds.appendingPathComponent("playbacks.csv"), encoding: .utf8)
        #expect(playbacks.contains(",1763622300000,1763622360000,"), "\(playbacks)")
    }

    @Test func warningsNeverChangeTheReports() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = try write(Self.playback({ String($0 / 1_000) }, actions: ["start", "end"]), "a.jsonl", in: folder)
        let warned = folder.appendingPathComponent("warned")
        let silenced = folder.appendingPathComponent("silenced")
        #expect(try CommandRunner.run(["--out", warned.path, log.path]).status == 0)
        let quiet = try CommandRunner.run(["-qq", "--out", silenced.path, "--ts-unit", "ms", log.path])
        #expect(quiet.status == 0)
        #expect(quiet.standardError.isEmpty, "\(quiet.standardError)")
        try expectSameReports(warned, silenced)
        // -qq prints none, run.json still lists them (the misspelt actions: ms was said).
        let warnings = try #require(try runJSON(silenced)["warnings"] as? [[String: Any]])
        #expect(warnings.map { $0["kind"] as? String } == ["actionLooksMisspelt"])
    }

    @Test func actionsThatDifferFromOpenAVTsInCaseAreWarnedOfOncePerFile() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try write(Self.playback({ String($0) }, actions: ["start", "end"]), "a.jsonl", in: folder)
        let second = try write(
            Self.playback({ String($0 + 1) }, actions: ["Start", "Stopp"]).replacingOccurrences(
                of: "ios-7f3a9c", with: "android-1"), "b.jsonl", in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try CommandRunner.run(["--quiet", "--out", out.path, first.path, second.path])
        #expect(result.status == 0)
        // Replayed as custom actions, as OpenAVT would: no playback starts or ends.
        #expect(
            result.standardError.contains(
                "warning: \(first.path):3: \"action\":\"start\" is not an OpenAVT action; replayed as a custom action "
                    + "(2 records of this file): did you mean Start? Actions are case-sensitive (also \"end\" for End)"),
            "\(result.standardError)")
        #expect(result.standardError.contains("\(second.path):4: \"action\":\"Stopp\""))
        #expect(result.standardError.contains("did you mean Stop?"))
        #expect(result.standardError.components(separatedBy: "is not an OpenAVT action").count - 1 == 2)
        let warnings = try #require(try runJSON(out)["warnings"] as? [[String: Any]])
        #expect(warnings.map { $0["file"] as? String } == [first.path, second.path])
        #expect(warnings.map { $0["count"] as? Int } == [2, 1])
        #expect(warnings.map { $0["example"] as? String } == [#""action":"start""#, #""action":"Stopp""#])
    }

    @Test func aGroupByKeyNoRecordCarriesIsWarnedOfWithTheNearestName() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = try write(Self.playback { String($0) }, "a.jsonl", in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try CommandRunner.run(["--out", out.path, "--group-by", "platfrom,title", log.path])
        #expect(result.status == 0)
        #expect(
            result.standardError.contains(
                "warning: --group-by platfrom: no playback, session or item carries this attribute; its column is "
                    + "empty: did you mean platform?"), "\(result.standardError)")
        #expect(!result.standardError.contains("--group-by title"))
        let warnings = try #require(try runJSON(out)["warnings"] as? [[String: Any]])
        #expect(warnings.count == 1)
        #expect(warnings.first?["kind"] as? String == "groupByKeyUnused")
        #expect(warnings.first?["file"] is NSNull)
        // A key the records carry gives no warning.
        let right = try CommandRunner.run(
            ["--out", folder.appendingPathComponent("right").path, "--group-by", "platform", log.path])
        #expect(!right.standardError.contains("warning"), "\(right.standardError)")
    }

    @Test func theSameFileUnderFourPathsIsReadOnce() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = try write(
            Self.playback { String($0) } + #"{"ts":1763622400000,"type":"vp","app":"a","name":"w","action":"start"}"#
                + "\n", "logs/a.jsonl", in: folder)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link.jsonl").path, withDestinationPath: "logs/a.jsonl")
        let once = try CommandRunner.run(["--out", "once", "logs/a.jsonl"], in: folder)
        #expect(once.status == 0)
        let repeated = try CommandRunner.run(
            ["--out", "repeated", "logs/a.jsonl", "./logs/a.jsonl", log.path, "link.jsonl"], in: folder)
        #expect(repeated.status == 0)
        try expectSameReports(folder.appendingPathComponent("once"), folder.appendingPathComponent("repeated"))
        #expect(repeated.standardError.contains("read 1 file"), "\(repeated.standardError)")
        for other in ["./logs/a.jsonl", log.path, "link.jsonl"] {
            #expect(
                repeated.standardError.contains(
                    "warning: logs/a.jsonl: \(other) names the same file; it is read once, as logs/a.jsonl"))
        }
        let json = try runJSON(folder.appendingPathComponent("repeated"))
        let inputs = try #require(json["inputs"] as? [[String: Any]])
        #expect(inputs.map { $0["name"] as? String } == ["logs/a.jsonl"])
        let warnings = try #require(json["warnings"] as? [[String: Any]])
        #expect(warnings.filter { $0["kind"] as? String == "sameFileTwice" }.count == 3)
    }
}
