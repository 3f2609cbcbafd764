import Foundation
import Testing

/// A record whose time InfluxDB or Graphite cannot store is replayed, but its points are left
/// out of the metric files, never wrapped into another time; the run names it and exits 1.
struct MetricTimesTests {
    private static let log =
        [
            #"{"ts":"9999-12-31T00:00:00Z","instrument":"tv-x","tracker":0,"action":"MediaRequest","attrs":{"title":"X"}}"#,
            #"{"ts":"9999-12-31T00:00:05Z","instrument":"tv-x","tracker":0,"action":"Start","attrs":{"title":"X"}}"#,
            #"{"ts":"1969-07-20T20:17:40Z","instrument":"tv-m","tracker":0,"action":"MediaRequest","attrs":{"title":"M"}}"#,
            #"{"ts":1763711000000,"instrument":"tv-n","tracker":0,"action":"MediaRequest","attrs":{"title":"N"}}"#,
            #"{"ts":1763711005000,"instrument":"tv-n","tracker":0,"action":"Start","attrs":{"title":"N"}}"#,
        ].joined(separator: "\n") + "\n"

    @Test(arguments: ["events", "playbacks", "aggregates"])
    func pointsOutsideTheServersTimesAreLeftOutNeverWrapped(grain: String) throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.log.utf8).write(to: folder.appendingPathComponent("day.jsonl"))
        let result = try CommandRunner.run(
            ["-q", "--out", "out", "--metrics", grain, "--aggregate", "day.jsonl"], in: folder)
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains(#"day.jsonl:1: "ts":253402214400000 (9999-12-31T00:00:00Z) is a time"#))
        let out = folder.appendingPathComponent("out")
        // Every InfluxDB time is in 1969 or 2025 (nanoseconds), every Graphite time in 2025.
        let influx = try String(contentsOf: out.appendingPathComponent("metrics.influx"), encoding: .utf8)
        let influxTimes = influx.split(separator: "\n").compactMap {
            $0.split(separator: " ").last.flatMap { Int64($0) }
        }
        #expect(!influxTimes.isEmpty)
        for time in influxTimes {
            #expect((1_763_000_000_000_000_000...1_764_000_000_000_000_000).contains(time) || time < 0, "\(time)")
        }
        let graphite = try String(contentsOf: out.appendingPathComponent("metrics.graphite"), encoding: .utf8)
        let graphiteTimes = graphite.split(separator: "\n").compactMap {
            $0.split(separator: " ").last.flatMap { Int64($0) }
        }
        #expect(!graphiteTimes.isEmpty)
        for time in graphiteTimes { #expect((1_763_000_000...1_764_000_000).contains(time), "\(time)") }
        // The records are replayed: the year 9999's playback has its row.
        let playbacks = try String(contentsOf: out.appendingPathComponent("playbacks.csv"), encoding: .utf8)
        #expect(playbacks.contains("tv-x:253402214400000:p1"))
        let run = try String(contentsOf: out.appendingPathComponent("run.json"), encoding: .utf8)
        #expect(run.contains(#""kind":"tsOutsideMetricTimes","file":"day.jsonl","count":3,"line":1"#), "\(run)")
    }
}
