import EventModel
import OpenAVT

/// A tracker that passes events through and registers an `isAdsTracker` getter
/// (OpenAVT's `DummyTracker` and `DummyAdsTracker`).
public final class StubTracker: Tracker {
    public var trackerID: TrackerID?
    private let isAdsTracker: Bool
    /// The value its `position` getter returns, if set.
    public var position: Int64?

    /// Creates a content tracker, or an ads tracker with `isAdsTracker: true`.
    public init(isAdsTracker: Bool = false) {
        self.isAdsTracker = isAdsTracker
    }

    public func initEvent(_ event: consuming Event) -> Event? {
        event
    }

    public func instrumentReady(_ instrument: Instrument) {
        guard let trackerID else { return }
        let isAds = isAdsTracker
        instrument.registerGetter(.isAdsTracker, for: trackerID) { .bool(isAds) }
        instrument.registerGetter(.position, for: trackerID) { [unowned self] in self.position.map { .int($0) } }
    }

    private enum StateKey: String, CodingKey {
        case position
    }

    /// Writes ``position``; whether it is an ads tracker is how it was made.
    public func encodeState(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StateKey.self)
        try container.encodeIfPresent(position, forKey: .position)
    }

    public func decodeState(from decoder: any Decoder) throws {
        position = try decoder.container(keyedBy: StateKey.self).decodeIfPresent(Int64.self, forKey: .position)
    }
}
