import EventModel
import OpenAVT

/// A tracker that re-emits recorded actions with their recorded attributes.
///
/// Its getters answer with the attributes of the tracker's latest record: before each emit
/// the replay loads the record with ``load(_:into:)``, so the event gets exactly the
/// recorded attributes, and a hub asking another tracker (as ``HubCoreAds`` asks for the
/// content `position`) gets that tracker's latest recorded value. A getter is registered the
/// first time its attribute appears in a record of this tracker.
public final class ReplayTracker: Tracker {
    public var trackerID: TrackerID?
    /// The attributes of the latest loaded record.
    public private(set) var latest: Attributes = [:]
    private var registered: Set<AttributeKey> = []

    /// Creates a tracker with no record loaded.
    public init() {}

    public func initEvent(_ event: consuming Event) -> Event? {
        event
    }

    /// Makes `attributes` the tracker's current values, registering getters for new attributes.
    public func load(_ attributes: Attributes, into instrument: Instrument) {
        latest = attributes
        guard let trackerID else { return }
        guard attributes.keys.contains(where: { !registered.contains($0) }) else { return }
        for key in attributes.keys.sorted() where registered.insert(key).inserted {
            instrument.registerGetter(key, for: trackerID) { [unowned self] in self.latest[key] }
        }
    }
}

/// A backend that keeps nothing: the replay reads each emit's ``EmitOutcome`` instead.
public final class SilentBackend: Backend {
    /// Creates the backend.
    public init() {}
    public func send(_ event: Event) {}
    public func send(_ metric: Metric) {}
}
