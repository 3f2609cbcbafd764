import EventModel
import Marconi
import Replay

/// Everything a replay produced, in the order it was handed over, for tests.
public struct CollectedReplay {
    public var reports: [SessionReport] = []
    /// How many records came too late to be replayed.
    public var lateRecords = 0
    public var playbacks: [PlaybackSummary] { reports.flatMap(\.playbacks) }
    public var vpSessions: [VPSessionSummary] { reports.flatMap(\.vpSessions) }
    public var marconiItems: [MarconiItemSummary] { reports.flatMap(\.marconiItems) }
    public var trace: [TraceLine] { reports.flatMap(\.trace) }
    public var points: [MetricPoint] { reports.flatMap(\.points) }

    /// Replays records, each with its position, in event-time order (`EventTimeMerge`: an
    /// input per file rank, whose records may come in any order), then ends every life: those
    /// of `shard`, shared among `engines` engines (`ReplayEngines`, one after the other).
    public init(
        _ records: [(Record, SourcePosition)], options: ReplayOptions = ReplayOptions(), shard: Shard = .all,
        engines count: Int = 1
    ) {
        let ranks = Array(Set(records.map(\.1.fileRank))).sorted()
        var merge = EventTimeMerge(inputs: ranks.count, maxLateness: .max / 4)
        for (record, position) in records {
            _ = merge.add(record, at: position, from: ranks.firstIndex(of: position.fileRank) ?? 0)
        }
        for input in ranks.indices { merge.end(input) }
        var engines = ReplayEngines(options: options, shard: shard, count: count)
        var advanced = false
        while let out = merge.nextWithPlace() {
            if out.ahead && !advanced, let end = merge.endTime {
                // As the command line does: the clock goes to the stream's end before them.
                reports += engines.advance(to: end)
                advanced = true
            }
            switch engines.add(out.record, at: out.place, movesClock: !out.ahead) {
            case .replayed(let due): reports += due
            case .late(_, _, let due):
                reports += due
                lateRecords += 1
            }
        }
        reports += engines.finish()
    }

    /// Replays records as the lines of one file, then ends every life.
    public init(lines records: [Record], options: ReplayOptions = ReplayOptions()) {
        self.init(records.enumerated().map { ($1, SourcePosition(fileRank: 0, line: $0 + 1)) }, options: options)
    }
}
