import EventModel
import OpenAVT
import ReplayTestSupport
import Testing

/// OpenAVT-iOS's `AdsTests`, ported: each sleep is a gap in time, each `accuracy: 50` an exact value.
struct AdsTests {
    private func makeHarness() -> InstrumentHarness {
        InstrumentHarness(hub: HubCoreAds(), withAdsTracker: true)
    }

    @Test func trackerIDsAreTheOnesTheInstrumentGave() {
        let harness = makeHarness()
        #expect(harness.instrument.tracker(harness.content)?.trackerID == 0)
        #expect(harness.instrument.tracker(harness.ads)?.trackerID == 1)
    }

    /// The hub walks the trackers by index, reading their count each time: a getter that
    /// removes a tracker during the walk ends it early instead of reading past the end.
    @Test func aGetterRemovingATrackerDuringTheWalkStopsIt() {
        let harness = makeHarness()
        let instrument = harness.instrument
        instrument.registerGetter(.isAdsTracker, for: harness.content) {
            instrument.removeTracker(harness.ads)
            return .bool(false)
        }
        instrument.registerGetter(.position, for: harness.content) { 1_500 }
        let outcome = harness.emit(.mediaRequest)
        guard case .accepted(let event, _) = outcome else {
            Issue.record("the event was not accepted: \(outcome)")
            return
        }
        #expect(event[.position] == 1_500)
        #expect(instrument.trackerIDs == [harness.content])
    }

    /// Emits an ad action and checks both trackers' states after it.
    private func emitAd(
        _ action: Action, _ harness: InstrumentHarness, content: inout TrackerState, ads: inout TrackerState,
        _ change: (inout TrackerState) -> Void, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        harness.emit(action, from: harness.ads)
        change(&content)
        change(&ads)
        #expect(
            harness.state(of: harness.content) == content, "content after \(action)", sourceLocation: sourceLocation)
        #expect(harness.state(of: harness.ads) == ads, "ads after \(action)", sourceLocation: sourceLocation)
    }

    @Test func adFlagsAreSetOnEveryTracker() {
        let harness = makeHarness()
        var content = TrackerState()
        var ads = TrackerState()
        harness.emit(.mediaRequest)
        harness.emit(.playerSet)
        harness.emit(.streamLoad)
        harness.emit(.bufferBegin)
        content.didMediaRequest = true
        content.didPlayerSet = true
        content.didStreamLoad = true
        content.isBuffering = true
        // Pre-roll: one ad.
        emitAd(.adBreakBegin, harness, content: &content, ads: &ads) { $0.inAdBreak = true }
        emitAd(.adBegin, harness, content: &content, ads: &ads) { $0.inAd = true }
        emitAd(.adFinish, harness, content: &content, ads: &ads) { $0.inAd = false }
        emitAd(.adBreakFinish, harness, content: &content, ads: &ads) { $0.inAdBreak = false }
        harness.emit(.bufferFinish)
        harness.emit(.start)
        content.isBuffering = false
        content.didStart = true
        // Mid-roll: two ads.
        emitAd(.adBreakBegin, harness, content: &content, ads: &ads) { $0.inAdBreak = true }
        for _ in 0..<2 {
            emitAd(.adBegin, harness, content: &content, ads: &ads) { $0.inAd = true }
            emitAd(.adFinish, harness, content: &content, ads: &ads) { $0.inAd = false }
        }
        emitAd(.adBreakFinish, harness, content: &content, ads: &ads) { $0.inAdBreak = false }
        harness.emit(.end)
        content.didFinish = true
        // Post-roll: one ad.
        emitAd(.adBreakBegin, harness, content: &content, ads: &ads) { $0.inAdBreak = true }
        emitAd(.adBegin, harness, content: &content, ads: &ads) { $0.inAd = true }
        emitAd(.adFinish, harness, content: &content, ads: &ads) { $0.inAd = false }
        emitAd(.adBreakFinish, harness, content: &content, ads: &ads) { $0.inAdBreak = false }
    }

    @Test func everyAdEventOfWellFormedBreaksIsAccepted() {
        let harness = makeHarness()
        harness.emit(.streamLoad)
        harness.emit(.bufferBegin)
        let preRoll: [Action] = [.adBreakBegin, .adBegin, .adFinish, .adBreakFinish]
        let midRoll: [Action] = [
            .adBreakBegin, .adBegin, .adPauseBegin, .adPauseFinish, .adFinish, .adBegin, .adFinish, .adBreakFinish,
        ]
        for action in preRoll {
            harness.emit(action, from: harness.ads)
            #expect(harness.backend.takeLastEvent()?.action == action)
        }
        harness.emit(.bufferFinish)
        harness.emit(.start)
        for action in midRoll {
            harness.emit(action, from: harness.ads)
            #expect(harness.backend.takeLastEvent()?.action == action)
        }
        harness.emit(.end)
        for action in preRoll {
            harness.emit(action, from: harness.ads)
            #expect(harness.backend.takeLastEvent()?.action == action)
        }
    }

    @Test func repeatedAndMissingAdEventsLeaveTheStatesConsistent() {
        let harness = makeHarness()
        var content = TrackerState()
        var ads = TrackerState()
        harness.emit(.mediaRequest)
        harness.emit(.playerSet)
        harness.emit(.streamLoad)
        harness.emit(.bufferBegin)
        content.didMediaRequest = true
        content.didPlayerSet = true
        content.didStreamLoad = true
        content.isBuffering = true
        #expect(harness.state(of: harness.content) == content)
        #expect(harness.state(of: harness.ads) == ads)
        harness.emit(.adBreakBegin, from: harness.ads)
        emitAd(.adBreakBegin, harness, content: &content, ads: &ads) { $0.inAdBreak = true }
        emitAd(.adBegin, harness, content: &content, ads: &ads) { $0.inAd = true }
        harness.emit(.adFinish, from: harness.ads)
        emitAd(.adFinish, harness, content: &content, ads: &ads) { $0.inAd = false }
        emitAd(.adBreakFinish, harness, content: &content, ads: &ads) { $0.inAdBreak = false }
        harness.emit(.bufferFinish)
        harness.emit(.start)
        content.isBuffering = false
        content.didStart = true
        emitAd(.adBreakBegin, harness, content: &content, ads: &ads) { $0.inAdBreak = true }
        emitAd(.adBegin, harness, content: &content, ads: &ads) { $0.inAd = true }
        emitAd(.adFinish, harness, content: &content, ads: &ads) { $0.inAd = false }
        emitAd(.adBegin, harness, content: &content, ads: &ads) { $0.inAd = true }
        emitAd(.adFinish, harness, content: &content, ads: &ads) { $0.inAd = false }
        emitAd(.adBreakFinish, harness, content: &content, ads: &ads) { $0.inAdBreak = false }
        harness.emit(.end)
        content.didFinish = true
        emitAd(.adBreakBegin, harness, content: &content, ads: &ads) { $0.inAdBreak = true }
        emitAd(.adBegin, harness, content: &content, ads: &ads) { $0.inAd = true }
        // A missing AdFinish leaves inAd set: ad trackers must finish the ad before the break.
        emitAd(.adBreakFinish, harness, content: &content, ads: &ads) { $0.inAdBreak = false }
        #expect(harness.state(of: harness.ads).inAd)
    }

    @Test func adEventsOutOfPlaceAreRejected() {
        let harness = makeHarness()
        harness.emit(.streamLoad)
        harness.emit(.bufferBegin)
        let preRoll: [(Action, accepted: Bool)] = [
            (.adBreakBegin, true), (.adBegin, true), (.adBreakBegin, false), (.adFinish, true), (.adFinish, false),
            (.adBreakFinish, true),
        ]
        let midRoll: [(Action, accepted: Bool)] = [
            (.adBreakBegin, true), (.adBegin, true), (.adFinish, true), (.adBegin, true), (.adFinish, true),
            (.adPauseBegin, false), (.adPauseFinish, false), (.adBreakFinish, true), (.adBreakFinish, false),
        ]
        let postRollWithoutBreak: [(Action, accepted: Bool)] = [
            (.adBegin, false), (.adFinish, false), (.adBreakFinish, false),
        ]
        func run(_ script: [(Action, accepted: Bool)], sourceLocation: SourceLocation = #_sourceLocation) {
            for (index, step) in script.enumerated() {
                harness.emit(step.0, from: harness.ads)
                let event = harness.backend.takeLastEvent()
                #expect(
                    (event?.action == step.0) == step.accepted, "step \(index): \(step.0)",
                    sourceLocation: sourceLocation)
            }
        }
        run(preRoll)
        harness.emit(.bufferFinish)
        harness.emit(.start)
        run(midRoll)
        harness.emit(.end)
        _ = harness.backend.takeLastEvent()
        run(postRollWithoutBreak)
    }

    @Test func adTimeSinceAttributes() {
        var harness = makeHarness()
        harness.emit(.streamLoad)
        harness.emit(.bufferBegin)
        harness.emit(.adBreakBegin, from: harness.ads)
        harness.advance(by: 500)
        harness.emit(.adBegin, from: harness.ads)
        #expect(harness.backend.takeLastEvent()?[Action.adBreakBegin.timeAttribute] == 500)
        harness.advance(by: 1000)
        harness.emit(.adPauseBegin, from: harness.ads)
        harness.advance(by: 600)
        harness.emit(.adPauseFinish, from: harness.ads)
        #expect(harness.backend.takeLastEvent()?[Action.adPauseBegin.timeAttribute] == 600)
        harness.emit(.adFinish, from: harness.ads)
        #expect(harness.backend.takeLastEvent()?[Action.adBegin.timeAttribute] == 1600)
        harness.advance(by: 300)
        harness.emit(.adBreakFinish, from: harness.ads)
        #expect(harness.backend.takeLastEvent()?[Action.adBreakBegin.timeAttribute] == 2400)
    }

    @Test func adCounterCountsAcceptedAds() {
        let harness = makeHarness()
        harness.emit(.streamLoad)
        #expect(harness.backend.takeLastEvent()?[.countAds] == 0)
        harness.emit(.bufferBegin)
        for action: Action in [.adBreakBegin, .adBegin, .adFinish, .adBreakFinish] {
            harness.emit(action, from: harness.ads)
        }
        #expect(harness.backend.takeLastEvent()?[.countAds] == 1)
        harness.emit(.bufferFinish)
        harness.emit(.start)
        let midRoll: [Action] = [
            .adBreakBegin, .adBegin, .adPauseBegin, .adPauseFinish, .adFinish, .adBegin, .adFinish, .adBreakFinish,
        ]
        for action in midRoll {
            harness.emit(action, from: harness.ads)
        }
        #expect(harness.backend.takeLastEvent()?[.countAds] == 3)
        harness.emit(.end)
        for action: Action in [.adBreakBegin, .adBegin, .adFinish, .adBreakFinish] {
            harness.emit(action, from: harness.ads)
        }
        #expect(harness.backend.takeLastEvent()?[.countAds] == 4)
    }

    @Test func adBlockFlags() {
        let harness = makeHarness()
        func expectBlocks(adBreak: Bool, ad: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
            let event = harness.backend.takeLastEvent()
            #expect(event?[.inAdBreakBlock] == .bool(adBreak), sourceLocation: sourceLocation)
            #expect(event?[.inAdBlock] == .bool(ad), sourceLocation: sourceLocation)
        }
        harness.emit(.streamLoad)
        expectBlocks(adBreak: false, ad: false)
        harness.emit(.bufferBegin)
        harness.emit(.adBreakBegin, from: harness.ads)
        expectBlocks(adBreak: true, ad: false)
        harness.emit(.adBegin, from: harness.ads)
        expectBlocks(adBreak: true, ad: true)
        harness.emit(.adFinish, from: harness.ads)
        expectBlocks(adBreak: true, ad: false)
        harness.emit(.adBreakFinish, from: harness.ads)
        expectBlocks(adBreak: false, ad: false)
    }

    /// The instrument hands events to the hub in place; the by-value form gives the same
    /// events, rejections and states, action by action.
    @Test func processingInPlaceAndByValueAgree() throws {
        let byValue = makeHarness()
        let inPlace = makeHarness()
        let actions: [(Action, TrackerID)] = [
            (.mediaRequest, 0), (.start, 0), (.start, 0), (.adBegin, 1), (.adBreakBegin, 1), (.adBegin, 1),
            (.end, 0), (.adFinish, 1), (.adBreakFinish, 1), (.end, 0),
        ]
        var rejections = 0
        for (offset, (action, tracker)) in actions.enumerated() {
            let event = Event(action: action, timestamp: Timestamp(milliseconds: 1_000 * Int64(offset)))
            let hubA = try #require(byValue.instrument.hub)
            let hubB = try #require(inPlace.instrument.hub)
            let returned = hubA.process(event, from: tracker, in: byValue.instrument)
            var changed = event
            let accepted = hubB.process(inPlace: &changed, from: tracker, in: inPlace.instrument)
            #expect(accepted == (returned != nil), "\(action)")
            if !accepted { rejections += 1 }
            if let returned { #expect(changed == returned, "\(action)") }
            #expect(hubA.rejectionReason == hubB.rejectionReason, "\(action)")
            #expect(byValue.state(of: tracker) == inPlace.state(of: tracker), "\(action)")
        }
        // A second Start, an ad outside a break and an End inside one.
        #expect(rejections == 3)
    }
}
