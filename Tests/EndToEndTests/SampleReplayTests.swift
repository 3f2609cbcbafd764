import Foundation
import Testing

/// The golden test: replaying `samples/` gives exactly the committed `Tests/Golden/samples/`.
///
/// To re-record after an intended change, run this test with `RECORD_GOLDEN=1` (it copies its
/// output over `Tests/Golden/samples/` and fails), or the README's main command with
/// `--out Tests/Golden/samples`, then review `git diff Tests/Golden/samples/`.
struct SampleReplayTests {
    static let reportFiles = [
        "playbacks.csv", "vp_sessions.csv", "marconi_items.csv", "summary.csv", "aggregates.csv", "report.html",
        "metrics.influx", "metrics.graphite", "events.jsonl", "rejects.jsonl",
    ]

    @Test func samplesReproduceTheCommittedReports() throws {
        let out = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CommandRunner.run(CommandRunner.mainArguments + ["--out", out.path] + CommandRunner.samples)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(CommandRunner.samples.count == 2)
        let golden = CommandRunner.packageRoot.appendingPathComponent("Tests/Golden/samples")
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] != nil {
            try FileManager.default.createDirectory(at: golden, withIntermediateDirectories: true)
            for name in Self.reportFiles {
                let target = golden.appendingPathComponent(name)
                try? FileManager.default.removeItem(at: target)
                try FileManager.default.copyItem(at: out.appendingPathComponent(name), to: target)
            }
            Issue.record(
                "RECORD_GOLDEN is set: Tests/Golden/samples/ was rewritten; review it with git diff and run again without it"
            )
            return
        }
        for name in Self.reportFiles {
            let produced = try Data(contentsOf: out.appendingPathComponent(name))
            let expected = try Data(contentsOf: golden.appendingPathComponent(name))
            #expect(
                produced == expected,
                "\(name) differs from Tests/Golden/samples/\(name): \(firstDifference(produced, expected))")
        }
    }

    @Test func theOrderOfFilesOnTheCommandLineChangesNothing() throws {
        let forward = try CommandRunner.makeTemporaryFolder()
        let backward = try CommandRunner.makeTemporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: forward)
            try? FileManager.default.removeItem(at: backward)
        }
        let samples = CommandRunner.samples
        _ = try CommandRunner.run(CommandRunner.mainArguments + ["--out", forward.path] + samples)
        _ = try CommandRunner.run(CommandRunner.mainArguments + ["--out", backward.path] + samples.reversed())
        for name in Self.reportFiles {
            let first = try Data(contentsOf: forward.appendingPathComponent(name))
            let second = try Data(contentsOf: backward.appendingPathComponent(name))
            #expect(first == second, "\(name)")
            #expect(name == "rejects.jsonl" || !first.isEmpty, "\(name) is empty")
        }
    }

    @Test func aggregateAppendsOnePointPerAggregatesRowAndSevenGraphiteLines() throws {
        let plain = try CommandRunner.makeTemporaryFolder()
        let aggregated = try CommandRunner.makeTemporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: plain)
            try? FileManager.default.removeItem(at: aggregated)
        }
        let samples = CommandRunner.samples
        let events = CommandRunner.mainArguments + ["--metrics", "events"]
        _ = try CommandRunner.run(events + ["--out", plain.path] + samples)
        let result = try CommandRunner.run(events + ["--aggregate", "--out", aggregated.path] + samples)
        #expect(result.status == 0, "\(result.standardError)")
        let rows = try text(plain, "aggregates.csv").split(separator: "\n").count - 1
        #expect(rows > 0)
        for (name, linesPerRow) in [("metrics.influx", 1), ("metrics.graphite", 7)] {
            let before = try text(plain, name)
            let after = try text(aggregated, name)
            // The points of the sessions first, unchanged, then the aggregates.
            #expect(after.hasPrefix(before), "\(name)")
            let added = after.dropFirst(before.count).split(separator: "\n")
            #expect(added.count == rows * linesPerRow, "\(name)")
            #expect(added.allSatisfy { $0.contains("aggregates") }, "\(name)")
        }
        #expect(
            try text(aggregated, "metrics.influx").contains(
                "openavt_aggregates,metric=NumEnds count=3i,sum=3.0,min=1.0,max=1.0,sum_squares=3.0,mean=1.0,stddev=0.0 "
                    + "1763622000000000000\n"))
    }

    /// `--metrics aggregates`: the metric files hold the aggregates of `aggregates.csv` only,
    /// the same lines `--aggregate` adds after the events' points, and a bounded number of
    /// series: none keyed by a device.
    @Test func metricsAggregatesWritesOnlyTheAggregates() throws {
        let events = try CommandRunner.makeTemporaryFolder()
        let aggregates = try CommandRunner.makeTemporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: events)
            try? FileManager.default.removeItem(at: aggregates)
        }
        let samples = CommandRunner.samples
        #expect(
            try CommandRunner.run(["--metrics", "events", "--aggregate", "--out", events.path] + samples).status == 0)
        let result = try CommandRunner.run(["--metrics", "aggregates", "--out", aggregates.path] + samples)
        #expect(result.status == 0, "\(result.standardError)")
        for name in ["metrics.influx", "metrics.graphite"] {
            let only = try text(aggregates, name)
            #expect(!only.isEmpty)
            #expect(try text(events, name).hasSuffix(only), "\(name)")
            #expect(only.split(separator: "\n").allSatisfy { $0.contains("aggregates") }, "\(name)")
            #expect(!only.contains("instrument"), "\(name)")
        }
        #expect(try text(aggregates, "playbacks.csv") == text(events, "playbacks.csv"))
    }

    /// A report file of `folder`, as text.
    private func text(_ folder: URL, _ name: String) throws -> String {
        String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self)
    }

    private func firstDifference(_ produced: Data, _ expected: Data) -> String {
        let producedLines = String(decoding: produced, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = String(decoding: expected, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        for (index, pair) in zip(producedLines, expectedLines).enumerated() where pair.0 != pair.1 {
            return "line \(index + 1): got \(pair.0), expected \(pair.1)"
        }
        return "\(producedLines.count) lines, expected \(expectedLines.count)"
    }
}
