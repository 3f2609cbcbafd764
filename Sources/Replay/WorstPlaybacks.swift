import EventModel

/// The playbacks that went worst, for `report.html`: a fixed number of them, kept as lives end.
///
/// Only playbacks with an error or with rebuffer time are candidates. They rank by, in turn:
/// most errors, most rebuffer time, highest rebuffer percentage (rebuffer time over play plus
/// rebuffer time), earliest `first_ts`, and `playback_id` in byte order; ids are unique, so the
/// ranking is total and does not depend on the order lives end in. Memory is the kept
/// playbacks only.
public struct WorstPlaybacks: Sendable {
    /// How many playbacks are kept.
    public let limit: Int
    /// The kept playbacks, worst first.
    public private(set) var ranked: [PlaybackSummary] = []

    public init(limit: Int = 10) {
        self.limit = max(0, limit)
    }

    /// Considers the playbacks of a closed session.
    public mutating func add(_ report: SessionReport) {
        for playback in report.playbacks { consider(playback) }
    }

    private mutating func consider(_ playback: PlaybackSummary) {
        guard playback.errors > 0 || playback.rebufferTime > 0 else { return }
        if ranked.count == limit, let last = ranked.last, !Self.ranksBefore(playback, last) { return }
        let index = ranked.firstIndex { Self.ranksBefore(playback, $0) } ?? ranked.endIndex
        ranked.insert(playback, at: index)
        if ranked.count > limit { ranked.removeLast() }
    }

    /// A kept playback as a shard's `summary.state` holds it: what the ranking and
    /// `report.html` read.
    public struct Entry: Codable, Sendable {
        var instrument: String
        var tracker: Int
        var playbackID: String
        var title: String?
        var firstTimestamp: Int64
        var startup: Int64?
        var playTime: Int64
        var rebuffers: Int64
        var rebufferTime: Int64
        var errors: Int64
        var endAction: String?
        var didStart: Bool
        var hasContentEvents: Bool
        var timedOut: Bool

        private enum CodingKeys: String, CodingKey {
            case instrument, tracker, playbackID, title, firstTimestamp, startup, playTime, rebuffers, rebufferTime
            case errors, endAction, didStart, hasContentEvents, timedOut
        }
    }

    /// The kept playbacks, to merge with other shards' (``merge(_:)``).
    public var state: [Entry] {
        ranked.map { playback in
            Entry(
                instrument: playback.instrument, tracker: playback.tracker, playbackID: playback.playbackID,
                title: playback.title, firstTimestamp: playback.firstTimestamp.milliseconds,
                startup: playback.startup, playTime: playback.playTime, rebuffers: playback.rebuffers,
                rebufferTime: playback.rebufferTime, errors: playback.errors, endAction: playback.endAction,
                didStart: playback.didStart, hasContentEvents: playback.hasContentEvents, timedOut: playback.timedOut)
        }
    }

    /// Adds another shard's kept playbacks: the ranking is total, so the merged ones are those
    /// one run over all shards' playbacks keeps.
    public mutating func merge(_ entries: [Entry]) {
        for entry in entries {
            var playback = PlaybackSummary(
                instrument: entry.instrument, tracker: entry.tracker, playbackID: entry.playbackID,
                firstTimestamp: Timestamp(milliseconds: entry.firstTimestamp))
            playback.title = entry.title
            playback.startup = entry.startup
            playback.playTime = entry.playTime
            playback.rebuffers = entry.rebuffers
            playback.rebufferTime = entry.rebufferTime
            playback.errors = entry.errors
            playback.endAction = entry.endAction
            playback.didStart = entry.didStart
            playback.hasContentEvents = entry.hasContentEvents
            playback.timedOut = entry.timedOut
            consider(playback)
        }
    }

    /// Whether `a` is worse than `b` (comes first in the ranking).
    public static func ranksBefore(_ a: PlaybackSummary, _ b: PlaybackSummary) -> Bool {
        if a.errors != b.errors { return a.errors > b.errors }
        if a.rebufferTime != b.rebufferTime { return a.rebufferTime > b.rebufferTime }
        // With equal rebuffer time, the higher percentage is the shorter watch time (which includes it).
        if a.rebufferTime > 0 && a.watchTime != b.watchTime { return a.watchTime < b.watchTime }
        if a.firstTimestamp != b.firstTimestamp { return a.firstTimestamp < b.firstTimestamp }
        return a.playbackID.precedesInUTF8Order(b.playbackID)
    }
}

extension PlaybackSummary {
    /// Play time plus rebuffer time: the time watched, as `summary.csv` counts it.
    public var watchTime: Int64 { playTime + rebufferTime }
}

extension WorstPlaybacks.Entry {
    /// Decodes what the synthesized `encode(to:)` writes; refuses (`dataCorrupted`) a time
    /// outside `StoredRange/times`, a count outside `StoredRange/counts`, a duration
    /// outside `StoredRange/sums`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func number(_ key: CodingKeys, _ range: ClosedRange<Int64>) throws -> Int64? {
            try container.decodeStoredIfPresent(key, in: range)
        }
        func required(_ key: CodingKeys, _ range: ClosedRange<Int64>) throws -> Int64 {
            guard let value = try number(key, range) else {
                throw DecodingError.keyNotFound(
                    key, .init(codingPath: container.codingPath, debugDescription: "no \(key.stringValue)"))
            }
            return value
        }
        instrument = try container.decode(String.self, forKey: .instrument)
        tracker = Int(try required(.tracker, 0...Int64(AVTRecord.trackerRange.upperBound)))
        playbackID = try container.decode(String.self, forKey: .playbackID)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        firstTimestamp = try required(.firstTimestamp, StoredRange.times)
        startup = try number(.startup, StoredRange.sums)
        playTime = try required(.playTime, StoredRange.sums)
        rebuffers = try required(.rebuffers, StoredRange.counts)
        rebufferTime = try required(.rebufferTime, StoredRange.sums)
        errors = try required(.errors, StoredRange.counts)
        endAction = try container.decodeIfPresent(String.self, forKey: .endAction)
        didStart = try container.decode(Bool.self, forKey: .didStart)
        hasContentEvents = try container.decode(Bool.self, forKey: .hasContentEvents)
        timedOut = try container.decode(Bool.self, forKey: .timedOut)
    }
}
