import EventModel
import Foundation
import OpenAVT
import Replay
import ReplayTestSupport
import Testing

/// Summaries and aggregates merged from their stored state are those of all the sessions.
struct MergeableSummaryTests {
    @Test func anExactSumDoesNotDependOnTheOrder() {
        let values = [1e16, 1, 1, 0.1, -3.5, 0.2, 1e-3, 7]
        var sums: Set<Double> = []
        for rotation in 0..<values.count {
            var sum = ExactSum()
            for value in values[rotation...] + values[..<rotation] { sum.add(value) }
            sums.insert(sum.value)
        }
        #expect(sums.count == 1)
        // A plain += loses both ones: 1e16 + 1 rounds back to 1e16.
        var plain = 0.0
        for value in [1e16, 1, 1] { plain += value }
        var exact = ExactSum()
        for value in [1e16, 1, 1] { exact.add(value) }
        #expect(plain == 1e16)
        #expect(exact.value == 1e16 + 2)
    }

    @Test func anExactSumOfSmallIntegersIsThePlainSum() {
        var exact = ExactSum()
        var plain = 0.0
        for value in stride(from: -500.0, through: 4_000, by: 37) {
            exact.add(value)
            plain += value
        }
        #expect(exact.value == plain)
        #expect(ExactSum().value == 0)
    }

    private func record(_ time: Int64, _ action: String, _ instrument: String) -> Record {
        .avt(AVTRecord(timestamp: Timestamp(milliseconds: time), instrument: instrument, tracker: 0, action: action))
    }

    /// Playbacks with start times from 0 ms to minutes, across three buckets, overlapping.
    private func reports() -> [SessionReport] {
        var records: [Record] = []
        for index in 0..<40 {
            let start = Int64(index) * 150_000
            let instrument = "i\(index)"
            records.append(record(start, "MediaRequest", instrument))
            records.append(record(start + Int64(index * index * 97 % 200_000), "Start", instrument))
            records.append(record(start + 400_000, "End", instrument))
        }
        return CollectedReplay(lines: records.sorted { $0.timestamp < $1.timestamp }).reports
    }

    private func roundTrip<State: Codable>(_ state: State) throws -> State {
        try JSONDecoder().decode(State.self, from: JSONEncoder().encode(state))
    }

    private func describe(_ summary: KPISummary) -> [String] {
        summary.rows.map { row in
            let kpis = row.kpis
            let percentiles = [50.0, 90, 95, 99].map { kpis.startupPercentile($0).map(String.init) ?? "-" }
            return [
                row.bucket.map { String($0.milliseconds) } ?? "all", row.group.joined(separator: "|"),
                "\(kpis.views)", "\(kpis.plays)", "\(kpis.startupSum)", "\(kpis.watchTime)", "\(row.peakConcurrent)",
            ].joined(separator: ",") + "," + percentiles.joined(separator: ",")
        }
    }

    @Test(arguments: [GroupBy.none, GroupBy(["system"]), GroupBy(["instrument"])])
    func aSummaryMergedFromStoredStatesIsTheWholeSummary(groupBy: GroupBy) throws {
        let reports = reports()
        var whole = KPISummary(bucket: 3_600_000, groupBy: groupBy)
        var parts = [KPISummary](repeating: KPISummary(bucket: 3_600_000, groupBy: groupBy), count: 3)
        for (index, report) in reports.enumerated() {
            whole.add(report)
            parts[index * 7 % 3].add(report)
        }
        var merged = KPISummary(bucket: 3_600_000, groupBy: groupBy)
        for part in parts { merged.merge(try KPISummary(state: roundTrip(part.state))) }
        #expect(describe(merged) == describe(whole))
        // Playbacks overlap, but with a group per instrument one at a time.
        #expect(whole.rows.contains { $0.peakConcurrent > 1 } == (groupBy.keys != ["instrument"]))
        #expect(whole.rows.count >= 3)
    }

    @Test func aggregatesMergedFromStoredStatesAreTheWholeAggregates() throws {
        let reports = reports()
        var whole = MetricAggregates(bucket: 3_600_000)
        var parts = [MetricAggregates](repeating: MetricAggregates(bucket: 3_600_000), count: 2)
        for (index, report) in reports.enumerated() {
            whole.add(report)
            parts[index % 2].add(report)
        }
        var merged = MetricAggregates(bucket: 3_600_000)
        for part in parts { merged.merge(try MetricAggregates(state: roundTrip(part.state))) }
        func describe(_ aggregates: MetricAggregates) -> [String] {
            aggregates.rows.map { key, value in
                "\(key.bucket.milliseconds) \(key.name) \(value.count) \(value.sum) \(value.sumOfSquares) \(value.minimum) \(value.maximum)"
            }
        }
        #expect(describe(merged) == describe(whole))
        #expect(!whole.rows.isEmpty)
    }

    @Test func aStateThatNoRunCouldWriteIsRefused() throws {
        var summary = KPISummary(bucket: 3_600_000, groupBy: GroupBy(["title"]))
        for report in reports() { summary.add(report) }
        var state = summary.state
        #expect(throws: Never.self) { try KPISummary(state: state) }
        state.groups[0].values = ["a", "b"]
        #expect(throws: StateError.self) { try KPISummary(state: state) }
        state.groups[0].values = [""]
        state.groups[0].playbackSpans.removeLast()
        #expect(throws: StateError.self) { try KPISummary(state: state) }
        state.bucket = 5
        #expect(throws: StateError.self) { try KPISummary(state: state) }
    }
}
