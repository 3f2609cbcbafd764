import EventModel
import Marconi
import Replay

/// Everything a replay produced, in the order the sessions closed, for tests.
public struct CollectedReplay {
    public var reports: [SessionReport] = []
    public var playbacks: [PlaybackSummary] { reports.flatMap(\.playbacks) }
    public var vpSessions: [VPSessionSummary] { reports.flatMap(\.vpSessions) }
    public var marconiItems: [MarconiItemSummary] { reports.flatMap(\.marconiItems) }
    public var trace: [TraceLine] { reports.flatMap(\.trace) }
    public var points: [MetricPoint] { reports.flatMap(\.points) }

    /// Replays records, each with its position, then closes every session: those of `shard`.
    public init(
        _ records: [(Record, SourcePosition)], options: ReplayOptions = ReplayOptions(), shard: Shard = .all
    ) {
        var engine = ReplayEngine(options: options, shard: shard)
        for (record, position) in records {
            reports += engine.add(record, at: position).replayed()
        }
        reports += engine.finish().replayed()
    }

    /// Replays records as the lines of one file, in order, then closes every session.
    public init(lines records: [Record], options: ReplayOptions = ReplayOptions()) {
        self.init(records.enumerated().map { ($1, SourcePosition(fileRank: 0, line: $0 + 1)) }, options: options)
    }
}
