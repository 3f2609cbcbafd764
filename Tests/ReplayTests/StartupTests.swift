import EventModel
import Replay
import ReplayTestSupport
import Testing

/// `startup_ms` beside OpenAVT's `start_time_ms`, the startup and rebuffer-ratio bins, and the
/// rates of `summary.csv`, on hand-built logs with known answers.
struct StartupTests {
    private func record(_ time: Int64, _ action: String, tracker: Int = 0) -> AVTRecord {
        AVTRecord(timestamp: Timestamp(milliseconds: time), instrument: "i", tracker: tracker, action: action)
    }

    private func replay(_ records: [AVTRecord]) -> (playbacks: [PlaybackSummary], all: KPIs) {
        let reports = CollectedReplay(lines: records.map(Record.avt)).reports
        var summary = KPISummary(bucket: 3_600_000)
        for report in reports { summary.add(report) }
        return (reports.flatMap(\.playbacks), summary.rows.last?.kpis ?? KPIs())
    }

    @Test func aSecondPlaybackIsMeasuredFromItsOwnRequestThoughTheHubRejectsIt() throws {
        let (playbacks, all) = replay([
            record(0, "MediaRequest"), record(2_000, "Start"), record(60_000, "End"),
            // The hub rejects this request (one per tracker), but it is the second playback's.
            record(600_000, "MediaRequest"), record(601_500, "Start"), record(700_000, "End"),
        ])
        #expect(playbacks.count == 2)
        #expect(playbacks.map(\.startTime) == [2_000, 601_500])
        #expect(playbacks.map(\.startup) == [2_000, 1_500])
        #expect(all.startupCount == 2)
        #expect(all.startupSum == 3_500)
        // The sketch keeps two significant digits: within 1 %.
        #expect(all.startupPercentile(50).map { abs($0 - 1_500) <= 15 } == true)
    }

    @Test func withoutARequestTheStartupRunsFromThePlaybacksFirstEvent() throws {
        let (playbacks, _) = replay([
            record(0, "MediaRequest"), record(1_000, "Start"), record(5_000, "End"),
            // No request for the second playback: measured from its first accepted event.
            record(100_000, "BufferBegin"), record(103_000, "BufferFinish"), record(103_250, "Start"),
            record(200_000, "End"),
        ])
        #expect(playbacks.map(\.startup) == [1_000, 3_250])
    }

    @Test func aRequestDuringAPlaybackDoesNotCountForTheNext() throws {
        let (playbacks, _) = replay([
            record(0, "MediaRequest"), record(1_000, "Start"),
            // A request while playing (rejected) is forgotten at the End: the next playback is
            // measured from its first event, the PlayerSet.
            record(2_000, "MediaRequest"), record(5_000, "End"),
            record(10_000, "PlayerSet"), record(10_400, "Start"), record(20_000, "End"),
        ])
        #expect(playbacks.map(\.startup) == [1_000, 400])
    }

    @Test func aPlaybackThatNeverStartedHasNoStartup() throws {
        let (playbacks, all) = replay([record(0, "MediaRequest"), record(4_000, "StreamLoad")])
        #expect(playbacks.map(\.startup) == [nil])
        #expect(all.startupCount == 0)
        #expect(all.startupBins.allSatisfy { $0 == 0 })
    }

    @Test func startupsFallInDoublingBins() {
        // One play per startup, each on a tracker of its own so that each has its own request.
        let startups: [Int64] = [0, 249, 250, 999, 1_000, 31_999, 32_000, 900_000]
        var records: [AVTRecord] = []
        for (tracker, startup) in startups.enumerated() {
            let base = Int64(tracker) * 10_000_000
            records += [
                record(base, "MediaRequest", tracker: tracker), record(base + startup, "Start", tracker: tracker),
                record(base + startup + 1_000, "End", tracker: tracker),
            ]
        }
        let (playbacks, all) = replay(records)
        #expect(playbacks.compactMap(\.startup) == startups)
        // Edges 250, 500, 1 000, 2 000, 4 000, 8 000, 16 000, 32 000 ms.
        #expect(all.startupBins == [2, 1, 1, 1, 0, 0, 0, 1, 2])
    }

    @Test func rebufferRatiosFallInBinsOfBasisPoints() {
        // Watch 100 s with 0, 0.5 % (exactly on an edge) and 25 % rebuffering.
        func play(_ tracker: Int, rebuffer: Int64) -> [AVTRecord] {
            let base = Int64(tracker) * 10_000_000
            var records = [
                record(base, "MediaRequest", tracker: tracker), record(base + 1_000, "Start", tracker: tracker),
            ]
            if rebuffer > 0 {
                records += [
                    record(base + 2_000, "BufferBegin", tracker: tracker),
                    record(base + 2_000 + rebuffer, "BufferFinish", tracker: tracker),
                ]
            }
            records.append(record(base + 101_000, "End", tracker: tracker))
            return records
        }
        let (playbacks, all) = replay(play(0, rebuffer: 0) + play(1, rebuffer: 500) + play(2, rebuffer: 25_000))
        #expect(playbacks.map(\.rebufferTime) == [0, 500, 25_000])
        #expect(playbacks.map { $0.playTime + $0.rebufferTime } == [100_000, 100_000, 100_000])
        // Edges 0.01 %, 0.5 %, 1 %, 2 %, 5 %, 10 %, 20 %.
        #expect(all.rebufferBins == [1, 0, 1, 0, 0, 0, 0, 1])
    }
}
