import EventModel

/// The flags a hub keeps for one tracker (OpenAVT's `OAVTState`).
///
/// The instrument owns one state per tracker; hubs read and change it through
/// ``Instrument/state(of:)`` and ``Instrument/setState(_:of:)``. `Codable` for the
/// instrument's state (``Instrument/encodeState(to:)``).
public struct TrackerState: Hashable, Sendable {
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

extension TrackerState {
    /// This state's flags that OpenAVT keeps alike on every tracker of an instrument, the
    /// others off: `inAdBreak` and `inAd`, which ``HubCoreAds`` sets on all the instrument's
    /// trackers at once (`OAVTHubCoreAds`' `setInAdBreakState` and `setInAdState` go over
    /// `getTrackers()`); ``HubCore`` sets no flag so.
    ///
    /// A tracker the app added before `ready()` got them with the others: a replay gives a
    /// tracker it adds after the instrument's first record those of a tracker already there.
    package var instrumentWideFlags: TrackerState {
        var shared = TrackerState()
        shared.inAdBreak = inAdBreak
        shared.inAd = inAd
        return shared
    }
}

/// As an instrument's state keeps it: the names of the flags that are on, in declaration order.
extension TrackerState: Codable {
    private static let flagNames = [
        "didMediaRequest", "didPlayerSet", "didStreamLoad", "didStart", "isBuffering", "isPaused", "isSeeking",
        "didFinish", "inAdBreak", "inAd",
    ]

    /// The flags, in the order of ``flagNames``.
    private var flags: [Bool] {
        [
            didMediaRequest, didPlayerSet, didStreamLoad, didStart, isBuffering, isPaused, isSeeking, didFinish,
            inAdBreak, inAd,
        ]
    }

    private mutating func setFlag(at index: Int) {
        switch index {
        case 0: didMediaRequest = true
        case 1: didPlayerSet = true
        case 2: didStreamLoad = true
        case 3: didStart = true
        case 4: isBuffering = true
        case 5: isPaused = true
        case 6: isSeeking = true
        case 7: didFinish = true
        case 8: inAdBreak = true
        default: inAd = true
        }
    }

    public init(from decoder: any Decoder) throws {
        self.init()
        var names = try decoder.unkeyedContainer()
        while !names.isAtEnd {
            let name = try names.decode(String.self)
            guard let index = Self.flagNames.firstIndex(of: name) else {
                throw DecodingError.dataCorruptedError(in: names, debugDescription: "no tracker flag \(name)")
            }
            setFlag(at: index)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var names = encoder.unkeyedContainer()
        for (name, isOn) in zip(Self.flagNames, flags) where isOn { try names.encode(name) }
    }
}
