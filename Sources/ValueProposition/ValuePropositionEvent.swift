import EventModel

/// An event Tentacles reports for a value-proposition session: a status change.
public struct ValuePropositionEvent: Hashable, Sendable {
    /// When it happened.
    public var timestamp: Timestamp
    /// The app session.
    public var app: String
    /// The event's name: the value proposition's name.
    public var name: String
    /// Everything Tentacles reports: the status timestamps (`opened`, `started`, `started_1`, ...
    /// in epoch milliseconds), `timestamp`, `valuePropositionSessionId`, `status`, `trigger`,
    /// `category` (`valueProposition`), then the value proposition's attributes, then the
    /// action's, each overriding what came before, and last `sessionId` (the app session).
    public var attributes: Attributes
    /// The session's id.
    public var sessionID: String
    /// The value proposition's own attributes (those that identify it).
    public var valuePropositionAttributes: Attributes
    /// The status the session reached.
    public var status: SessionStatus
    /// For the first event of a session restored after the app came back, the id it had before.
    public var restoredFrom: String?

    public init(
        timestamp: Timestamp, app: String, name: String, attributes: Attributes, sessionID: String,
        valuePropositionAttributes: Attributes = [:], status: SessionStatus, restoredFrom: String? = nil
    ) {
        self.timestamp = timestamp
        self.app = app
        self.name = name
        self.attributes = attributes
        self.sessionID = sessionID
        self.valuePropositionAttributes = valuePropositionAttributes
        self.status = status
        self.restoredFrom = restoredFrom
    }
}

/// A non-fatal error Tentacles reports instead of an event.
public struct ValuePropositionError: Hashable, Sendable {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// The action is not allowed in the session's status; the status is kept.
        case prohibitedStatusChange(status: SessionStatus, action: VPAction)
        /// No session is open for the value proposition and the action is not `open`.
        case initialActionNeedsToBeOpen(action: VPAction)

        /// The error's name in the trace.
        public var name: String {
            switch self {
            case .prohibitedStatusChange: return "prohibitedStatusChange"
            case .initialActionNeedsToBeOpen: return "initialActionNeedsToBeOpen"
            }
        }
    }

    public var timestamp: Timestamp
    public var app: String
    public var name: String
    public var kind: Kind
    /// The session whose status was kept, for a prohibited change.
    public var sessionID: String?

    public init(timestamp: Timestamp, app: String, name: String, kind: Kind, sessionID: String?) {
        self.timestamp = timestamp
        self.app = app
        self.name = name
        self.kind = kind
        self.sessionID = sessionID
    }
}

/// What the session manager reports for one input.
public enum SessionOutput: Hashable, Sendable {
    case event(ValuePropositionEvent)
    case error(ValuePropositionError)
}

/// The attribute keys Tentacles puts on value-proposition events.
extension AttributeKey {
    public static let valuePropositionSessionId: AttributeKey = "valuePropositionSessionId"
    public static let status: AttributeKey = "status"
    public static let trigger: AttributeKey = "trigger"
    public static let category: AttributeKey = "category"
    public static let sessionId: AttributeKey = "sessionId"
    public static let timestamp: AttributeKey = "timestamp"
}
