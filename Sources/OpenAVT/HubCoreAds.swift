import EventModel

/// OpenAVT's hub for content players with ads (`OAVTHubCoreAds`): ``HubCore`` plus ad breaks and ads.
///
/// Ad break and ad flags are set on every tracker of the instrument at once, `countAds`
/// counts accepted `AdBegin`s, and each event gets `inAdBreakBlock`, `inAdBlock`, `countAds`
/// and the content's `position` before ``HubCore`` processes it: a content tracker's event
/// (its `isAdsTracker` getter answers `false`) its own position, any other event the
/// position of every content tracker in id order, so the highest id wins.
///
/// OpenAVT puts every content tracker's position on every event, in the order of its
/// trackers dictionary, which changes from launch to launch: with one content tracker, as
/// here; with two, a content tracker's own event could get the other's position.
///
/// Faithful to OpenAVT, quirks included: only `End` is blocked inside an ad break (`Stop`
/// and `Next` are not); ad pauses use the tracker's pause flag but add nothing to
/// `accumPauseTime`; an event rejected here never reaches ``HubCore``, so it does not
/// trigger the reset after a finish. Because `playbackId` is renewed at `End`, post-roll
/// ads belong to the next playback id.
public final class HubCoreAds: Hub {
    private let core: HubCore
    private(set) var countAds: Int64 = 0
    private var ownReason: String?

    /// Creates a hub that derives its ids with `idGenerator`.
    public init(idGenerator: any IDGenerator = SequentialIDGenerator()) {
        self.core = HubCore(idGenerator: idGenerator)
    }

    public var rejectionReason: String? { ownReason ?? core.rejectionReason }

    public func instrumentReady(_ instrument: Instrument) {
        core.instrumentReady(instrument)
    }

    public func endOfService() {
        core.endOfService()
    }

    /// `a`: `countAds` (left out at 0); `c`: the core hub's state.
    private enum StateKey: String, CodingKey {
        case countAds = "a", core = "c"
    }

    /// Writes `countAds` and the ``HubCore``'s state (``HubCore/encodeState(to:)``).
    public func encodeState(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StateKey.self)
        if countAds != 0 { try container.encode(countAds, forKey: .countAds) }
        try core.encodeState(to: container.superEncoder(forKey: .core))
    }

    /// Restores what ``encodeState(to:)`` wrote.
    public func decodeState(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: StateKey.self)
        countAds = try container.decodeIfPresent(Int64.self, forKey: .countAds) ?? 0
        try core.decodeState(from: container.superDecoder(forKey: .core))
    }

    public func process(_ event: consuming Event, from tracker: TrackerID, in instrument: Instrument) -> Event? {
        var event = event
        return process(inPlace: &event, from: tracker, in: instrument) ? event : nil
    }

    public func process(inPlace event: inout Event, from tracker: TrackerID, in instrument: Instrument) -> Bool {
        ownReason = checkAds(event, from: tracker, in: instrument)
        if ownReason != nil { return false }

        let state = instrument.state(of: tracker)
        event.stamp(.inAdBreakBlock, .bool(state.inAdBreak))
        event.stamp(.inAdBlock, .bool(state.inAd))
        event.stamp(.countAds, .int(countAds))
        if instrument.useGetter(.position, of: tracker, on: &event, whenGetter: .isAdsTracker, answers: .bool(false)) {
            return core.process(inPlace: &event, from: tracker, in: instrument)
        }
        // By index: iterating the instrument's array retains it, on every event. The count is read
        // each time, in case a getter removes a tracker.
        var position = 0
        while position < instrument.trackerIDs.count {
            instrument.useGetter(
                .position, of: instrument.trackerIDs[position], on: &event, whenGetter: .isAdsTracker,
                answers: .bool(false))
            position += 1
        }
        return core.process(inPlace: &event, from: tracker, in: instrument)
    }

    /// Applies the ad actions to the states; returns `nil` to go on, or why the event is rejected.
    private func checkAds(_ event: Event, from tracker: TrackerID, in instrument: Instrument) -> String? {
        var state = instrument.state(of: tracker)
        switch event.action.standard {
        case .adBreakBegin:
            if state.inAdBreak { return "already in an ad break" }
            setOnAllTrackers(in: instrument) { $0.inAdBreak = true }
        case .adBreakFinish:
            if !state.inAdBreak { return "not in an ad break" }
            setOnAllTrackers(in: instrument) { $0.inAdBreak = false }
        case .adBegin:
            if state.inAd { return "already in an ad" }
            if !state.inAdBreak { return "not in an ad break" }
            setOnAllTrackers(in: instrument) { $0.inAd = true }
            countAds += 1
        case .adFinish:
            if !state.inAd { return "not in an ad" }
            setOnAllTrackers(in: instrument) { $0.inAd = false }
        case .end:
            if state.inAdBreak { return "End inside an ad break" }
        case .adPauseBegin:
            if state.isPaused { return "already paused" }
            if !state.inAd { return "not in an ad" }
            state.isPaused = true
            instrument.setState(state, of: tracker)
        case .adPauseFinish:
            if !state.isPaused { return "not paused" }
            if !state.inAd { return "not in an ad" }
            state.isPaused = false
            instrument.setState(state, of: tracker)
        default:
            break
        }
        return nil
    }

    /// OpenAVT's `setInAdBreakState` and `setInAdState`: the change on every tracker the
    /// instrument has (``TrackerState/instrumentWideFlags``).
    private func setOnAllTrackers(in instrument: Instrument, _ change: (inout TrackerState) -> Void) {
        for trackerID in instrument.trackerIDs {
            var state = instrument.state(of: trackerID)
            change(&state)
            instrument.setState(state, of: trackerID)
        }
    }
}
