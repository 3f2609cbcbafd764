import EventModel
import OpenAVT
import Replay
import ReplayTestSupport
import Testing

/// A tracker whose first record comes after its instrument's first behaves as if the app had
/// added it before `ready()`: it has the ad break and ad flags `OAVTHubCoreAds` sets on every
/// tracker of the instrument at once (`setInAdBreakState` and `setInAdState` go over
/// `getTrackers()`, OAVTHubCoreAds.swift lines 99-115 at 2628ccd), in one run and across a
/// nightly run's state wherever the night ends.
struct LateTrackerTests {
    /// Server-side ads: the content tracker (0) opens the ad break, and the ads tracker's (1)
    /// first record is its `AdBegin`.
    static let adBreakOpenedByTheContent = [
        avt(1_000, "MediaRequest", attributes: ["isAdsTracker": false]),
        avt(1_100, "StreamLoad", attributes: ["isAdsTracker": false]),
        avt(1_500, "Start", attributes: ["isAdsTracker": false]),
        avt(10_000, "AdBreakBegin", attributes: ["isAdsTracker": false]),
        avt(10_000, "AdBegin", tracker: 1, attributes: ["isAdsTracker": true]),
        avt(25_000, "AdFinish", tracker: 1, attributes: ["isAdsTracker": true]),
        avt(25_000, "AdBreakFinish", attributes: ["isAdsTracker": false]),
        avt(30_000, "End", attributes: ["isAdsTracker": false]),
    ]

    /// The ads tracker (0) logs a pre-roll break; the content tracker's (1) first record comes
    /// inside it, and the content starts and ends there before ending again after the break.
    static let contentInsideAPreRoll = [
        avt(1_000, "AdBreakBegin", attributes: ["isAdsTracker": true]),
        avt(1_000, "AdBegin", attributes: ["isAdsTracker": true]),
        avt(1_100, "MediaRequest", tracker: 1, attributes: ["isAdsTracker": false]),
        avt(1_200, "StreamLoad", tracker: 1, attributes: ["isAdsTracker": false]),
        avt(1_300, "Start", tracker: 1, attributes: ["isAdsTracker": false]),
        avt(1_400, "End", tracker: 1, attributes: ["isAdsTracker": false]),
        avt(6_000, "AdFinish", attributes: ["isAdsTracker": true]),
        avt(6_000, "AdBreakFinish", attributes: ["isAdsTracker": true]),
        avt(9_000, "End", tracker: 1, attributes: ["isAdsTracker": false]),
    ]

    @Test func anAdsTrackersFirstAdInsideTheContentsBreakIsAccepted() {
        let result = replay(Self.adBreakOpenedByTheContent, trace: true, rejected: true)
        Self.expectTheAdAccepted(result.playbacks, result.avtTrace)
    }

    @Test func contentEventsInsideAPreRollAreInTheBreakAndTheAd() {
        let result = replay(Self.contentInsideAPreRoll, trace: true, rejected: true)
        Self.expectTheContentInTheBreak(result.playbacks, result.avtTrace)
    }

    /// A night that ends before the late tracker's first record, or after it, gives the rows
    /// and trace of one run.
    @Test func aNightlyCutBeforeOrAfterTheLateTrackerChangesNothing() throws {
        for cut in 1..<Self.adBreakOpenedByTheContent.count {
            let (playbacks, trace) = try Self.replayed(Self.adBreakOpenedByTheContent, cutAt: cut)
            Self.expectTheAdAccepted(playbacks, trace, "cut \(cut)")
        }
        for cut in 1..<Self.contentInsideAPreRoll.count {
            let (playbacks, trace) = try Self.replayed(Self.contentInsideAPreRoll, cutAt: cut)
            Self.expectTheContentInTheBreak(playbacks, trace, "cut \(cut)")
        }
    }

    /// The ads tracker had the in-ad-break flag the content's `AdBreakBegin` set on every tracker
    /// (OAVTHubCoreAds.swift lines 18-24), so its `AdBegin` is accepted (`!inAd && inAdBreak`,
    /// lines 34-42: `countAds` 1) and its `AdFinish` too. The ad's events, from a tracker that
    /// never started, carry no `deltaPlayTime`, and the content's next event counts from the
    /// `AdFinish`, the last accepted event (OAVTHubCore.swift lines 44-46 and 54): play time is
    /// 8,500 ms before the break, 0 at its end, 5,000 ms after it, the 15 s ad excluded.
    static func expectTheAdAccepted(
        _ playbacks: [PlaybackSummary], _ trace: [TraceEntry], _ comment: Comment? = nil
    ) {
        #expect(trace.map(\.rejection) == Array(repeating: nil, count: 8), comment)
        #expect(playbacks.count == 1, comment)
        #expect(playbacks.first?.ads == 1, comment)
        #expect(playbacks.first?.playTime == 13_500, comment)
        #expect(playbacks.first?.endAction == "End", comment)
    }

    /// The content tracker had both flags the pre-roll set on every tracker, so its events
    /// carry `inAdBreakBlock` and `inAdBlock` true until the ad and the break finish
    /// (OAVTHubCoreAds.swift lines 76-77), and its `End` inside the break is rejected (lines
    /// 53-57). Its playback goes on to the `End` after the break, 3,000 ms after the last
    /// accepted event (the `AdBreakFinish`): its play time.
    static func expectTheContentInTheBreak(
        _ playbacks: [PlaybackSummary], _ trace: [TraceEntry], _ comment: Comment? = nil
    ) {
        let content = trace.filter { $0.tracker == 1 }
        #expect(
            content.map { "\($0.event.action.name):\($0.rejection ?? "ok")" } == [
                "MediaRequest:ok", "StreamLoad:ok", "Start:ok", "End:End inside an ad break", "End:ok",
            ], comment)
        let accepted = content.filter { $0.rejection == nil }
        #expect(
            accepted.map { $0.event.flag(.inAdBreakBlock) } == [true, true, true, false], comment)
        #expect(
            accepted.map { $0.event.flag(.inAdBlock) } == [true, true, true, false], comment)
        #expect(playbacks.count == 1, comment)
        #expect(playbacks.first?.tracker == 1, comment)
        #expect(playbacks.first?.lastTimestamp == Timestamp(milliseconds: 9_000), comment)
        #expect(playbacks.first?.playTime == 3_000, comment)
    }

    /// Replays `records` as two nightly runs, the first ending before `records[cut]`: its open
    /// lives saved as a state file keeps them and restored into the second (as
    /// `StreamingTests.resumingFromTheOpenLivesStateGivesTheSameRows` does).
    static func replayed(_ records: [AVTRecord], cutAt cut: Int) throws -> ([PlaybackSummary], [TraceEntry]) {
        let options = ReplayOptions(includeTrace: true, includeRejected: true)
        var reports: [SessionReport] = []
        var firstRun = ReplayEngine(options: options)
        for (index, record) in records[..<cut].enumerated() {
            if case .replayed(let due) = firstRun.add(.avt(record), at: SourcePosition(fileRank: 0, line: index + 1)) {
                reports += due
            }
        }
        firstRun.handOverPending { reports.append($0) }
        var secondRun = ReplayEngine(options: options)
        var decoder = StateDecoder()
        decoder.userInfo[ReplayEngine.RestoredLife.contextKey] = secondRun.restoringContext
        for life in firstRun.openLives {
            var bytes: [UInt8] = []
            try StateEncoder().encode(life, into: &bytes)
            secondRun.restore(
                try bytes.withUnsafeBytes { try decoder.decode(ReplayEngine.RestoredLife.self, from: $0) })
        }
        secondRun.resume(frontier: firstRun.frontier)
        for (index, record) in records[cut...].enumerated() {
            if case .replayed(let due) = secondRun.add(.avt(record), at: SourcePosition(fileRank: 1, line: index + 1)) {
                reports += due
            }
        }
        reports += secondRun.finish()
        let trace = reports.flatMap(\.trace).compactMap { line -> TraceEntry? in
            if case .avt(let entry) = line { return entry }
            return nil
        }
        return (reports.flatMap(\.playbacks), trace)
    }
}
