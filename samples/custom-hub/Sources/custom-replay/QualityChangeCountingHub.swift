import EventModel
import OpenAVT

extension AttributeKey {
    /// A custom attribute: the quality changes of the event's playback so far, the event's own included.
    static let countQualityChanges: AttributeKey = "countQualityChanges"
}

/// A hub that runs another hub (``HubCoreAds`` or ``HubCore``) and stamps every event it
/// accepts with ``AttributeKey/countQualityChanges``: the `QualityChangeUp` and
/// `QualityChangeDown` events accepted so far in the event's playback (its `playbackId`).
///
/// The wrapped hub decides what is accepted, so every report but the trace (where each event
/// has the new attribute) is the same as with the wrapped hub alone.
final class QualityChangeCountingHub: Hub {
    private let core: any Hub
    private var changesByPlayback: [String: Int64] = [:]

    /// Creates a hub that counts the quality changes `core` accepts.
    init(wrapping core: any Hub) {
        self.core = core
    }

    var rejectionReason: String? { core.rejectionReason }

    func instrumentReady(_ instrument: Instrument) {
        core.instrumentReady(instrument)
    }

    func endOfService() {
        core.endOfService()
    }

    func process(_ event: consuming Event, from tracker: TrackerID, in instrument: Instrument) -> Event? {
        guard var event = core.process(event, from: tracker, in: instrument) else { return nil }
        let playback = event[.playbackId]?.string ?? ""
        if event.action == .qualityChangeUp || event.action == .qualityChangeDown {
            changesByPlayback[playback, default: 0] += 1
        }
        event[.countQualityChanges] = .int(changesByPlayback[playback] ?? 0)
        return event
    }

    // A nightly run (`--state`) keeps each open instrument's hub: the wrapped hub's state and
    // the counts, sorted (a dictionary's order changes from process to process).
    private enum StateKey: String, CodingKey { case core, changes }
    private struct Count: Codable {
        var playback: String
        var changes: Int64
    }

    func encodeState(to encoder: any Encoder) throws {
        var state = encoder.container(keyedBy: StateKey.self)
        try core.encodeState(to: state.superEncoder(forKey: .core))
        let counts = changesByPlayback.sorted { $0.key < $1.key }.map { Count(playback: $0.key, changes: $0.value) }
        try state.encode(counts, forKey: .changes)
    }

    func decodeState(from decoder: any Decoder) throws {
        let state = try decoder.container(keyedBy: StateKey.self)
        try core.decodeState(from: state.superDecoder(forKey: .core))
        let counts = try state.decode([Count].self, forKey: .changes)
        changesByPlayback = Dictionary(uniqueKeysWithValues: counts.map { ($0.playback, $0.changes) })
    }
}
