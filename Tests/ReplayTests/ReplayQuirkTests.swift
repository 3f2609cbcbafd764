import EventModel
import OpenAVT
import Replay
import ReplayTestSupport
import Testing

/// The OpenAVT quirks the event-log contract says replay keeps, each pinned through the replay engine.
struct ReplayQuirkTests {
    @Test func aSecondPlaybackOnATrackerHasItsRequestAndLoadRejected() {
        let result = replay(
            [
                avt(1_000, "MediaRequest"), avt(1_100, "StreamLoad"), avt(1_500, "Start"), avt(5_000, "End"),
                avt(6_000, "MediaRequest"), avt(6_100, "StreamLoad"), avt(6_400, "Start"), avt(9_000, "Stop"),
            ], trace: true, rejected: true)
        let rejected = result.avtTrace.filter { $0.rejection != nil }.map(\.event.action.name)
        #expect(rejected == ["MediaRequest", "StreamLoad"])
        // StartTime of the second playback still counts from the first accepted MediaRequest.
        #expect(result.playbacks.map(\.startTime) == [500, 5_400])
        #expect(result.playbacks.map(\.playbackID) == ["i:1000:p1", "i:1000:p2"])
        #expect(result.playbacks.map(\.streamID) == ["i:1000:s1", "i:1000:s1"])
    }

    @Test func theResetAfterEndHappensOnTheNextEventEvenWhenRejected() {
        let result = replay(
            [
                avt(1_000, "StreamLoad"), avt(1_200, "Start"), avt(2_000, "End"),
                avt(3_000, "PauseFinish"),  // rejected, but resets didStart
                avt(4_000, "PauseBegin"),  // rejected: not started any more
                avt(5_000, "Start"),
            ], trace: true, rejected: true)
        let outcomes = result.avtTrace.map { "\($0.event.action.name):\($0.rejection ?? "ok")" }
        #expect(
            outcomes == [
                "StreamLoad:ok", "Start:ok", "End:ok", "PauseFinish:not started", "PauseBegin:not started", "Start:ok",
            ])
    }

    @Test func onlyEndIsBlockedInsideAnAdBreak() {
        let result = replay(
            [
                avt(1_000, "StreamLoad"), avt(1_200, "Start"),
                avt(2_000, "AdBreakBegin", tracker: 1), avt(2_100, "End"), avt(2_200, "Stop"),
            ], trace: true, rejected: true)
        let outcomes = result.avtTrace.map { "\($0.event.action.name):\($0.rejection ?? "ok")" }
        #expect(outcomes.suffix(2) == ["End:End inside an ad break", "Stop:ok"])
    }

    @Test func adPausesUseThePauseFlagButAddNoPauseTime() {
        let result = replay(
            [
                avt(1_000, "StreamLoad"), avt(1_200, "Start"),
                avt(2_000, "AdBreakBegin", tracker: 1), avt(2_000, "AdBegin", tracker: 1),
                avt(3_000, "AdPauseBegin", tracker: 1), avt(7_000, "AdPauseFinish", tracker: 1),
                avt(8_000, "AdFinish", tracker: 1), avt(8_000, "AdBreakFinish", tracker: 1),
                avt(9_000, "PauseBegin"), avt(9_500, "PauseFinish"), avt(10_000, "End"),
            ], trace: true)
        let end = result.avtTrace.last?.event
        #expect(end?[.accumPauseTime] == 500)
        #expect(result.playbacks.first?.pauseTime == 500)
        #expect(result.playbacks.first?.ads == 1)
    }

    /// `OAVTHubCoreAds` clears the pause flag at `AdPauseFinish` before `OAVTHubCore` works out
    /// `deltaPlayTime` (OAVTHubCore.swift line 44 at 2628ccd): on a tracker that started its
    /// content, the ad pause counts as play time.
    @Test func adPauseFinishCountsTheAdPauseAsPlayTimeOnAStartedContentTracker() {
        let result = replay(
            [
                avt(1_000, "StreamLoad"), avt(1_200, "Start"),
                avt(2_000, "AdBreakBegin"), avt(2_000, "AdBegin"),
                avt(3_000, "AdPauseBegin"), avt(7_000, "AdPauseFinish"),
            ], trace: true)
        let finish = result.avtTrace.first { $0.event.action.name == "AdPauseFinish" }?.event
        #expect(finish?[.deltaPlayTime] == 4_000)
        let begin = result.avtTrace.first { $0.event.action.name == "AdPauseBegin" }?.event
        #expect(begin?[.deltaPlayTime] == nil)
    }

    @Test func postRollAdsBelongToTheNextPlaybackID() {
        let result = replay([
            avt(1_000, "MediaRequest"), avt(1_300, "Start"), avt(5_000, "End"),
            avt(5_100, "AdBreakBegin", tracker: 1), avt(5_100, "AdBegin", tracker: 1),
            avt(9_000, "AdFinish", tracker: 1), avt(9_000, "AdBreakFinish", tracker: 1),
        ])
        #expect(result.playbacks.count == 2)
        let postRoll = result.playbacks[1]
        #expect(postRoll.playbackID == "i:1000:p2")
        #expect(postRoll.tracker == 1)
        #expect(postRoll.ads == 1)
        #expect(postRoll.isExitBeforeStart == false)
        #expect(postRoll.isStartFailure == false)
        #expect(result.playbacks[0].endAction == "End")
        #expect(result.playbacks[0].ads == 0)
    }

    @Test func aFinishWithoutItsTimeSinceAddsNothing() {
        // The recorded attribute overrides the instrument's time-since value with a string.
        let result = replay(
            [
                avt(1_000, "StreamLoad"), avt(1_200, "Start"), avt(2_000, "PauseBegin"),
                avt(3_000, "PauseFinish", attributes: ["timeSincePauseBegin": "soon"]), avt(4_000, "End"),
            ], trace: true)
        #expect(result.avtTrace.last?.event[.accumPauseTime] == 0)
    }

    @Test func deltaPlayTimeCountsFromTheLastEventOfAnyTracker() {
        let result = replay(
            [
                avt(1_000, "StreamLoad"), avt(1_200, "Start"),
                avt(2_000, "Ping", tracker: 1), avt(3_000, "Ping"),
            ], trace: true)
        // The ads tracker never started, so its Ping has no deltaPlayTime, yet it restarts the
        // count: the content's next Ping gets 1000, and the 800 ms before the ad Ping are lost.
        #expect(result.avtTrace.map { $0.event[.deltaPlayTime] } == [nil, nil, nil, 1_000])
        #expect(result.playbacks.first?.playTime == 1_000)
    }

    @Test func adEventsCarryTheContentPosition() {
        let result = replay(
            [
                avt(1_000, "StreamLoad", attributes: ["isAdsTracker": false, "position": 0]),
                avt(1_200, "Start", attributes: ["isAdsTracker": false, "position": 10]),
                avt(2_000, "AdBreakBegin", tracker: 1, attributes: ["isAdsTracker": true, "adRoll": "mid"]),
            ], trace: true)
        #expect(result.avtTrace.last?.event[.position] == 10)
    }
}

struct ReplayOrderTests {
    private let records = [
        avt(1_000, "StreamLoad"), avt(1_200, "Start"), avt(1_500, "BufferBegin"), avt(2_500, "BufferFinish"),
        avt(3_000, "End"), avt(900, "MediaRequest", instrument: "j"), avt(1_100, "StreamLoad", instrument: "j"),
        avt(1_900, "Start", instrument: "j"),
    ]

    @Test(arguments: [0, 1, 2, 3, 4])
    func theOrderRecordsArriveInChangesNothing(seed: Int) {
        var shuffled = records.enumerated().map { ($0.element, SourcePosition(fileRank: 0, line: $0.offset + 1)) }
        var generator = SplitMix(seed: UInt64(seed))
        shuffled.shuffle(using: &generator)
        let reference = replay(records, trace: true)
        let result = CollectedReplay(shuffled.map { (Record.avt($0), $1) }, options: ReplayOptions(includeTrace: true))
        #expect(result.trace == reference.trace)
        #expect(result.points == reference.points)
        #expect(result.playbacks == reference.playbacks)
    }

    @Test func equalTimesKeepFileThenLineOrder() {
        let result = CollectedReplay(
            [
                (.avt(avt(1_000, "StreamLoad")), SourcePosition(fileRank: 0, line: 1)),
                (.avt(avt(2_000, "Start")), SourcePosition(fileRank: 1, line: 1)),
                (.avt(avt(2_000, "PauseBegin")), SourcePosition(fileRank: 0, line: 9)),
            ], options: ReplayOptions(includeTrace: true, includeRejected: true))
        let actions = result.avtTrace.map { "\($0.event.action.name):\($0.rejection ?? "ok")" }
        #expect(actions == ["StreamLoad:ok", "PauseBegin:not started", "Start:ok"])
    }

    @Test func outputsComeInSessionBlocksOrderedByTheirLatestRecord() {
        let result = replay(records, trace: true)
        #expect(result.avtTrace.map(\.instrument) == ["j", "j", "j", "i", "i", "i", "i", "i"])
    }
}

// MARK: - Helpers

func avt(
    _ time: Int64, _ action: String, tracker: Int = 0, instrument: String = "i", attributes: Attributes = [:]
) -> AVTRecord {
    AVTRecord(
        timestamp: Timestamp(milliseconds: time), instrument: instrument, tracker: tracker, action: action,
        attributes: attributes)
}

func replay(_ records: [AVTRecord], hub: HubKind = .ads, trace: Bool = false, rejected: Bool = false) -> CollectedReplay
{
    CollectedReplay(
        lines: records.map(Record.avt),
        options: ReplayOptions(
            components: InstrumentComponents(hub: hub), includeTrace: trace, includeRejected: rejected)
    )
}

/// A seeded generator so that shuffles are the same in every run.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension CollectedReplay {
    /// The OpenAVT lines of the trace.
    var avtTrace: [TraceEntry] {
        trace.compactMap {
            if case .avt(let entry) = $0 { return entry }
            return nil
        }
    }
}
