import EventModel

/// The Tentacles version whose names value-proposition events carry: Tentacles renamed value
/// propositions to domain activities (c5401a8), then added a `timestamp` attribute (7fe5abe).
public enum TentaclesVersion: String, Sendable, CaseIterable {
    /// Tentacles at ffcb97e, before the rename: category `valueProposition`, the session id as
    /// `valuePropositionSessionId`, no `timestamp`. The names of the reports' contract: the default.
    case valueProposition = "value-proposition"
    /// Tentacles at aef2fe4 (and since 7fe5abe): category `domainActivity`, the session id as
    /// `domainActivitySessionId`, and `timestamp`: the event's time (here the record's `ts` in
    /// epoch milliseconds; Tentacles reads the clock, in seconds since 2001).
    case domainActivity = "domain-activity"

    /// The `category` of its value-proposition events.
    public var category: String {
        switch self {
        case .valueProposition: "valueProposition"
        case .domainActivity: "domainActivity"
        }
    }

    /// The attribute that carries a value-proposition session's id.
    public var sessionIDKey: AttributeKey {
        switch self {
        case .valueProposition: .valuePropositionSessionId
        case .domainActivity: .domainActivitySessionId
        }
    }

    /// Whether its events carry `timestamp`.
    public var hasTimestamp: Bool { self == .domainActivity }

    /// Whether `category` is that of value-proposition events in any version.
    public static func isValuePropositionCategory(_ category: AttributeValue?) -> Bool {
        allCases.contains { category == .string($0.category) }
    }
}

/// Kept in a `--state` file as its name (`value-proposition`, `domain-activity`).
extension TentaclesVersion: Codable {}
