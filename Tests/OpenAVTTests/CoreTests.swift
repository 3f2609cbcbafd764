import EventModel
import OpenAVT
import ReplayTestSupport
import Testing

/// OpenAVT-iOS's `CoreTests`, ported: each sleep is a gap in time, each `accuracy: 50` an exact value.
struct CoreTests {
    @Test func trackerIDsAreTheOnesTheInstrumentGave() {
        let harness = InstrumentHarness(hub: HubCore())
        #expect(harness.instrument.tracker(harness.content)?.trackerID == harness.content)
        #expect(harness.instrument.trackerIDs == [0])
    }

    @Test func playerStateFollowsTheLifecycle() {
        let harness = InstrumentHarness(hub: HubCore())
        var expected = TrackerState()
        let steps: [(Action, (inout TrackerState) -> Void)] = [
            (.mediaRequest, { $0.didMediaRequest = true }),
            (.playerSet, { $0.didPlayerSet = true }),
            (.streamLoad, { $0.didStreamLoad = true }),
            (.bufferBegin, { $0.isBuffering = true }),
            (.bufferFinish, { $0.isBuffering = false }),
            (.start, { $0.didStart = true }),
            (.pauseBegin, { $0.isPaused = true }),
            (.seekBegin, { $0.isSeeking = true }),
            (.bufferBegin, { $0.isBuffering = true }),
            (.bufferFinish, { $0.isBuffering = false }),
            (.seekFinish, { $0.isSeeking = false }),
            (.pauseFinish, { $0.isPaused = false }),
            (.end, { $0.didFinish = true }),
        ]
        for (action, change) in steps {
            harness.emit(action)
            change(&expected)
            #expect(harness.state() == expected, "after \(action)")
        }
    }

    @Test func everyEventOfAWellFormedPlaybackIsAccepted() {
        let harness = InstrumentHarness(hub: HubCore())
        let actions: [Action] = [
            .mediaRequest, .playerSet, .streamLoad, .bufferBegin, .bufferFinish, .start, .pauseBegin, .seekBegin,
            .bufferBegin, .bufferFinish, .error, .seekFinish, .pauseFinish, .end,
        ]
        for action in actions {
            harness.emit(action)
            #expect(harness.backend.takeLastEvent()?.action == action)
        }
    }

    @Test func repeatedAndMissingEventsLeaveTheStateConsistent() {
        let harness = InstrumentHarness(hub: HubCore())
        var expected = TrackerState()
        harness.emit(.mediaRequest)
        harness.emit(.mediaRequest)
        expected.didMediaRequest = true
        #expect(harness.state() == expected)
        harness.emit(.playerSet)
        expected.didPlayerSet = true
        harness.emit(.streamLoad)
        expected.didStreamLoad = true
        #expect(harness.state() == expected)
        harness.emit(.bufferBegin)
        harness.emit(.bufferBegin)
        expected.isBuffering = true
        #expect(harness.state() == expected)
        harness.emit(.bufferFinish)
        expected.isBuffering = false
        harness.emit(.start)
        expected.didStart = true
        harness.emit(.pauseBegin)
        expected.isPaused = true
        harness.emit(.seekBegin)
        expected.isSeeking = true
        harness.emit(.bufferBegin)
        harness.emit(.bufferFinish)
        #expect(harness.state() == expected)
        // Missing SeekFinish
        harness.emit(.ping)
        #expect(harness.state() == expected)
        harness.emit(.pauseFinish)
        expected.isPaused = false
        #expect(harness.state() == expected)
        // Missing End
        harness.emit(.ping)
        #expect(harness.state() == expected)
    }

    @Test func eventsOutOfPlaceAreRejected() {
        let harness = InstrumentHarness(hub: HubCore())
        let script: [(Action, accepted: Bool)] = [
            (.stop, false), (.mediaRequest, true), (.mediaRequest, false), (.playerSet, true), (.streamLoad, true),
            (.bufferBegin, true), (.bufferFinish, true), (.start, true), (.pauseBegin, true), (.seekBegin, true),
            (.bufferBegin, true), (.bufferFinish, true), (.seekFinish, true), (.pauseFinish, true), (.ping, true),
            (.seekFinish, false), (.end, true), (.end, false), (.pauseBegin, false),
        ]
        for (index, step) in script.enumerated() {
            harness.emit(step.0)
            let event = harness.backend.takeLastEvent()
            #expect((event?.action == step.0) == step.accepted, "step \(index): \(step.0)")
            #expect((event == nil) == !step.accepted, "step \(index): \(step.0)")
        }
    }

    @Test func rejectedEventsSayWhy() {
        let harness = InstrumentHarness(hub: HubCore())
        #expect(
            harness.emit(.stop)
                == .rejected(
                    Event(action: .stop, timestamp: harness.now, attributes: stubAttributes), reason: "not started"))
        harness.emit(.mediaRequest)
        guard case .rejected(_, let reason) = harness.emit(.mediaRequest) else {
            Issue.record("second MediaRequest accepted")
            return
        }
        #expect(reason == "MediaRequest already seen on this tracker")
    }

    @Test func timeSinceAttributesCountFromTheLastAcceptedEvent() {
        var harness = InstrumentHarness(hub: HubCore())
        harness.emit(.mediaRequest)
        harness.advance(by: 300)
        harness.emit(.playerSet)
        harness.emit(.streamLoad)
        harness.emit(.bufferBegin)
        harness.advance(by: 800)
        harness.emit(.bufferFinish)
        #expect(harness.backend.takeLastEvent()?[Action.bufferBegin.timeAttribute] == 800)
        harness.emit(.start)
        #expect(harness.backend.takeLastEvent()?[Action.mediaRequest.timeAttribute] == 1100)
        harness.emit(.pauseBegin)
        harness.emit(.seekBegin)
        harness.emit(.bufferBegin)
        harness.advance(by: 600)
        harness.emit(.bufferFinish)
        harness.emit(.seekFinish)
        #expect(harness.backend.takeLastEvent()?[Action.seekBegin.timeAttribute] == 600)
        harness.emit(.pauseFinish)
        #expect(harness.backend.takeLastEvent()?[Action.pauseBegin.timeAttribute] == 600)
        harness.emit(.end)
        #expect(harness.backend.takeLastEvent()?.action == .end)
    }

    @Test func countersBelongToTheHub() {
        let harness = InstrumentHarness(hub: HubCore())
        func expectCounts(starts: Int64, errors: Int64, sourceLocation: SourceLocation = #_sourceLocation) {
            let event = harness.backend.takeLastEvent()
            #expect(event?[.countStarts] == .int(starts), sourceLocation: sourceLocation)
            #expect(event?[.countErrors] == .int(errors), sourceLocation: sourceLocation)
        }
        harness.emit(.streamLoad)
        expectCounts(starts: 0, errors: 0)
        harness.emit(.start)
        expectCounts(starts: 1, errors: 0)
        harness.emit(.error)
        expectCounts(starts: 1, errors: 1)
        harness.emit(.start)
        harness.emit(.ping)
        harness.emit(.error)
        expectCounts(starts: 1, errors: 2)
        harness.emit(.end)
        harness.emit(.start)
        expectCounts(starts: 2, errors: 2)
        harness.emit(.error)
        expectCounts(starts: 2, errors: 3)
    }

    @Test func accumulatedTimesAddUpPausesBuffersAndSeeks() {
        var harness = InstrumentHarness(hub: HubCore())
        harness.emit(.streamLoad)
        harness.emit(.bufferBegin)
        harness.advance(by: 800)
        harness.emit(.bufferFinish)
        harness.emit(.start)
        harness.emit(.pauseBegin)
        harness.advance(by: 1500)
        harness.emit(.pauseFinish)
        harness.emit(.pauseBegin)
        harness.emit(.seekBegin)
        harness.emit(.bufferBegin)
        harness.advance(by: 1000)
        harness.emit(.bufferFinish)
        harness.emit(.seekFinish)
        harness.emit(.pauseFinish)
        harness.emit(.end)
        let end = harness.backend.takeLastEvent()
        #expect(end?[.accumBufferTime] == 1800)
        #expect(end?[.accumPauseTime] == 2500)
        #expect(end?[.accumSeekTime] == 1000)
    }

    @Test func blockFlagsFollowTheState() {
        let harness = InstrumentHarness(hub: HubCore())
        func expectBlocks(
            playback: Bool, pause: Bool, buffer: Bool, seek: Bool, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let event = harness.backend.takeLastEvent()
            #expect(event?[.inPlaybackBlock] == .bool(playback), sourceLocation: sourceLocation)
            #expect(event?[.inPauseBlock] == .bool(pause), sourceLocation: sourceLocation)
            #expect(event?[.inBufferBlock] == .bool(buffer), sourceLocation: sourceLocation)
            #expect(event?[.inSeekBlock] == .bool(seek), sourceLocation: sourceLocation)
        }
        harness.emit(.streamLoad)
        expectBlocks(playback: false, pause: false, buffer: false, seek: false)
        harness.emit(.bufferBegin)
        expectBlocks(playback: false, pause: false, buffer: true, seek: false)
        harness.emit(.bufferFinish)
        harness.emit(.start)
        expectBlocks(playback: true, pause: false, buffer: false, seek: false)
        harness.emit(.pauseBegin)
        expectBlocks(playback: true, pause: true, buffer: false, seek: false)
        harness.emit(.pauseFinish)
        harness.emit(.pauseBegin)
        harness.emit(.seekBegin)
        harness.emit(.bufferBegin)
        expectBlocks(playback: true, pause: true, buffer: true, seek: true)
        harness.emit(.bufferFinish)
        harness.emit(.seekFinish)
        harness.emit(.pauseFinish)
        expectBlocks(playback: true, pause: false, buffer: false, seek: false)
        harness.emit(.end)
        expectBlocks(playback: false, pause: false, buffer: false, seek: false)
    }
}

/// The attributes a fresh event from the harness's content tracker has before the hub.
let stubAttributes: Attributes = ["senderId": "test-0", "isAdsTracker": false]
