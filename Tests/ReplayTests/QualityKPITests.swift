import EventModel
import Replay
import ReplayTestSupport
import Testing

/// Average bitrate, upscale and downscale time, and initial vs mid-stream errors, on hand-built
/// logs with known answers.
struct QualityKPITests {
    private func record(
        _ time: Int64, _ action: String, _ instrument: String = "i", bitrate: AttributeValue? = nil
    ) -> AVTRecord {
        AVTRecord(
            timestamp: Timestamp(milliseconds: time), instrument: instrument, tracker: 0, action: action,
            attributes: bitrate.map { [.bitrate: $0] } ?? [:])
    }

    private func replay(_ records: [AVTRecord]) -> (playbacks: [PlaybackSummary], all: KPIs?) {
        let reports = CollectedReplay(lines: records.map(Record.avt)).reports
        var summary = KPISummary(bucket: 3_600_000)
        for report in reports { summary.add(report) }
        return (reports.flatMap(\.playbacks), summary.rows.last?.kpis)
    }

    @Test func bitrateIsWeightedByPlayTimeAndPausesAndBufferingDoNotCount() throws {
        let (playbacks, all) = replay([
            record(0, "MediaRequest"), record(1_000, "Start", bitrate: 1_000_000),
            record(11_000, "Ping"),
            record(21_000, "QualityChangeUp", bitrate: 3_000_000),
            record(31_000, "PauseBegin"), record(41_000, "PauseFinish"),
            record(51_000, "QualityChangeDown", bitrate: 500_000),
            record(61_000, "BufferBegin"), record(63_000, "BufferFinish"),
            record(73_000, "End"),
        ])
        let playback = try #require(playbacks.first)
        // 20 s at each of 1, 3 and 0.5 Mb/s; the 10 s pause and the 2 s rebuffer are not played.
        #expect(playback.playTime == 60_000)
        #expect(playback.bitrateTime == 60_000)
        #expect(playback.bitMilliseconds == 90_000_000_000)
        #expect(playback.initialBitrate == 1_000_000)
        #expect(playback.upscaleTime == 20_000)
        #expect(playback.downscaleTime == 20_000)
        #expect(all?.bitMilliseconds == 90_000_000_000)
        #expect(all?.bitrateTime == 60_000)
    }

    @Test func playTimeWithoutAKnownBitrateIsLeftOut() throws {
        let (playbacks, _) = replay([
            record(0, "MediaRequest", "zero"), record(1_000, "Start", "zero", bitrate: 0),
            record(11_000, "Ping", "zero"),
            record(21_000, "QualityChangeUp", "zero", bitrate: 2_000_000),
            record(31_000, "Ping", "zero"),
            record(41_000, "QualityChangeDown", "zero", bitrate: 0),
            record(51_000, "End", "zero"),
            record(0, "MediaRequest", "none"), record(1_000, "Start", "none"), record(9_000, "End", "none"),
            record(0, "MediaRequest", "text"), record(1_000, "Start", "text", bitrate: "fast"),
            record(9_000, "End", "text"),
        ])
        let byInstrument = Dictionary(uniqueKeysWithValues: playbacks.map { ($0.instrument, $0) })
        // A bitrate of 0 is unknown: only the 20 s at 2 Mb/s count, and 2 Mb/s is the initial one.
        let zero = try #require(byInstrument["zero"])
        #expect(zero.playTime == 50_000)
        #expect(zero.bitrateTime == 20_000)
        #expect(zero.bitMilliseconds == 40_000_000_000)
        #expect(zero.initialBitrate == 2_000_000)
        #expect(zero.upscaleTime == 0 && zero.downscaleTime == 0)
        for instrument in ["none", "text"] {
            let playback = try #require(byInstrument[instrument])
            #expect(playback.playTime == 8_000)
            #expect(playback.bitrateTime == 0)
            #expect(playback.initialBitrate == nil)
        }
    }

    @Test func anErrorBeforeStartOrWithinASecondOfItIsInitial() throws {
        let (playbacks, all) = replay([
            record(0, "MediaRequest", "a"), record(500, "Error", "a"),
            record(0, "MediaRequest", "b"), record(1_000, "Start", "b"), record(2_000, "Error", "b"),
            record(2_001, "Error", "b"),
            // The second playback's error comes 59.5 s after the first playback's Start, but
            // before its own: initial.
            record(0, "MediaRequest", "c"), record(1_000, "Start", "c"), record(60_000, "End", "c"),
            record(60_500, "Error", "c"),
        ])
        // Rows come out as they end: c's first playback at its End, the others as the input ends.
        #expect(playbacks.map(\.instrument) == ["c", "a", "b", "c"])
        #expect(playbacks.map(\.initialErrors) == [0, 1, 1, 1])
        #expect(playbacks.map(\.midstreamErrors) == [0, 0, 1, 0])
        #expect(playbacks.map(\.errors) == [0, 1, 2, 1])
        #expect(all?.initialErrors == 3)
        #expect(all?.midstreamErrors == 1)
        #expect(all?.startFailures == 2)
        #expect(all?.playbackFailures == 1)
    }
}
