import EventModel

/// OpenAVT's hub for content players (`OAVTHubCore`), with the record's time as its clock.
///
/// It accepts each lifecycle event only when it makes sense (one `MediaRequest`, `PlayerSet`
/// and `StreamLoad` per tracker, a `Start` before pauses, `End`/`Stop`/`Next` only after a
/// `Start`, finishes only after their begins), keeps the instrument-wide counters and
/// accumulated times, and stamps every accepted event with them, the block flags, `streamId`,
/// `playbackId` and, while playing, `deltaPlayTime`.
///
/// Faithful to OpenAVT, quirks included:
/// - counters, accumulated times and ids belong to the hub, so to the instrument, not to a tracker;
///   `deltaPlayTime` counts from the last event the hub accepted from any tracker;
/// - `didMediaRequest`, `didPlayerSet` and `didStreamLoad` are never reset, so a second playback
///   on a tracker has its `MediaRequest` and `StreamLoad` rejected;
/// - the reset after `End`/`Stop`/`Next` happens on the next event, even one then rejected;
/// - `playbackId` is renewed when `End`/`Stop`/`Next` is accepted;
/// - a `*Finish` whose `timeSince*Begin` is missing (or not an integer) adds 0 where OpenAVT
///   would crash on a forced cast.
///
/// Its state (``encodeState(to:)``) is its counters, accumulated times, block flags, ids,
/// the time of the last accepted event and its id generator, which must be a
/// ``SequentialIDGenerator``.
public final class HubCore: Hub {
    private(set) var countErrors: Int64 = 0
    private(set) var countStarts: Int64 = 0
    private(set) var accumPauseTime: Int64 = 0
    private(set) var accumSeekTime: Int64 = 0
    private(set) var accumBufferTime: Int64 = 0
    private var lastBufferBeginInPauseBlock = false
    private var lastBufferBeginInSeekBlock = false
    private var streamID: String? {
        didSet { sharedIDs = nil }
    }
    private var playbackID: String? {
        didSet { sharedIDs = nil }
    }
    /// Both ids in the object the events stamped with them share, made when first stamped.
    private var sharedIDs: HubIDs?
    private var lastAcceptedTimestamp = Timestamp(milliseconds: 0)
    private var idGenerator: any IDGenerator
    private var instrumentID = ""

    public private(set) var rejectionReason: String?

    /// Creates a hub that derives its ids with `idGenerator`.
    public init(idGenerator: any IDGenerator = SequentialIDGenerator()) {
        self.idGenerator = idGenerator
    }

    public func instrumentReady(_ instrument: Instrument) {
        instrumentID = instrument.id
    }

    public func process(_ event: consuming Event, from tracker: TrackerID, in instrument: Instrument) -> Event? {
        var event = event
        return process(inPlace: &event, from: tracker, in: instrument) ? event : nil
    }

    public func process(inPlace event: inout Event, from tracker: TrackerID, in instrument: Instrument) -> Bool {
        var state = instrument.state(of: tracker)
        // Playing again after a finish: the reset happens on whatever event comes next.
        if state.didFinish {
            state.didStart = false
            state.isPaused = false
            state.isBuffering = false
            state.isSeeking = false
            state.didFinish = false
        }
        if (event.action.standard == .mediaRequest || event.action.standard == .streamLoad) && playbackID == nil {
            playbackID = idGenerator.makeID(.playback, instrument: instrumentID)
        }
        if state.didStart && !state.isPaused && !state.isSeeking && !state.isBuffering {
            event.stamp(.deltaPlayTime, .int(event.timestamp.milliseconds(since: lastAcceptedTimestamp)))
        }
        let reason = acceptOrReject(event, state: &state)
        instrument.setState(state, of: tracker)
        rejectionReason = reason
        if reason != nil { return false }

        lastAcceptedTimestamp = event.timestamp
        event.stamp(.countErrors, .int(countErrors))
        event.stamp(.countStarts, .int(countStarts))
        event.stamp(.accumPauseTime, .int(accumPauseTime))
        event.stamp(.accumBufferTime, .int(accumBufferTime))
        event.stamp(.accumSeekTime, .int(accumSeekTime))
        // A BufferFinish belongs to the blocks its BufferBegin was in.
        if event.action.standard == .bufferFinish {
            event.stamp(.inPauseBlock, .bool(lastBufferBeginInPauseBlock))
            event.stamp(.inSeekBlock, .bool(lastBufferBeginInSeekBlock))
        } else {
            event.stamp(.inPauseBlock, .bool(state.isPaused))
            event.stamp(.inSeekBlock, .bool(state.isSeeking))
        }
        event.stamp(.inBufferBlock, .bool(state.isBuffering))
        event.stamp(.inPlaybackBlock, .bool(state.didStart && !state.didFinish))
        if streamID != nil || playbackID != nil {
            let ids = sharedIDs ?? HubIDs(streamID: streamID, playbackID: playbackID)
            sharedIDs = ids
            event.stamp(ids: ids)
        }
        if event.action.standard == .end || event.action.standard == .stop || event.action.standard == .next {
            playbackID = idGenerator.makeID(.playback, instrument: instrumentID)
        }
        return true
    }

    /// Changes the state for an event; returns `nil` to accept it, or why it is rejected.
    private func acceptOrReject(_ event: Event, state: inout TrackerState) -> String? {
        switch event.action.standard {
        case .mediaRequest:
            if state.didMediaRequest { return "MediaRequest already seen on this tracker" }
            state.didMediaRequest = true
        case .playerSet:
            if state.didPlayerSet { return "PlayerSet already seen on this tracker" }
            state.didPlayerSet = true
        case .streamLoad:
            if state.didStreamLoad { return "StreamLoad already seen on this tracker" }
            state.didStreamLoad = true
            streamID = idGenerator.makeID(.stream, instrument: instrumentID)
        case .start:
            if state.didStart { return "already started" }
            state.didStart = true
            countStarts += 1
        case .pauseBegin:
            if !state.didStart { return "not started" }
            if state.isPaused { return "already paused" }
            state.isPaused = true
        case .pauseFinish:
            if !state.didStart { return "not started" }
            if !state.isPaused { return "not paused" }
            state.isPaused = false
            accumPauseTime += Self.elapsed(since: .pauseBegin, in: event)
        case .bufferBegin:
            if state.isBuffering { return "already buffering" }
            state.isBuffering = true
            lastBufferBeginInPauseBlock = state.isPaused
            lastBufferBeginInSeekBlock = state.isSeeking
        case .bufferFinish:
            if !state.isBuffering { return "not buffering" }
            state.isBuffering = false
            accumBufferTime += Self.elapsed(since: .bufferBegin, in: event)
        case .seekBegin:
            if state.isSeeking { return "already seeking" }
            state.isSeeking = true
        case .seekFinish:
            if !state.isSeeking { return "not seeking" }
            state.isSeeking = false
            accumSeekTime += Self.elapsed(since: .seekBegin, in: event)
        case .end, .stop, .next:
            if !state.didStart || state.didFinish { return "not started" }
            state.didFinish = true
        case .error:
            countErrors += 1
        default:
            break
        }
        return nil
    }

    /// The time-since attribute of `begin` on the event, or 0 where OpenAVT would crash.
    private static func elapsed(since begin: Action, in event: Event) -> Int64 {
        event.integer(begin.timeAttribute) ?? 0
    }

    // MARK: State

    /// Short keys, counters at 0 and flags off left out: a nightly run keeps every open
    /// instrument's hub.
    private enum StateKey: String, CodingKey {
        case countErrors = "e", countStarts = "n", accumPauseTime = "p", accumSeekTime = "k", accumBufferTime = "b"
        case lastBufferBeginInPauseBlock = "bp", lastBufferBeginInSeekBlock = "bk"
        case streamID = "s", playbackID = "i", lastAcceptedTimestamp = "l", idGenerator = "g"
    }

    /// Writes the counters, accumulated times, block flags, ids, the time of the last accepted
    /// event and the id generator; throws ``ComponentStateError`` when the generator is not a
    /// ``SequentialIDGenerator``. The instrument's id comes back from ``instrumentReady(_:)``,
    /// and ``rejectionReason`` is not kept.
    public func encodeState(to encoder: any Encoder) throws {
        guard let generator = idGenerator as? SequentialIDGenerator else { throw generatorError() }
        var container = encoder.container(keyedBy: StateKey.self)
        for (value, key) in [
            (countErrors, StateKey.countErrors), (countStarts, .countStarts), (accumPauseTime, .accumPauseTime),
            (accumSeekTime, .accumSeekTime), (accumBufferTime, .accumBufferTime),
        ] where value != 0 {
            try container.encode(value, forKey: key)
        }
        if lastBufferBeginInPauseBlock { try container.encode(true, forKey: .lastBufferBeginInPauseBlock) }
        if lastBufferBeginInSeekBlock { try container.encode(true, forKey: .lastBufferBeginInSeekBlock) }
        try container.encodeIfPresent(streamID, forKey: .streamID)
        try container.encodeIfPresent(playbackID, forKey: .playbackID)
        try container.encode(lastAcceptedTimestamp, forKey: .lastAcceptedTimestamp)
        try container.encode(generator, forKey: .idGenerator)
    }

    /// Restores what ``encodeState(to:)`` wrote; the hub's generator must be a
    /// ``SequentialIDGenerator``, which the saved one replaces.
    public func decodeState(from decoder: any Decoder) throws {
        guard idGenerator is SequentialIDGenerator else { throw generatorError() }
        let container = try decoder.container(keyedBy: StateKey.self)
        countErrors = try container.decodeIfPresent(Int64.self, forKey: .countErrors) ?? 0
        countStarts = try container.decodeIfPresent(Int64.self, forKey: .countStarts) ?? 0
        accumPauseTime = try container.decodeIfPresent(Int64.self, forKey: .accumPauseTime) ?? 0
        accumSeekTime = try container.decodeIfPresent(Int64.self, forKey: .accumSeekTime) ?? 0
        accumBufferTime = try container.decodeIfPresent(Int64.self, forKey: .accumBufferTime) ?? 0
        lastBufferBeginInPauseBlock =
            try container.decodeIfPresent(Bool.self, forKey: .lastBufferBeginInPauseBlock) ?? false
        lastBufferBeginInSeekBlock =
            try container.decodeIfPresent(Bool.self, forKey: .lastBufferBeginInSeekBlock) ?? false
        streamID = try container.decodeIfPresent(String.self, forKey: .streamID)
        playbackID = try container.decodeIfPresent(String.self, forKey: .playbackID)
        lastAcceptedTimestamp = try container.decode(Timestamp.self, forKey: .lastAcceptedTimestamp)
        idGenerator = try container.decode(SequentialIDGenerator.self, forKey: .idGenerator)
    }

    private func generatorError() -> ComponentStateError {
        let name = String(describing: type(of: idGenerator))
        return ComponentStateError(
            component: name,
            message: "the id generator \(name) of the hub HubCore cannot keep its state for --state: use "
                + "SequentialIDGenerator, or a hub that implements encodeState(to:) and decodeState(from:) "
                + "(docs/library.md, \"Nightly runs\")")
    }
}
