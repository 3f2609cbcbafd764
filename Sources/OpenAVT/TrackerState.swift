import EventModel

/// The flags a hub keeps for one tracker (OpenAVT's `OAVTState`).
///
/// The instrument owns one state per tracker; hubs read and change it through
/// ``Instrument/state(of:)`` and ``Instrument/setState(_:of:)``. `Codable` for the
/// instrument's state (``Instrument/encodeState(to:)``).
public struct TrackerState: Hashable, Sendable, Codable {
    public var didMediaRequest = false
    public var didPlayerSet = false
    public var didStreamLoad = false
    public var didStart = false
    public var isBuffering = false
    public var isPaused = false
    public var isSeeking = false
    public var didFinish = false
    public var inAdBreak = false
    public var inAd = false

    /// Creates a state with every flag off.
    public init() {}
}
