import Foundation
import Testing

/// One device whose clock is hours ahead of or behind everyone's, in the first night or the
/// second of a series: the other lives' rows, night by night, are what they are without it,
/// and the device is named and counted (docs/time.md, "One device's clock").
struct ClockSkewTests {
    private static let midnight: Int64 = 1_763_683_200_000
    private static let minute: Int64 = 60_000
    private static let skew: Int64 = 13 * 60 * minute

    private static func line(_ time: Int64, _ instrument: String, _ action: String) -> String {
        #"{"ts":\#(time),"instrument":"\#(instrument)","tracker":0,"action":"\#(action)"}"#
    }

    /// A playback of `instrument` beginning at `start`: (arrival time, line), its `ts` shifted by `shift`.
    private static func playback(_ instrument: String, at start: Int64, shift: Int64 = 0, paused: Bool = true)
        -> [(Int64, String)]
    {
        var steps: [(Int64, String)] = [(0, "MediaRequest"), (2_000, "Start")]
        if paused { steps += [(10 * minute, "PauseBegin"), (40 * minute, "PauseFinish")] }
        steps.append((90 * minute, "End"))
        return steps.map { offset, action in (start + offset, line(start + offset + shift, instrument, action)) }
    }

    /// The two nights' lines in arrival order (a line that arrives after midnight is in the
    /// second night's file), with the device "skew" shifted by `shift` in night `skewNight`
    /// (none when 0).
    private static func nights(skewNight: Int, shift: Int64) -> [[String]] {
        nights(skews: skewNight == 0 ? [] : [("skew", skewNight, shift)])
    }

    /// The two nights' lines with each of `skews` (its instrument, night and shift) playing.
    private static func nights(skews: [(String, Int, Int64)]) -> [[String]] {
        var all: [(Int64, String)] = []
        for number in 0..<8 {
            all += playback("p\(number)", at: midnight - 6 * 60 * minute + Int64(number) * 45 * minute)
        }
        // Paused at 13:10 and never again: the idle gap ends it at 01:10, in the second night.
        let early = midnight - 11 * 60 * minute
        all += [
            (early, line(early, "early", "MediaRequest")), (early + 2_000, line(early + 2_000, "early", "Start")),
            (early + 10 * minute, line(early + 10 * minute, "early", "PauseBegin")),
        ]
        for number in 0..<4 {
            all += playback("q\(number)", at: midnight + 60 * minute + Int64(number) * 30 * minute, paused: false)
        }
        for (instrument, night, shift) in skews {
            all += playback(
                instrument, at: night == 1 ? midnight - 4 * 60 * minute : midnight + 90 * minute, shift: shift)
        }
        let ordered = all.sorted { $0.0 < $1.0 }
        return [ordered.filter { $0.0 < midnight }.map(\.1), ordered.filter { $0.0 >= midnight }.map(\.1)]
    }

    private struct Night {
        var rows: [String]
        var standardError: String
        var runJSON: String
    }

    /// Replays the nights one after the other with a state, then `--finish`; the rows of
    /// every instrument but "skew" of each, and what each said.
    private static func replayNights(_ nights: [[String]], in folder: URL) throws -> [Night] {
        var files: [String] = []
        for (number, lines) in nights.enumerated() {
            let file = folder.appendingPathComponent("night\(number + 1).jsonl")
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
            files.append(file.path)
        }
        let state = folder.appendingPathComponent("open.state").path
        var results: [Night] = []
        for (number, file) in (files.map { [$0] } + [["--finish"]]).enumerated() {
            let out = folder.appendingPathComponent("out\(number + 1)")
            let result = try CommandRunner.run(["--out", out.path, "--state", state] + file)
            #expect(result.status == 0, "\(result.standardError)")
            let rows = try lines(out, "playbacks.csv").dropFirst().map(String.init).filter { !$0.hasPrefix("skew,") }
            let runJSON = try String(contentsOf: out.appendingPathComponent("run.json"), encoding: .utf8)
            results.append(Night(rows: rows, standardError: result.standardError, runJSON: runJSON))
        }
        return results
    }

    @Test(arguments: [(1, skew), (1, -skew), (2, skew), (2, -skew)])
    func oneDevicesClockChangesNoOtherRow(night: Int, shift: Int64) throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clean = folder.appendingPathComponent("clean")
        let skewed = folder.appendingPathComponent("skewed")
        for path in [clean, skewed] {
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        }
        let expected = try Self.replayNights(Self.nights(skewNight: 0, shift: 0), in: clean)
        let got = try Self.replayNights(Self.nights(skewNight: night, shift: shift), in: skewed)
        // Without the device: "early" ends in the second night, by the idle gap, and the
        // playbacks paused over midnight are carried.
        #expect(expected[1].rows.contains { $0.hasPrefix("early,") })
        #expect(expected[0].rows.count == 6)
        for index in expected.indices {
            #expect(got[index].rows == expected[index].rows, "night \(index + 1)")
        }
        let said = got[night - 1]
        if shift > 0 {
            #expect(said.standardError.contains(#"instrument "skew" up to "#), "\(said.standardError)")
            #expect(said.standardError.contains("ahead of every input"))
            #expect(said.runJSON.contains(#""ahead":5"#), "\(said.runJSON)")
            #expect(said.runJSON.contains(#""kind":"clockAhead""#))
        } else {
            #expect(said.standardError.contains(#"instrument "skew" is 13h"#), "\(said.standardError)")
            #expect(said.runJSON.contains(#""kind":"clockBehind""#))
        }
        // The device's own playback is replayed, in its own order, whole.
        let own = try lines(skewed.appendingPathComponent("out\(night)"), "playbacks.csv").filter {
            $0.hasPrefix("skew,")
        }
        #expect(own.count == 1, "\(own)")
        #expect(own.first?.contains(",End,") == true, "\(own)")
    }

    /// The ahead and behind devices' records give the same bytes however the run is split:
    /// one thread or several, and shards, from the files or from a partition, merged.
    @Test func theSameReportsWithAnyThreadsAndShards() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let lines = Self.nights(skews: [("slow", 1, -Self.skew), ("fast", 1, Self.skew), ("faster", 2, 2 * Self.skew)])
        let log = root.appendingPathComponent("both.jsonl")
        try Data((lines.joined().joined(separator: "\n") + "\n").utf8).write(to: log)
        let options = ["--quiet", "--trace", "--metrics", "events"]
        func run(_ name: String, _ arguments: [String]) throws -> URL {
            let out = root.appendingPathComponent(name)
            let result = try CommandRunner.run(options + ["--out", out.path] + arguments)
            #expect(result.status == 0, "\(name): \(result.standardError)")
            return out
        }
        let one = try run("one", ["--threads", "1", log.path])
        let runJSON = try String(contentsOf: one.appendingPathComponent("run.json"), encoding: .utf8)
        #expect(runJSON.contains(#""ahead":10"#), "\(runJSON)")
        var others = [try run("three", ["--threads", "3", log.path])]
        let shards = try (1...2).map { try run("shard\($0)", ["--shard", "\($0)/2", log.path]).path }
        let merged = root.appendingPathComponent("merged")
        #expect(try CommandRunner.run(["merge", "--quiet", "--out", merged.path] + shards).status == 0)
        others.append(merged)
        let partition = root.appendingPathComponent("partition")
        #expect(
            try CommandRunner.run(["partition", "--quiet", "--shards", "2", "--out", partition.path, log.path]).status
                == 0)
        let parts = try (1...2).map { index in
            let folder = partition.appendingPathComponent("\(index)")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map {
                folder.appendingPathComponent($0).path
            }
            return try run("part\(index)", ["--shard", "\(index)/2"] + files).path
        }
        let fromParts = root.appendingPathComponent("from-parts")
        #expect(try CommandRunner.run(["merge", "--quiet", "--out", fromParts.path] + parts).status == 0)
        others.append(fromParts)
        for other in others {
            for name in SampleReplayTests.reportFiles where name != "report.html" {
                let expected = try Data(contentsOf: one.appendingPathComponent(name))
                #expect(
                    try Data(contentsOf: other.appendingPathComponent(name)) == expected,
                    "\(other.lastPathComponent) \(name)")
            }
        }
    }
}

private func lines(_ folder: URL, _ name: String) throws -> [Substring] {
    try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).split(separator: "\n")
}
