/// The playbacks that went worst, for `report.html`: a fixed number of them, kept as sessions close.
///
/// Only playbacks with an error or with rebuffer time are candidates. They rank by, in turn:
/// most errors, most rebuffer time, highest rebuffer percentage (rebuffer time over play plus
/// rebuffer time), earliest `first_ts`, and `playback_id` in byte order; ids are unique, so the
/// ranking is total and does not depend on the order sessions close in. Memory is the kept
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
        for playback in report.playbacks where playback.errors > 0 || playback.rebufferTime > 0 {
            if ranked.count == limit, let last = ranked.last, !Self.ranksBefore(playback, last) { continue }
            let index = ranked.firstIndex { Self.ranksBefore(playback, $0) } ?? ranked.endIndex
            ranked.insert(playback, at: index)
            if ranked.count > limit { ranked.removeLast() }
        }
    }

    /// Whether `a` is worse than `b` (comes first in the ranking).
    public static func ranksBefore(_ a: PlaybackSummary, _ b: PlaybackSummary) -> Bool {
        if a.errors != b.errors { return a.errors > b.errors }
        if a.rebufferTime != b.rebufferTime { return a.rebufferTime > b.rebufferTime }
        // With equal rebuffer time, the higher percentage is the shorter watch time (which includes it).
        if a.rebufferTime > 0 && a.watchTime != b.watchTime { return a.watchTime < b.watchTime }
        if a.firstTimestamp != b.firstTimestamp { return a.firstTimestamp < b.firstTimestamp }
        return a.playbackID.utf8.lexicographicallyPrecedes(b.playbackID.utf8)
    }
}

extension PlaybackSummary {
    /// Play time plus rebuffer time: the time watched, as `summary.csv` counts it.
    public var watchTime: Int64 { playTime + rebufferTime }
}
