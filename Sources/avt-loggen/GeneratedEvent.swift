import EventModel

/// What a generated tracker emits, as plain values: no strings are built per event.
struct GeneratedEvent {
    enum Kind: UInt8, CaseIterable {
        case mediaRequest, playerSet, streamLoad, bufferBegin, bufferFinish, start, ping
        case pauseBegin, pauseFinish, seekBegin, seekFinish, qualityChangeUp, qualityChangeDown
        case error, end, stop, next
        case adBreakBegin, adBreakFinish, adBegin, adFirstQuartile, adSecondQuartile
        case adThirdQuartile, adFinish, adSkip, adClick

        /// The OpenAVT action, from the shared model, so names cannot drift.
        var action: Action {
            switch self {
            case .mediaRequest: return .mediaRequest
            case .playerSet: return .playerSet
            case .streamLoad: return .streamLoad
            case .bufferBegin: return .bufferBegin
            case .bufferFinish: return .bufferFinish
            case .start: return .start
            case .ping: return .ping
            case .pauseBegin: return .pauseBegin
            case .pauseFinish: return .pauseFinish
            case .seekBegin: return .seekBegin
            case .seekFinish: return .seekFinish
            case .qualityChangeUp: return .qualityChangeUp
            case .qualityChangeDown: return .qualityChangeDown
            case .error: return .error
            case .end: return .end
            case .stop: return .stop
            case .next: return .next
            case .adBreakBegin: return .adBreakBegin
            case .adBreakFinish: return .adBreakFinish
            case .adBegin: return .adBegin
            case .adFirstQuartile: return .adFirstQuartile
            case .adSecondQuartile: return .adSecondQuartile
            case .adThirdQuartile: return .adThirdQuartile
            case .adFinish: return .adFinish
            case .adSkip: return .adSkip
            case .adClick: return .adClick
            }
        }

        var isAd: Bool { rawValue >= Kind.adBreakBegin.rawValue }
    }

    var timestamp: Int64
    var kind: Kind
    /// Content position (content events) or position in the ad (ad events), in ms.
    var position: Int64
    /// Index into the rendition ladder at the time of the event.
    var rendition: UInt8
    /// 0 pre, 1 mid, 2 post (ad events).
    var adRoll: UInt8
    /// The ad (ad events) or the error text (errors): an index into the catalog.
    var index: Int32
    /// Whether the player knows the stream yet (position, duration, bitrate...).
    var loaded: Bool
}
