import EventModel
import OpenAVT

extension Metric {
    /// A custom metric: milliseconds from a playback's previous quality change to this one.
    static func timeBetweenQualityChanges(_ value: Int64) -> Metric {
        Metric(name: "TimeBetweenQualityChanges", kind: .gauge, value: .int(value))
    }
}

/// ``MetricalcCore``'s metrics, then `TimeBetweenQualityChanges` on every quality change
/// (`QualityChangeUp` or `QualityChangeDown`) after the first of its playback: OpenAVT's
/// README example, with the event's time as the clock instead of the wall clock.
final class TimeBetweenQualityChanges: Metricalc {
    private let core = MetricalcCore()
    private var lastChangeByPlayback: [String: Timestamp] = [:]

    func metrics(for event: Event, from tracker: TrackerID, in instrument: Instrument) -> [Metric] {
        var metrics = core.metrics(for: event, from: tracker, in: instrument)
        guard event.action == .qualityChangeUp || event.action == .qualityChangeDown else { return metrics }
        let playback = event[.playbackId]?.string ?? ""
        if let last = lastChangeByPlayback[playback] {
            metrics.append(.timeBetweenQualityChanges(event.timestamp.milliseconds(since: last)))
        }
        lastChangeByPlayback[playback] = event.timestamp
        return metrics
    }

    // A nightly run (`--state`) keeps each open instrument's metricalc: each playback's last
    // change, sorted (`MetricalcCore` keeps nothing between events).
    private struct LastChange: Codable {
        var playback: String
        var time: Timestamp
    }

    func encodeState(to encoder: any Encoder) throws {
        let changes = lastChangeByPlayback.sorted { $0.key < $1.key }.map {
            LastChange(playback: $0.key, time: $0.value)
        }
        try changes.encode(to: encoder)
    }

    func decodeState(from decoder: any Decoder) throws {
        let changes = try [LastChange](from: decoder)
        lastChangeByPlayback = Dictionary(uniqueKeysWithValues: changes.map { ($0.playback, $0.time) })
    }
}
