import EventModel
import OpenAVT
import Replay
import Testing

/// aggregates.csv's numbers on hand-built metric points with known answers.
struct MetricAggregatesTests {
    private func report(_ system: MetricSystem, _ points: [(name: String, time: Int64, value: Metric.Value)])
        -> SessionReport
    {
        var report = SessionReport(key: SessionKey(system: system, id: "s"), closing: .inputEnd)
        report.points = points.map { point in
            MetricPoint(
                system: system, source: "s", tags: [], path: [],
                metric: Metric(
                    name: point.name, kind: .gauge, value: point.value,
                    timestamp: Timestamp(milliseconds: point.time)))
        }
        return report
    }

    @Test func countSumMinMaxAndSquaresGiveMeanAndStandardDeviation() throws {
        var aggregates = MetricAggregates(bucket: 60_000)
        aggregates.add(report(.openavt, [("StartTime", 1_000, .int(2)), ("StartTime", 2_000, .int(4))]))
        aggregates.add(report(.openavt, [("StartTime", 3_000, .double(9)), ("StartTime", 4_000, .double(.nan))]))
        let row = try #require(aggregates.rows.first)
        #expect(aggregates.rows.count == 1)
        #expect(row.aggregate.count == 3)
        #expect(row.aggregate.sum == 15)
        #expect(row.aggregate.minimum == 2)
        #expect(row.aggregate.maximum == 9)
        #expect(row.aggregate.sumOfSquares == 101)
        #expect(row.aggregate.mean == 5)
        // Population variance: 101 / 3 - 25 = 26 / 3.
        #expect(abs((row.aggregate.standardDeviation ?? 0) - (26.0 / 3).squareRoot()) < 1e-12)
    }

    @Test func systemsAreOrderedAsDeclaredAndKeptApart() {
        #expect(MetricSystem.allCases.reversed().sorted() == [.openavt, .vp, .marconi])
        #expect(Set(MetricSystem.allCases).count == 3)
        #expect(MetricSystem(rawValue: "vp") == .vp && MetricSystem.vp != .marconi)
        var aggregates = MetricAggregates(bucket: 60_000)
        for system in MetricSystem.allCases.reversed() { aggregates.add(report(system, [("Count", 1_000, .int(1))])) }
        #expect(aggregates.rows.map(\.key.system) == [.openavt, .vp, .marconi])
    }

    @Test func rowKeysAreKeptApartAndEqualOnesFound() {
        typealias Key = MetricAggregates.Key
        let keys = [
            Key(bucket: 0, group: ["a", "bc"], system: .openavt, name: "PlayTime"),
            Key(bucket: 0, group: ["ab", "c"], system: .openavt, name: "PlayTime"),
            Key(bucket: 0, group: ["abc"], system: .openavt, name: "PlayTime"),
            Key(bucket: 60_000, group: ["a", "bc"], system: .openavt, name: "PlayTime"),
            Key(bucket: 0, group: ["a", "bc"], system: .vp, name: "PlayTime"),
            Key(bucket: 0, group: ["a", "bc"], system: .openavt, name: "PlayTimé"),
            Key(bucket: 0, group: [], system: .openavt, name: "PlayTime"),
        ]
        var table: [Key: Int] = [:]
        for (index, key) in keys.enumerated() { table[key] = index }
        #expect(table.count == keys.count)
        for (index, key) in keys.enumerated() {
            let copy = { (text: String) in String(decoding: Array(text.utf8), as: UTF8.self) }
            let again = Key(bucket: key.bucket, group: key.group.map(copy), system: key.system, name: copy(key.name))
            #expect(table[again] == index)
        }
    }

    @Test func rowsAreOrderedByBucketThenSystemThenName() {
        var aggregates = MetricAggregates(bucket: 60_000)
        aggregates.add(report(.marconi, [("Listened", 61_000, .int(1)), ("Buffered", 5_000, .int(1))]))
        aggregates.add(report(.openavt, [("StartTime", 59_999, .int(1)), ("BufferTime", -1, .int(1))]))
        let keys = aggregates.rows.map { "\($0.key.bucket.milliseconds) \($0.key.system.rawValue) \($0.key.name)" }
        #expect(
            keys == [
                "-60000 openavt BufferTime", "0 openavt StartTime", "0 marconi Buffered", "60000 marconi Listened",
            ])
    }
}
