import OpenAVT

/// The hubs a replay can run (`--hub`).
public enum HubKind: String, CaseIterable, Sendable {
    /// ``HubCoreAds``, the default: content and ads.
    case ads
    /// ``HubCore``: content only.
    case core

    /// A new hub of this kind.
    public func makeHub() -> any Hub {
        switch self {
        case .ads: return HubCoreAds()
        case .core: return HubCore()
        }
    }
}
