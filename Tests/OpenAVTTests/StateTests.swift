import EventModel
import Foundation
import OpenAVT
import ReplayTestSupport
import Testing

/// An instrument's state saved and restored into a fresh one (`--state`): the restored
/// instrument goes on as the one it was saved from would have.
struct StateTests {
    // MARK: Split anywhere, same outcomes

    @Test(arguments: [false, true])
    func aPlaybackThenAnotherGoOnAsIfNeverSaved(withAds: Bool) throws {
        let steps: [Step] = [
            .emit(.mediaRequest), .emit(.playerSet, after: 20), .emit(.streamLoad, after: 130),
            .emit(.bufferBegin, after: 5), .emit(.bufferFinish, after: 410), .emit(.start, after: 15),
            .emit(.ping, after: 1_000), .emit(.pauseBegin, after: 700), .emit(.pauseBegin, after: 10),
            .emit(.bufferBegin, after: 40), .emit(.bufferFinish, after: 90), .emit(.pauseFinish, after: 2_500),
            .emit(.bufferBegin, after: 300), .emit(.bufferFinish, after: 1_250), .emit(.seekBegin, after: 800),
            .emit(.bufferBegin, after: 10), .emit(.bufferFinish, after: 600), .emit(.seekFinish, after: 5),
            .emit(.qualityChangeUp, after: 3_000), .emit(.error, after: 100), .emit(.pauseFinish, after: 50),
            .emit(.end, after: 4_000),
            // The second playback: its MediaRequest and StreamLoad are rejected (OpenAVT's quirk),
            // its Start accepted after the reset that the End left pending.
            .emit(.mediaRequest, after: 900), .emit(.streamLoad, after: 60), .emit(.start, after: 700),
            .emit(.ping, after: 1_000), .emit(.bufferBegin, after: 200), .emit(.bufferFinish, after: 330),
            .emit(.stop, after: 2_000), .emit(.ping, after: 1_000),
        ]
        let scenario = Scenario(hub: { withAds ? HubCoreAds() as any Hub : HubCore() }, steps: steps)
        let events = try scenario.checkEverySplit()
        // The scenario covers what it claims: rejections, and both playbacks' ids.
        #expect(events.contains { $0 == nil })
        let playbackIDs = Set(events.compactMap { $0?.string(.playbackId) })
        #expect(playbackIDs == ["test:p1", "test:p2", "test:p3"])
        #expect(events.contains { $0?.string(.streamId) == "test:s1" })
    }

    @Test func anAdBreakWithAnAdAcrossTheSplitGoesOnAsIfNeverSaved() throws {
        let content: TrackerID = 0
        let ads: TrackerID = 1
        let steps: [Step] = [
            .emit(.mediaRequest), .emit(.streamLoad, after: 100), .position(0), .emit(.start, after: 500),
            .position(4_000), .emit(.ping, after: 4_000),
            .emit(.adBreakBegin, from: ads, after: 10), .emit(.adBegin, from: ads, after: 20),
            .emit(.adBegin, from: ads, after: 5), .emit(.adPauseBegin, from: ads, after: 3_000),
            .emit(.adPauseFinish, from: ads, after: 1_500), .emit(.adFirstQuartile, from: ads, after: 2_000),
            .emit(.end, from: content, after: 100), .emit(.adFinish, from: ads, after: 5_000),
            .emit(.adBegin, from: ads, after: 30), .emit(.adFinish, from: ads, after: 15_000),
            .emit(.adBreakFinish, from: ads, after: 10), .position(4_500), .emit(.ping, after: 1_000),
            .emit(.pauseBegin, after: 200), .emit(.pauseFinish, after: 800), .emit(.end, after: 9_000),
        ]
        let scenario = Scenario(hub: { HubCoreAds() }, withAdsTracker: true, steps: steps)
        let events = try scenario.checkEverySplit()
        #expect(events.contains { $0 == nil })
        #expect(events.contains { $0?[.countAds] == 2 && $0?[.inAdBlock] == true })
        #expect(events.contains { $0?[.position] == 4_500 })
    }

    @Test func aCustomActionsClockGoesOnAsIfNeverSaved() throws {
        let custom = Action(name: "QualityProbe")
        let renamed = Action(name: "Renamed", timeAttribute: "myTimeSince")
        let steps: [Step] = [
            .emit(.streamLoad), .emit(.start, after: 300), .emit(custom, after: 1_000), .emit(.ping, after: 250),
            .emit(renamed, after: 40), .emit(custom, after: 700), .emit(.ping, after: 1_000),
            .emit(.end, after: 90),
        ]
        let scenario = Scenario(hub: { HubCore() }, steps: steps)
        let events = try scenario.checkEverySplit()
        #expect(events.last??[custom.timeAttribute] == 1_090)
        #expect(events.last??["myTimeSince"] == 1_790)
    }

    // MARK: Determinism

    @Test func theSameStateGivesTheSameBytes() throws {
        let steps: [Step] = [
            .emit(.mediaRequest), .emit(.streamLoad, after: 10), .emit(.start, after: 20),
            .emit(Action(name: "Custom"), after: 30), .position(12), .emit(.ping, after: 40),
        ]
        let scenario = Scenario(hub: { HubCoreAds() }, withMetricalc: true, withAdsTracker: true, steps: steps)
        let first = scenario.makeInstrument()
        let second = scenario.makeInstrument()
        scenario.run(steps[...], on: first)
        scenario.run(steps[...], on: second)
        let saved = try encodeState(of: first)
        #expect(try encodeState(of: first) == saved)
        #expect(try encodeState(of: second) == saved)
        let restored = scenario.makeInstrument()
        try decodeState(saved, into: restored)
        #expect(try encodeState(of: restored) == saved)
    }

    @Test func clocksOutOfAnInstrumentsOrderAreRefused() throws {
        var harness = InstrumentHarness(hub: HubCore())
        harness.emit(.mediaRequest)
        harness.advance(by: 10)
        harness.emit(.streamLoad)
        let saved = try encodeState(of: harness.instrument)
        var state = try #require(try JSONSerialization.jsonObject(with: saved) as? [String: Any])
        var clocks = try #require(state["c"] as? [String: Any])
        let started = try #require(clocks["c"] as? [Any])
        #expect(started.count == 2)
        clocks["c"] = Array(started.reversed())
        state["c"] = clocks
        let reordered = try JSONSerialization.data(withJSONObject: state)
        #expect(throws: DecodingError.self) {
            try decodeState(reordered, into: InstrumentHarness(hub: HubCore()).instrument)
        }
    }

    // MARK: Errors

    @Test func aHubThatKeepsNoStateSaysSo() throws {
        let harness = InstrumentHarness(hub: StatefulHubWithoutState())
        let expected = ComponentStateError(cannotKeepStateOf: StatefulHubWithoutState())
        #expect(expected.component == "StatefulHubWithoutState")
        #expect(
            expected.description
                == "the hub StatefulHubWithoutState cannot keep its state for --state: implement encodeState(to:) "
                + "and decodeState(from:) (docs/library.md, \"Nightly runs\")")
        #expect(throws: expected) { try encodeState(of: harness.instrument) }
        let hub = try #require(harness.instrument.hub)
        #expect(throws: expected) { try decode(Data("{}".utf8)) { try hub.decodeState(from: $0) } }
    }

    @Test func aHubWithAnotherIDGeneratorSaysSo() {
        let harness = InstrumentHarness(hub: HubCoreAds(idGenerator: CountingIDs()))
        #expect {
            try encodeState(of: harness.instrument)
        } throws: { error in
            (error as? ComponentStateError)?.component == "CountingIDs"
        }
    }

    @Test func anInstrumentMadeOtherwiseIsRefused() throws {
        let saved = try encodeState(of: InstrumentHarness(hub: HubCore(), withAdsTracker: true).instrument)
        // Refused before anything changes.
        let harness = InstrumentHarness(hub: HubCore())
        harness.emit(.streamLoad)
        let before = try encodeState(of: harness.instrument)
        #expect(throws: DecodingError.self) { try decodeState(saved, into: harness.instrument) }
        #expect(try encodeState(of: harness.instrument) == before)
        #expect(throws: DecodingError.self) {
            try decodeState(saved, into: InstrumentHarness(hub: HubCoreAds(), withAdsTracker: true).instrument)
        }
        #expect(throws: DecodingError.self) {
            try decodeState(
                saved, into: InstrumentHarness(hub: HubCore(), withMetricalc: true, withAdsTracker: true).instrument)
        }
    }
}

// MARK: - Scenarios

/// One step of a scenario: an emit, after some milliseconds, or a new content `position`.
private enum Step {
    case emit(Action, from: TrackerID = 0, after: Int64 = 0)
    case position(Int64?)
}

/// Steps replayed on instruments made the same way: a hub, `MetricalcCore`, the harness's
/// content tracker and optionally its ads tracker.
private struct Scenario {
    var hub: () -> any Hub
    var withMetricalc = true
    var withAdsTracker = false
    var steps: [Step]
    let start: Timestamp = 1_000_000

    func makeInstrument() -> Instrument {
        InstrumentHarness(hub: hub(), withMetricalc: withMetricalc, withAdsTracker: withAdsTracker).instrument
    }

    /// The time of each step: the start plus the gaps so far.
    private var times: [Timestamp] {
        var now = start.milliseconds
        return steps.map { step in
            if case .emit(_, _, let gap) = step { now += gap }
            return Timestamp(milliseconds: now)
        }
    }

    /// Runs the steps at `indices` on `instrument`; the outcome of each emit.
    @discardableResult
    func run(_ indices: ArraySlice<Step>, on instrument: Instrument) -> [EmitOutcome] {
        let times = times
        var outcomes: [EmitOutcome] = []
        for index in indices.indices {
            switch steps[index] {
            case .emit(let action, let tracker, _):
                outcomes.append(instrument.emit(action, trackerID: tracker, at: times[index]))
            case .position(let position):
                (instrument.tracker(0) as? StubTracker)?.position = position
            }
        }
        return outcomes
    }

    /// For every split point k: an instrument runs the first k steps, its state goes into a
    /// fresh instrument, which runs the rest; checks that it gives the outcomes, backend
    /// records, tracker states and final state of one instrument running every step. Returns
    /// that instrument's events (`nil` for a rejected one).
    func checkEverySplit(sourceLocation: SourceLocation = #_sourceLocation) throws -> [Event?] {
        let whole = makeInstrument()
        let expected = run(steps[...], on: whole)
        let expectedState = try encodeState(of: whole)
        let wholeBackend = try #require(whole.backend as? RecordingBackend)
        for split in 0...steps.count {
            let before = makeInstrument()
            let emitsBefore = run(steps[..<split], on: before).count
            let after = makeInstrument()
            try decodeState(try encodeState(of: before), into: after)
            let outcomes = run(steps[split...], on: after)
            #expect(outcomes == Array(expected[emitsBefore...]), "split at \(split)", sourceLocation: sourceLocation)
            for trackerID in whole.trackerIDs {
                #expect(
                    after.state(of: trackerID) == whole.state(of: trackerID), "split at \(split)",
                    sourceLocation: sourceLocation)
            }
            #expect(try encodeState(of: after) == expectedState, "split at \(split)", sourceLocation: sourceLocation)
            let backendBefore = try #require(before.backend as? RecordingBackend)
            let backendAfter = try #require(after.backend as? RecordingBackend)
            #expect(backendBefore.events + backendAfter.events == wholeBackend.events, sourceLocation: sourceLocation)
            #expect(
                backendBefore.metrics + backendAfter.metrics == wholeBackend.metrics, sourceLocation: sourceLocation)
        }
        #expect(expected.contains { if case .accepted(_, let metrics) = $0 { !metrics.isEmpty } else { false } })
        return expected.map { outcome in
            if case .accepted(let event, _) = outcome { event } else { nil }
        }
    }
}

// MARK: - Saving and restoring through JSON

/// The instrument's state as JSON, keys sorted.
private func encodeState(of instrument: Instrument) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return try encoder.encode(SavedState(instrument: instrument))
}

/// Restores JSON from ``encodeState(of:)`` into `instrument`.
private func decodeState(_ data: Data, into instrument: Instrument) throws {
    try decode(data) { try instrument.decodeState(from: $0) }
}

/// Decodes `data` with `restore`.
private func decode(_ data: Data, with restore: @escaping (any Decoder) throws -> Void) throws {
    let decoder = JSONDecoder()
    let key = try #require(Restoring.key)
    decoder.userInfo[key] = Restoring.Call(restore: restore)
    _ = try decoder.decode(Restoring.self, from: data)
}

/// An instrument's state as an `Encodable` value.
private struct SavedState: Encodable {
    let instrument: Instrument

    func encode(to encoder: any Encoder) throws {
        try instrument.encodeState(to: encoder)
    }
}

/// Decoding it restores a state with the call in the decoder's `userInfo`.
private struct Restoring: Decodable {
    static let key = CodingUserInfoKey(rawValue: "restore")

    /// The tests call it on the thread that decodes.
    struct Call: @unchecked Sendable {
        let restore: (any Decoder) throws -> Void
    }

    init(from decoder: any Decoder) throws {
        guard let key = Self.key, let call = decoder.userInfo[key] as? Call else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "nothing to restore into"))
        }
        try call.restore(decoder)
    }
}

// MARK: - Components that cannot keep their state

/// A hub with state of its own that does not implement the state methods.
private final class StatefulHubWithoutState: Hub {
    private var count = 0

    func process(_ event: consuming Event, from tracker: TrackerID, in instrument: Instrument) -> Event? {
        count += 1
        return event
    }
}

/// An id generator other than ``SequentialIDGenerator``.
private struct CountingIDs: IDGenerator {
    var count = 0

    mutating func makeID(_ kind: IDKind, instrument: String) -> String {
        count += 1
        return String(count)
    }
}
