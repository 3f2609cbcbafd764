import EventModel
import Marconi
import OpenAVT

/// Replays the records of one Marconi player, in order, and gives its items, trace and metrics.
/// An item's metrics are made when the player's replay ends (``finish()``): an item is
/// complete only then.
///
/// Each item gives, at the time it ended, the gauges `BufferingTime` and `PlayingTime`
/// (milliseconds) and the counters `Errors` and `TrackChanges`, tagged with the player and
/// the item's `station` and `kind` (left out when the meta has none), with the item's
/// `title` as a string field.
struct PlayerReplay {
    private var replay: MarconiPlayerReplay
    private let tracesChanges: Bool

    init(player: String, options: ReplayOptions) {
        replay = MarconiPlayerReplay(player: player)
        tracesChanges = options.includeTrace
    }

    mutating func replay(_ record: borrowing MarconiRecord, into outputs: inout LifeOutputs) {
        if let change = replay.replay(record), tracesChanges {
            outputs.trace.append(.marconi(change))
        }
    }

    /// The player's items, and their metrics.
    mutating func finish() -> (items: [MarconiItemSummary], points: [MetricPoint]) {
        let items = replay.finish()
        var points: [MetricPoint] = []
        for (index, item) in items.enumerated() {
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
                points.append(MetricPoint(metric, from: origin, rowIndex: index))
            }
        }
        return (items, points)
    }
}
