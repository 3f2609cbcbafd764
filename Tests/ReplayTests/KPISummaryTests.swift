import EventModel
import Replay
import ReplayTestSupport
import Testing

/// The KPIs of summary.csv on hand-built logs with known answers.
struct KPISummaryTests {
    private func summary(_ records: [AVTRecord], bucket: Int64 = 3_600_000) -> KPISummary {
        var summary = KPISummary(bucket: bucket)
        for report in CollectedReplay(lines: records.map(Record.avt)).reports { summary.add(report) }
        return summary
    }

    private func record(_ time: Int64, _ action: String, _ instrument: String = "i") -> AVTRecord {
        AVTRecord(timestamp: Timestamp(milliseconds: time), instrument: instrument, tracker: 0, action: action)
    }

    @Test func seekAndPauseBufferingIsNotRebufferingAndInitialBufferingIsStartup() {
        let kpis = summary([
            record(0, "MediaRequest"), record(100, "StreamLoad"), record(200, "BufferBegin"),
            record(1_200, "BufferFinish"), record(1_500, "Start"),
            record(10_000, "PauseBegin"), record(11_000, "BufferBegin"), record(12_000, "BufferFinish"),
            record(20_000, "PauseFinish"),
            record(30_000, "SeekBegin"), record(30_100, "BufferBegin"), record(31_100, "BufferFinish"),
            record(31_200, "SeekFinish"),
            record(40_000, "BufferBegin"), record(42_000, "BufferFinish"),
            record(60_000, "End"),
        ]).rows.last?.kpis
        #expect(kpis?.plays == 1)
        #expect(kpis?.startupSum == 1_500)
        #expect(kpis?.rebuffers == 1)
        #expect(kpis?.rebufferTime == 2_000)
        // All buffering counts in buffers and buffer time: initial (1 s), in the pause (1 s),
        // in the seek (1 s) and the rebuffer (2 s).
        #expect(kpis?.buffers == 4)
        #expect(kpis?.bufferTime == 5_000)
        #expect(kpis?.endedWithoutErrors == 1)
        // Play time excludes the pause (10 s) and the seek (1.2 s) and the rebuffer (2 s).
        #expect(kpis?.watchTime == Int64(47_300))
    }

    @Test func anErrorBeforeStartIsAStartFailureNotAnExit() {
        let kpis = summary([
            record(0, "MediaRequest", "a"), record(500, "Error", "a"),
            record(0, "MediaRequest", "b"), record(700, "Stop", "b"),
            record(0, "MediaRequest", "c"), record(900, "Start", "c"), record(5_000, "Error", "c"),
        ]).rows.last?.kpis
        #expect(kpis?.views == 3)
        #expect(kpis?.startFailures == 1)
        #expect(kpis?.exitsBeforeStart == 1)
        #expect(kpis?.plays == 1)
        #expect(kpis?.playbackFailures == 1)
        // b stopped without starting: Stop is rejected, so no playback ended.
        #expect(kpis?.endedWithoutErrors == 0)
    }

    @Test func playbacksGoToTheBucketOfTheirFirstRecord() {
        let rows = summary(
            [
                record(3_599_000, "MediaRequest", "a"), record(3_601_000, "Start", "a"),
                record(3_700_000, "MediaRequest", "b"), record(3_702_000, "Start", "b"),
            ]
        ).rows
        #expect(rows.map { $0.bucket?.milliseconds } == [0, 3_600_000, nil])
        #expect(rows.map(\.kpis.views) == [1, 1, 2])
        #expect(rows.last?.kpis.startupPercentile(50) == 2_000)
    }

    @Test func peakConcurrencyCountsPlaybacksCarriedOverFromAnEarlierBucket() {
        let rows = summary([
            record(0, "MediaRequest", "a"), record(1_000, "Start", "a"), record(10_000, "End", "a"),
            record(5_000, "MediaRequest", "b"), record(6_000, "Start", "b"),
            // Within the 30-minute session timeout of each other.
            record(1_700_000, "PauseBegin", "b"), record(3_000_000, "PauseFinish", "b"), record(3_700_000, "End", "b"),
            record(8_000, "MediaRequest", "d"), record(8_500, "Start", "d"), record(9_000, "End", "d"),
            record(3_650_000, "MediaRequest", "c"), record(3_651_000, "Start", "c"), record(3_660_000, "End", "c"),
        ]).rows
        #expect(rows.map { $0.bucket?.milliseconds } == [0, 3_600_000, nil])
        // a, b and d overlap from 8 s to 9 s; b, begun in the first hour, overlaps c in the second.
        #expect(rows.map(\.peakConcurrent) == [3, 2, 3])
    }

    /// A playback whose row is in a bucket already written still counts in the peak of an open
    /// bucket it lasts into, when the next run writes that bucket whole (``KPISummary/carried(from:)``).
    @Test func theOpenBucketsKeepThePeakOfPlaybacksBegunBefore() throws {
        let before = [
            record(0, "MediaRequest", "a"), record(1_000, "Start", "a"),
            record(1_700_000, "PauseBegin", "a"), record(3_000_000, "PauseFinish", "a"), record(3_650_000, "End", "a"),
        ]
        let after = [
            record(3_640_000, "MediaRequest", "c"), record(3_641_000, "Start", "c"), record(3_660_000, "End", "c"),
        ]
        var next = try #require(summary(before).carried(from: Timestamp(milliseconds: 3_620_000)))
        next.merge(summary(after))
        #expect(next.rows.map { $0.bucket?.milliseconds } == [3_600_000, nil])
        #expect(next.rows.map(\.peakConcurrent) == [2, 2])
        #expect(summary(before + after).rows.map(\.peakConcurrent) == [1, 2, 2])
    }

    @Test func aSummaryWithoutSpansKeepsTheKPIsButNoPeak() {
        let records = [
            record(0, "MediaRequest", "a"), record(1_000, "Start", "a"), record(10_000, "End", "a"),
            record(5_000, "MediaRequest", "b"), record(6_000, "Start", "b"), record(20_000, "End", "b"),
        ]
        var spanless = KPISummary(bucket: 3_600_000, keepsPlaybackSpans: false)
        for report in CollectedReplay(lines: records.map(Record.avt)).reports { spanless.add(report) }
        let full = summary(records)
        #expect(spanless.rows.map(\.kpis.views) == full.rows.map(\.kpis.views))
        #expect(spanless.rows.map(\.kpis.startupSum) == full.rows.map(\.kpis.startupSum))
        #expect(full.rows.map(\.peakConcurrent) == [2, 2])
        #expect(spanless.rows.map(\.peakConcurrent) == [0, 0])
        #expect(spanless.state.groups.allSatisfy { $0.playbackSpans.isEmpty })
        // Merged into, it keeps none either.
        spanless.merge(full)
        #expect(spanless.state.groups.allSatisfy { $0.playbackSpans.isEmpty })
        #expect(spanless.rows.last?.kpis.views == 4)
    }

    @Test func percentilesComeFromASketchWithinOnePercent() {
        var records: [AVTRecord] = []
        for index in 0..<200 {
            let start = Int64(index) * 10_000
            records += [
                record(start, "MediaRequest", "i\(index)"),
                record(start + 1_000 + Int64(index) * 37, "Start", "i\(index)"),
            ]
        }
        let kpis = summary(records, bucket: 86_400_000).rows.last?.kpis
        let exact50 = 1_000 + 99 * 37
        let exact95 = 1_000 + 189 * 37
        #expect(abs(Double(kpis?.startupPercentile(50) ?? 0) - Double(exact50)) <= Double(exact50) * 0.01)
        #expect(abs(Double(kpis?.startupPercentile(95) ?? 0) - Double(exact95)) <= Double(exact95) * 0.01)
        #expect(KPIs().startupPercentile(50) == nil)
    }
}

/// The value-proposition KPIs: completion rate and time to start.
struct ValuePropositionKPITests {
    private func vp(_ time: Int64, _ name: String, _ action: VPAction) -> Record {
        .vp(VPRecord(timestamp: Timestamp(milliseconds: time), app: "a", name: name, action: action))
    }

    @Test func completionRateAndTimeToStartCountTheSessionsThatGotThere() throws {
        // "one" starts after 1 s and completes; "two" starts after 4 s and is canceled;
        // "three" never starts.
        let records = [
            vp(0, "one", .open), vp(1_000, "one", .start), vp(2_000, "two", .open), vp(5_000, "one", .complete),
            vp(6_000, "two", .start), vp(7_000, "three", .open), vp(8_000, "two", .cancel),
        ]
        var summary = KPISummary(bucket: 3_600_000)
        for report in CollectedReplay(lines: records).reports { summary.add(report) }
        let all = try #require(summary.rows.last?.kpis)
        #expect(all.vpSessions == 3)
        #expect(all.vpCompleted == 1)
        #expect(all.vpStarted == 2)
        #expect(all.vpTimeToStartSum == 5_000)
        var merged = KPIs()
        merged.merge(all)
        merged.merge(all)
        #expect(merged.vpStarted == 4)
        #expect(merged.vpTimeToStartSum == 10_000)
    }
}
