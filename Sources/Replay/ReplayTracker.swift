import EventModel
import OpenAVT

/// A tracker that re-emits recorded actions with their recorded attributes.
///
/// It supplies the attributes of its latest record (`suppliedAttributes`): before
/// each emit the replay loads the record with `load(_:)`, so the event gets exactly the
/// recorded attributes, and a hub asking another tracker (as `HubCoreAds` asks for the
/// content `position`) gets that tracker's latest recorded value.
public final class ReplayTracker: Tracker {
    public var trackerID: TrackerID?
    public private(set) var suppliedAttributes = SuppliedAttributes()

    /// Creates a tracker with no record loaded.
    public init() {}

    public func initEvent(_ event: consuming Event) -> Event? {
        event
    }

    public func initEvent(inPlace event: inout Event) -> Bool {
        true
    }

    /// The attributes of the latest loaded record.
    public var latest: Attributes { suppliedAttributes.all }

    /// Keeps the attributes of the latest loaded record: a hub may read them when another
    /// tracker emits (`HubCoreAds` reads the content tracker's `position`).
    public func encodeState(to encoder: any Encoder) throws {
        try SortedAttributes(suppliedAttributes.all).encode(to: encoder)
    }

    public func decodeState(from decoder: any Decoder) throws {
        suppliedAttributes = SuppliedAttributes(PackedAttributes(try SortedAttributes(from: decoder).attributes))
    }

    /// Makes a record's attributes the ones the tracker supplies.
    package func load(_ attributes: PackedAttributes) {
        suppliedAttributes = SuppliedAttributes(attributes)
    }

    /// Makes a record's attributes, given as their packed bytes
    /// (`withPackedBytes(_:)`), the ones the tracker supplies.
    /// They are copied into the memory of the ones they replace when no event holds those
    /// any more.
    package func load(packedBytes: UnsafeRawBufferPointer) {
        suppliedAttributes.replace(withPackedBytes: packedBytes)
    }
}

/// A backend that keeps nothing: the replay reads each emit's `EmitOutcome` instead.
public final class SilentBackend: Backend {
    /// Creates the backend.
    public init() {}
    public func send(_ event: Event) {}
    public func send(_ metric: Metric) {}
    /// Keeps nothing.
    public func encodeState(to encoder: any Encoder) throws {}
    public func decodeState(from decoder: any Decoder) throws {}
}
