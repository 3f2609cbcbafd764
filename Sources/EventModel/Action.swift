/// What happened, as a tracker reports it: `Start`, `BufferBegin`, `AdBegin` or a custom name.
///
/// Every action has a time-since attribute, `timeSince` followed by its name unless
/// another is given; the instrument stamps it on later events with the milliseconds
/// elapsed since the last event with this action left the chain. Two actions are
/// equal when their names are, as in OpenAVT.
///
/// Hubs switch over an event's action on every event: an action keeps a digest of its name
/// and compares that first, knows whether it is an ad action, and which of OpenAVT's it is, so
/// that a hub switches over ``standard`` rather than comparing with each of OpenAVT's
/// actions in turn.
public struct Action: Hashable, Sendable {
    /// The action's name, upper camel case by convention.
    public let name: String
    /// The attribute that carries the time since this action last happened.
    public let timeAttribute: AttributeKey
    /// Whether this is one of OpenAVT's ad actions (``adActions``).
    public let isAdAction: Bool
    /// Which of OpenAVT's actions this is, by name; `nil` for a custom one.
    public let standard: Standard?
    private let digest: UInt64

    /// The actions OpenAVT defines, by name: `switch action.standard { case .start: ... }`.
    public enum Standard: String, Sendable, CaseIterable {
        case trackerInit = "TrackerInit", mediaRequest = "MediaRequest", playerSet = "PlayerSet"
        case playerReady = "PlayerReady", prepareItem = "PrepareItem", manifestLoad = "ManifestLoad"
        case streamLoad = "StreamLoad", start = "Start", bufferBegin = "BufferBegin"
        case bufferFinish = "BufferFinish", seekBegin = "SeekBegin", seekFinish = "SeekFinish"
        case pauseBegin = "PauseBegin", pauseFinish = "PauseFinish", forwardBegin = "ForwardBegin"
        case forwardFinish = "ForwardFinish", rewindBegin = "RewindBegin", rewindFinish = "RewindFinish"
        case qualityChangeUp = "QualityChangeUp", qualityChangeDown = "QualityChangeDown", stop = "Stop"
        case end = "End", next = "Next", error = "Error", ping = "Ping", adBreakBegin = "AdBreakBegin"
        case adBreakFinish = "AdBreakFinish", adBegin = "AdBegin", adFinish = "AdFinish"
        case adPauseBegin = "AdPauseBegin", adPauseFinish = "AdPauseFinish", adBufferBegin = "AdBufferBegin"
        case adBufferFinish = "AdBufferFinish", adSkip = "AdSkip", adClick = "AdClick"
        case adFirstQuartile = "AdFirstQuartile", adSecondQuartile = "AdSecondQuartile"
        case adThirdQuartile = "AdThirdQuartile", adError = "AdError"

        /// Whether this is one of the ad actions, from `AdBreakBegin` to `AdError`.
        public var isAd: Bool {
            switch self {
            case .adBreakBegin, .adBreakFinish, .adBegin, .adFinish, .adPauseBegin, .adPauseFinish, .adBufferBegin,
                .adBufferFinish, .adSkip, .adClick, .adFirstQuartile, .adSecondQuartile, .adThirdQuartile, .adError:
                return true
            default:
                return false
            }
        }
    }

    /// Creates an action whose time attribute is `timeSince<name>`.
    public init(name: String) {
        self.init(name: name, timeAttribute: AttributeKey("timeSince" + name))
    }

    /// Creates an action with a custom time attribute.
    public init(name: String, timeAttribute: AttributeKey) {
        self.name = name
        self.timeAttribute = timeAttribute
        self.standard = Standard(rawValue: name)
        self.isAdAction = standard?.isAd ?? false
        self.digest = fnv1a(name)
    }

    public static func == (lhs: Action, rhs: Action) -> Bool {
        lhs.digest == rhs.digest && lhs.name == rhs.name
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }
}

extension Action: CustomStringConvertible {
    public var description: String { name }
}

// The actions OpenAVT defines (`OAVTAction`).
extension Action {
    public static let trackerInit = Action(name: "TrackerInit")
    public static let mediaRequest = Action(name: "MediaRequest")
    public static let playerSet = Action(name: "PlayerSet")
    public static let playerReady = Action(name: "PlayerReady")
    public static let prepareItem = Action(name: "PrepareItem")
    public static let manifestLoad = Action(name: "ManifestLoad")
    public static let streamLoad = Action(name: "StreamLoad")
    public static let start = Action(name: "Start")
    public static let bufferBegin = Action(name: "BufferBegin")
    public static let bufferFinish = Action(name: "BufferFinish")
    public static let seekBegin = Action(name: "SeekBegin")
    public static let seekFinish = Action(name: "SeekFinish")
    public static let pauseBegin = Action(name: "PauseBegin")
    public static let pauseFinish = Action(name: "PauseFinish")
    public static let forwardBegin = Action(name: "ForwardBegin")
    public static let forwardFinish = Action(name: "ForwardFinish")
    public static let rewindBegin = Action(name: "RewindBegin")
    public static let rewindFinish = Action(name: "RewindFinish")
    public static let qualityChangeUp = Action(name: "QualityChangeUp")
    public static let qualityChangeDown = Action(name: "QualityChangeDown")
    public static let stop = Action(name: "Stop")
    public static let end = Action(name: "End")
    public static let next = Action(name: "Next")
    public static let error = Action(name: "Error")
    public static let ping = Action(name: "Ping")
    public static let adBreakBegin = Action(name: "AdBreakBegin")
    public static let adBreakFinish = Action(name: "AdBreakFinish")
    public static let adBegin = Action(name: "AdBegin")
    public static let adFinish = Action(name: "AdFinish")
    public static let adPauseBegin = Action(name: "AdPauseBegin")
    public static let adPauseFinish = Action(name: "AdPauseFinish")
    public static let adBufferBegin = Action(name: "AdBufferBegin")
    public static let adBufferFinish = Action(name: "AdBufferFinish")
    public static let adSkip = Action(name: "AdSkip")
    public static let adClick = Action(name: "AdClick")
    public static let adFirstQuartile = Action(name: "AdFirstQuartile")
    public static let adSecondQuartile = Action(name: "AdSecondQuartile")
    public static let adThirdQuartile = Action(name: "AdThirdQuartile")
    public static let adError = Action(name: "AdError")

    /// The ad actions OpenAVT defines, from `AdBreakBegin` to `AdError`.
    public static let adActions = Set(openAVT.filter(\.isAdAction))

    /// The action with this name: one of OpenAVT's, made once, or a new custom one.
    public static func named(_ name: String) -> Action {
        openAVTActions[name] ?? Action(name: name)
    }

    /// Every action OpenAVT defines, from `TrackerInit` to `AdError`.
    public static let openAVT: [Action] = [
        trackerInit, mediaRequest, playerSet, playerReady, prepareItem, manifestLoad, streamLoad, start,
        bufferBegin, bufferFinish, seekBegin, seekFinish, pauseBegin, pauseFinish, forwardBegin,
        forwardFinish, rewindBegin, rewindFinish, qualityChangeUp, qualityChangeDown, stop, end, next,
        error, ping, adBreakBegin, adBreakFinish, adBegin, adFinish, adPauseBegin, adPauseFinish,
        adBufferBegin, adBufferFinish, adSkip, adClick, adFirstQuartile, adSecondQuartile,
        adThirdQuartile, adError,
    ]

    private static let openAVTActions: [String: Action] = Dictionary(
        uniqueKeysWithValues: openAVT.map { ($0.name, $0) })
}
