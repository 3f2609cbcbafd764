import EventModel
import OpenAVT

/// One row of `playbacks.csv`: what happened in one OpenAVT playback (one `playbackId`).
///
/// Values are per playback, not the instrument-wide running counters: the time and count
/// columns add up the increases of the hub's counters (`accumPauseTime`, `countErrors`, ...)
/// on the accepted events that carry this `playbackId`, and the metrics computed for them.
public struct PlaybackSummary: Hashable, Sendable {
    public var instrument: String
    /// The tracker of the playback's first accepted event.
    public var tracker: TrackerID
    public var playbackID: String
    /// The first `streamId` seen on the playback's events.
    public var streamID: String?
    public var firstTimestamp: Timestamp
    public var lastTimestamp: Timestamp
    /// The first `title` seen on the playback's non-ad events.
    public var title: String?
    /// The first `source` seen on the playback's non-ad events.
    public var source: String?
    /// Whether a `Start` was accepted.
    public var didStart = false
    /// The `StartTime` metric, if one was computed (OpenAVT's, counted from the instrument's
    /// first accepted `MediaRequest`, so from the first playback's request on later playbacks).
    public var startTime: Int64?
    /// `startup_ms`: from this playback's own request to its `Start`, if it started. The request
    /// is the latest `MediaRequest` record of the starting tracker since that tracker's previous
    /// `Start`, `End`, `Stop` or `Next`, whether the hub accepted it or rejected it as a repeat;
    /// without one, the playback's first event.
    public var startup: Int64?
    /// Sum of the `PlayTime` metrics.
    public var playTime: Int64 = 0
    /// Increase of `accumPauseTime`.
    public var pauseTime: Int64 = 0
    /// Increase of `accumSeekTime`.
    public var seekTime: Int64 = 0
    /// Increase of `accumBufferTime`: all buffering, initial and in seeks and pauses included.
    public var bufferTime: Int64 = 0
    /// Buffering blocks that finished (accepted `BufferFinish`): initial, in seeks and pauses,
    /// and rebuffers.
    public var buffers: Int64 = 0
    /// Count of `NumRebuffers` metrics.
    public var rebuffers: Int64 = 0
    /// Sum of the `RebufferTime` metrics.
    public var rebufferTime: Int64 = 0
    /// Increase of `countErrors`.
    public var errors: Int64 = 0
    /// Increase of `countAds`.
    public var ads: Int64 = 0
    /// Accepted `QualityChangeUp` and `QualityChangeDown` events.
    public var qualityChanges: Int64 = 0
    /// `End`, `Stop` or `Next`, or `nil` when the log ended first.
    public var endAction: String?
    /// Whether any event of the playback was not an ad action.
    public var hasContentEvents = false
    /// Whether the playback had not ended when its instrument's life ended by the idle gap.
    public var timedOut = false
    /// The first known bitrate (a positive `bitrate`) on the playback's non-ad events, in bits per second.
    public var initialBitrate: Int64?
    /// Play time (the `PlayTime` metrics) while the bitrate was known: the denominator of the average bitrate.
    public var bitrateTime: Int64 = 0
    /// The sum, over the same `PlayTime` metrics, of the bitrate times the play time, in bit-milliseconds.
    public var bitMilliseconds: Int128 = 0
    /// Play time at a bitrate above ``initialBitrate``.
    public var upscaleTime: Int64 = 0
    /// Play time at a bitrate below ``initialBitrate``.
    public var downscaleTime: Int64 = 0
    /// Accepted `Error`s before the playback's `Start`, or at most ``initialErrorWindow`` after it.
    public var initialErrors: Int64 = 0
    /// Accepted `Error`s more than ``initialErrorWindow`` after the playback's `Start`.
    public var midstreamErrors: Int64 = 0
    /// The first value of each `--group-by` attribute on the playback's non-ad events.
    public var groupAttributes: [AttributeKey: AttributeValue] = [:]

    /// How long after `Start` an error still counts as initial, in milliseconds: OpenAVT's
    /// "common threshold" of one second (OpenAVT-Docs, section 5.9).
    public static let initialErrorWindow: Int64 = 1_000

    /// Creates an empty summary.
    public init(instrument: String, tracker: TrackerID, playbackID: String, firstTimestamp: Timestamp) {
        self.instrument = instrument
        self.tracker = tracker
        self.playbackID = playbackID
        self.firstTimestamp = firstTimestamp
        self.lastTimestamp = firstTimestamp
    }

    /// A playback that never started, had no error and was not ads only.
    public var isExitBeforeStart: Bool {
        !didStart && errors == 0 && hasContentEvents
    }

    /// A playback that never started and had an error (and was not ads only).
    public var isStartFailure: Bool {
        !didStart && errors > 0 && hasContentEvents
    }
}

extension PlaybackSummary: Codable {
    /// Short keys (a `--state` file holds every open playback of a night); values still at
    /// their default are left out.
    private enum CodingKeys: String, CodingKey {
        case instrument = "i", tracker = "t", playbackID = "p", streamID = "s", firstTimestamp = "f"
        case lastTimestamp = "l", title = "ti", source = "so", didStart = "ds", startTime = "st"
        case startup = "su", playTime = "pt", pauseTime = "pa", seekTime = "se", bufferTime = "bt"
        case buffers = "b", rebuffers = "r", rebufferTime = "rt", errors = "e", ads = "a"
        case qualityChanges = "q", endAction = "ea", hasContentEvents = "c", timedOut = "to"
        case initialBitrate = "ib", bitrateTime = "brt", bitMilliseconds = "bm", upscaleTime = "up"
        case downscaleTime = "dn", initialErrors = "ie", midstreamErrors = "me", groupAttributes = "g"
    }

    public init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            instrument: try row.decode(String.self, forKey: .instrument),
            tracker: try row.decode(TrackerID.self, forKey: .tracker),
            playbackID: try row.decode(String.self, forKey: .playbackID),
            firstTimestamp: try row.decode(Timestamp.self, forKey: .firstTimestamp))
        streamID = try row.decodeIfPresent(String.self, forKey: .streamID)
        lastTimestamp = try row.decode(Timestamp.self, forKey: .lastTimestamp)
        title = try row.decodeIfPresent(String.self, forKey: .title)
        source = try row.decodeIfPresent(String.self, forKey: .source)
        didStart = try row.decode(Bool.self, orFalseFor: .didStart)
        startTime = try row.decodeIfPresent(Int64.self, forKey: .startTime)
        startup = try row.decodeIfPresent(Int64.self, forKey: .startup)
        playTime = try row.decode(Int64.self, orZeroFor: .playTime)
        pauseTime = try row.decode(Int64.self, orZeroFor: .pauseTime)
        seekTime = try row.decode(Int64.self, orZeroFor: .seekTime)
        bufferTime = try row.decode(Int64.self, orZeroFor: .bufferTime)
        buffers = try row.decode(Int64.self, orZeroFor: .buffers)
        rebuffers = try row.decode(Int64.self, orZeroFor: .rebuffers)
        rebufferTime = try row.decode(Int64.self, orZeroFor: .rebufferTime)
        errors = try row.decode(Int64.self, orZeroFor: .errors)
        ads = try row.decode(Int64.self, orZeroFor: .ads)
        qualityChanges = try row.decode(Int64.self, orZeroFor: .qualityChanges)
        endAction = try row.decodeIfPresent(String.self, forKey: .endAction)
        hasContentEvents = try row.decode(Bool.self, orFalseFor: .hasContentEvents)
        timedOut = try row.decode(Bool.self, orFalseFor: .timedOut)
        initialBitrate = try row.decodeIfPresent(Int64.self, forKey: .initialBitrate)
        bitrateTime = try row.decode(Int64.self, orZeroFor: .bitrateTime)
        if let text = try row.decodeIfPresent(String.self, forKey: .bitMilliseconds) {
            guard let value = Int128(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .bitMilliseconds, in: row, debugDescription: "not an integer: \(text)")
            }
            bitMilliseconds = value
        }
        upscaleTime = try row.decode(Int64.self, orZeroFor: .upscaleTime)
        downscaleTime = try row.decode(Int64.self, orZeroFor: .downscaleTime)
        initialErrors = try row.decode(Int64.self, orZeroFor: .initialErrors)
        midstreamErrors = try row.decode(Int64.self, orZeroFor: .midstreamErrors)
        groupAttributes = try row.decodeIfPresent(SortedAttributes.self, forKey: .groupAttributes)?.attributes ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var row = encoder.container(keyedBy: CodingKeys.self)
        try row.encode(instrument, forKey: .instrument)
        try row.encode(tracker, forKey: .tracker)
        try row.encode(playbackID, forKey: .playbackID)
        try row.encodeIfPresent(streamID, forKey: .streamID)
        try row.encode(firstTimestamp, forKey: .firstTimestamp)
        try row.encode(lastTimestamp, forKey: .lastTimestamp)
        try row.encodeIfPresent(title, forKey: .title)
        try row.encodeIfPresent(source, forKey: .source)
        try row.encode(didStart, ifTrueFor: .didStart)
        try row.encodeIfPresent(startTime, forKey: .startTime)
        try row.encodeIfPresent(startup, forKey: .startup)
        try row.encode(playTime, ifNotZeroFor: .playTime)
        try row.encode(pauseTime, ifNotZeroFor: .pauseTime)
        try row.encode(seekTime, ifNotZeroFor: .seekTime)
        try row.encode(bufferTime, ifNotZeroFor: .bufferTime)
        try row.encode(buffers, ifNotZeroFor: .buffers)
        try row.encode(rebuffers, ifNotZeroFor: .rebuffers)
        try row.encode(rebufferTime, ifNotZeroFor: .rebufferTime)
        try row.encode(errors, ifNotZeroFor: .errors)
        try row.encode(ads, ifNotZeroFor: .ads)
        try row.encode(qualityChanges, ifNotZeroFor: .qualityChanges)
        try row.encodeIfPresent(endAction, forKey: .endAction)
        try row.encode(hasContentEvents, ifTrueFor: .hasContentEvents)
        try row.encode(timedOut, ifTrueFor: .timedOut)
        try row.encodeIfPresent(initialBitrate, forKey: .initialBitrate)
        try row.encode(bitrateTime, ifNotZeroFor: .bitrateTime)
        if bitMilliseconds != 0 { try row.encode(String(bitMilliseconds), forKey: .bitMilliseconds) }
        try row.encode(upscaleTime, ifNotZeroFor: .upscaleTime)
        try row.encode(downscaleTime, ifNotZeroFor: .downscaleTime)
        try row.encode(initialErrors, ifNotZeroFor: .initialErrors)
        try row.encode(midstreamErrors, ifNotZeroFor: .midstreamErrors)
        if !groupAttributes.isEmpty { try row.encode(SortedAttributes(groupAttributes), forKey: .groupAttributes) }
    }
}
