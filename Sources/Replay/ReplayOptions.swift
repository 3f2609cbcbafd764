/// How to replay.
public struct ReplayOptions: Hashable, Sendable {
    /// The hub every instrument runs.
    public var hub: HubKind
    /// Whether to keep the trace of accepted events.
    public var includeTrace: Bool
    /// Whether the trace also lists the events the hub rejected.
    public var includeRejected: Bool

    public init(hub: HubKind = .ads, includeTrace: Bool = false, includeRejected: Bool = false) {
        self.hub = hub
        self.includeTrace = includeTrace
        self.includeRejected = includeRejected
    }
}
