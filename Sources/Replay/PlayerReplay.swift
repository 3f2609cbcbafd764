import EventModel
import Marconi
import OpenAVT

/// Replays the records of one Marconi player, in order, and gives its items, trace and metrics.
/// An item is final when the next item starts or an error ends it (``takeFinalRows()``), or
/// when the player's life ends (``finish()``); its metrics are made then.
///
/// Each item gives, at the time it ended, the gauges `BufferingTime` and `PlayingTime`
/// (milliseconds) and the counters `Errors` and `TrackChanges`, tagged with the player and
/// the item's `station` and `kind` (left out when the meta has none), with the item's
/// `title` as a string field. Items are numbered per player life, from 0 in the order they
/// started: their points name their row by that number (``MetricPoint/rowIndex``).
struct PlayerReplay {
    private var replay: MarconiPlayerReplay
    private let tracesChanges: Bool
    /// The items made final and not taken yet, with their numbers.
    private var final: [(row: Int, summary: MarconiItemSummary)] = []
    /// The number the next final item gets.
    private var nextRow = 0

    init(player: String, options: ReplayOptions) {
        replay = MarconiPlayerReplay(player: player)
        tracesChanges = options.includeTrace
    }

    mutating func replay(_ record: borrowing MarconiRecord, into outputs: inout LifeOutputs) {
        if let change = replay.replay(record), tracesChanges {
            outputs.trace.append(.marconi(change))
        }
        let ended = replay.takeEndedItems()
        if !ended.isEmpty { add(ended, into: &outputs.points) }
    }

    /// Takes the items made final since the last call, with their numbers.
    mutating func takeFinalRows() -> [(row: Int, summary: MarconiItemSummary)] {
        defer { final = [] }
        return final
    }

    /// Ends the player's life: its last item, with its metrics.
    mutating func finish() -> (items: [(row: Int, summary: MarconiItemSummary)], points: [MetricPoint]) {
        var points: [MetricPoint] = []
        add(replay.finish(), into: &points)
        return (takeFinalRows(), points)
    }

    /// Makes items final, and their metrics.
    private mutating func add(_ items: [MarconiItemSummary], into points: inout [MetricPoint]) {
        for item in items {
            let row = nextRow
            nextRow += 1
            final.append((row, item))
            var tags = [MetricTag("player", item.player)]
            if let station = item.station { tags.append(MetricTag("station", station)) }
            if let kind = item.kind { tags.append(MetricTag("kind", kind)) }
            let metrics = [
                Metric(name: "BufferingTime", kind: .gauge, value: .int(item.bufferingTime)),
                Metric(name: "PlayingTime", kind: .gauge, value: .int(item.playingTime)),
                Metric(name: "Errors", kind: .counter, value: .int(item.errors)),
                Metric(name: "TrackChanges", kind: .counter, value: .int(item.trackChanges)),
            ]
            let origin = MetricOrigin(
                system: .marconi, source: item.player, tags: tags,
                path: [item.station ?? "unknown", item.kind ?? "unknown", item.player],
                stringFields: item.title.map { [MetricTag("title", $0)] } ?? [])
            for var metric in metrics {
                metric.timestamp = item.lastTimestamp
                points.append(MetricPoint(metric, from: origin, rowIndex: row))
            }
        }
    }

    /// The time the current item started, if one is playing.
    var earliestOpenRow: Timestamp? { replay.currentItemStart }
}

extension PlayerReplay {
    /// Keys of the replay's state: Marconi's replay (`r`, its player and current item) and the
    /// next item's number (`n`). The items made final were handed over before a state is saved.
    private enum CodingKeys: String, CodingKey {
        case replay = "r", nextRow = "n"
    }

    func encodeState(to encoder: any Encoder) throws {
        var state = encoder.container(keyedBy: CodingKeys.self)
        try state.encode(replay, forKey: .replay)
        try state.encode(nextRow, forKey: .nextRow)
    }

    /// A replay as a state file kept it.
    init(restoring decoder: any Decoder, options: ReplayOptions) throws {
        let state = try decoder.container(keyedBy: CodingKeys.self)
        replay = try state.decode(MarconiPlayerReplay.self, forKey: .replay)
        nextRow = try state.decode(Int.self, forKey: .nextRow)
        tracesChanges = options.includeTrace
    }
}
