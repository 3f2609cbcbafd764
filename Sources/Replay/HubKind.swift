import OpenAVT

/// The hubs a replay can run (`--hub`).
public enum HubKind: String, CaseIterable, Sendable {
    /// `HubCoreAds`, the default: content and ads.
    case ads
    /// `HubCore`: content only.
    case core

    /// A new hub of this kind, deriving its ids with `idGenerator`.
    public func makeHub(idGenerator: any IDGenerator = SequentialIDGenerator()) -> any Hub {
        switch self {
        case .ads: return HubCoreAds(idGenerator: idGenerator)
        case .core: return HubCore(idGenerator: idGenerator)
        }
    }
}
