import EventModel
import Replay
import Testing

/// The ranking of report.html's worst playbacks.
struct WorstPlaybacksTests {
    private func playback(
        _ id: String, at time: Int64 = 0, errors: Int64 = 0, rebufferTime: Int64 = 0, playTime: Int64 = 60_000
    ) -> PlaybackSummary {
        var playback = PlaybackSummary(
            instrument: "i", tracker: 0, playbackID: id, firstTimestamp: Timestamp(milliseconds: time))
        playback.errors = errors
        playback.rebufferTime = rebufferTime
        playback.playTime = playTime
        return playback
    }

    private func ranked(_ playbacks: [PlaybackSummary], limit: Int = 10) -> [String] {
        var worst = WorstPlaybacks(limit: limit)
        var report = SessionReport(key: SessionKey(system: .openavt, id: "i"), closing: .inputEnd)
        report.playbacks = playbacks
        worst.add(report)
        return worst.ranked.map(\.playbackID)
    }

    /// Each one ranks before the next by exactly one rule of the ranking.
    private var inRankOrder: [PlaybackSummary] {
        [
            playback("two-errors", errors: 2),
            playback("error-and-rebuffer", errors: 1, rebufferTime: 500),
            playback("error", errors: 1),
            playback("long-rebuffer", rebufferTime: 9_000),
            playback("rebuffer-short-watch", rebufferTime: 3_000, playTime: 1_000),
            playback("rebuffer-early", at: 10, rebufferTime: 3_000),
            playback("rebuffer-late-a", at: 20, rebufferTime: 3_000),
            playback("rebuffer-late-b", at: 20, rebufferTime: 3_000),
        ]
    }

    @Test func errorsThenRebufferTimeThenPercentageThenStartThenID() {
        let expected = inRankOrder.map(\.playbackID)
        #expect(ranked(inRankOrder.reversed()) == expected)
        #expect(ranked([4, 0, 7, 2, 6, 1, 5, 3].map { inRankOrder[$0] }) == expected)
    }

    @Test func playbacksWithoutErrorOrRebufferTimeAreNotListed() {
        var rebufferCountOnly = playback("rebuffer-count-only")
        rebufferCountOnly.rebuffers = 1
        #expect(ranked([playback("fine"), rebufferCountOnly, playback("error", errors: 1)]) == ["error"])
    }

    @Test func onlyTheLimitIsKeptWhateverTheOrderTheyCome() {
        let expected = Array(inRankOrder.map(\.playbackID).prefix(3))
        #expect(ranked(inRankOrder, limit: 3) == expected)
        #expect(ranked(inRankOrder.reversed(), limit: 3) == expected)
        // Sessions closing one by one give the same as all at once.
        var worst = WorstPlaybacks(limit: 3)
        for playback in inRankOrder.reversed() {
            var report = SessionReport(key: SessionKey(system: .openavt, id: "i"), closing: .inputEnd)
            report.playbacks = [playback]
            worst.add(report)
        }
        #expect(worst.ranked.map(\.playbackID) == expected)
        #expect(ranked(inRankOrder, limit: 0).isEmpty)
    }
}
