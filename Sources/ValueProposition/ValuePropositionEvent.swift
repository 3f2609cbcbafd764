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
    /// in epoch milliseconds), the session id (`valuePropositionSessionId`), `status`, `trigger`,
    /// `category` (`valueProposition`), then the value proposition's attributes, then the
    /// action's, each overriding what came before, and last `sessionId` (the app session); with
    /// ``TentaclesVersion/domainActivity``, `timestamp` after the status timestamps, and the
    /// later names `domainActivitySessionId` and `domainActivity`.
    ///
    /// Building it costs a dictionary: read one attribute with ``attribute(_:)``, or some with
    /// ``forEachAttribute(where:_:)``.
    public var attributes: Attributes {
        get {
            switch reported {
            case .whole(let attributes): return attributes
            case .layered(let layers): return layers.attributes
            }
        }
        set { reported = .whole(newValue) }
    }
    /// The session's id.
    public var sessionID: String
    /// The value proposition's own attributes (those that identify it).
    public var valuePropositionAttributes: Attributes
    /// The status the session reached.
    public var status: SessionStatus
    /// For the first event of a session restored after the app came back, the id it had before.
    public var restoredFrom: String?
    /// The attributes, as set, or as the session manager made them.
    private var reported: ReportedAttributes

    public init(
        timestamp: Timestamp, app: String, name: String, attributes: Attributes, sessionID: String,
        valuePropositionAttributes: Attributes = [:], status: SessionStatus, restoredFrom: String? = nil
    ) {
        self.init(
            timestamp: timestamp, app: app, name: name, reported: .whole(attributes), sessionID: sessionID,
            valuePropositionAttributes: valuePropositionAttributes, status: status, restoredFrom: restoredFrom)
    }

    /// The event of `session`'s current status, its attributes kept as their parts until
    /// ``attributes`` is read: most events have only one or two of them read, by the replay.
    /// `appSessionID` is the `sessionId` attribute: the app session's id, renewed when the app
    /// comes back to the foreground.
    init(
        session: Session, app: String, appSessionID: String, at timestamp: Timestamp, trigger: String,
        actionAttributes: Attributes, version: TentaclesVersion
    ) {
        self.init(
            timestamp: timestamp, app: app, name: session.name,
            reported: .layered(
                AttributeLayers(
                    history: session.history, timestamp: timestamp, sessionID: session.id, status: session.status,
                    trigger: trigger, sessionAttributes: session.attributes, actionAttributes: actionAttributes,
                    appSessionID: appSessionID, version: version)),
            sessionID: session.id, valuePropositionAttributes: session.attributes, status: session.status,
            restoredFrom: nil)
    }

    private init(
        timestamp: Timestamp, app: String, name: String, reported: ReportedAttributes, sessionID: String,
        valuePropositionAttributes: Attributes, status: SessionStatus, restoredFrom: String?
    ) {
        self.timestamp = timestamp
        self.app = app
        self.name = name
        self.reported = reported
        self.sessionID = sessionID
        self.valuePropositionAttributes = valuePropositionAttributes
        self.status = status
        self.restoredFrom = restoredFrom
    }

    /// The value of one attribute, or `nil` when the event does not have it: the same as
    /// `attributes[key]`, without building them all.
    public func attribute(_ key: AttributeKey) -> AttributeValue? {
        switch reported {
        case .whole(let attributes): return attributes[key]
        case .layered(let layers): return layers[key]
        }
    }

    /// Calls `body` with each attribute whose key `include` accepts, in no particular order,
    /// without building ``attributes``: `include` is asked first, so that a cheap test rules
    /// most keys out before anything else is looked up.
    public func forEachAttribute(
        where include: (AttributeKey) -> Bool, _ body: (AttributeKey, AttributeValue) -> Void
    ) {
        switch reported {
        case .whole(let attributes):
            for (key, value) in attributes where include(key) { body(key, value) }
        case .layered(let layers):
            layers.forEach(where: include, body)
        }
    }

    public static func == (lhs: ValuePropositionEvent, rhs: ValuePropositionEvent) -> Bool {
        lhs.timestamp == rhs.timestamp && lhs.app == rhs.app && lhs.name == rhs.name
            && lhs.sessionID == rhs.sessionID && lhs.valuePropositionAttributes == rhs.valuePropositionAttributes
            && lhs.status == rhs.status && lhs.restoredFrom == rhs.restoredFrom && lhs.attributes == rhs.attributes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(timestamp)
        hasher.combine(sessionID)
        hasher.combine(status)
        hasher.combine(attributes)
    }
}

/// An event's attributes: a dictionary once set, or the parts the session manager made them of.
private enum ReportedAttributes: Sendable {
    case whole(Attributes)
    case layered(AttributeLayers)
}

/// The parts of a session manager's event's attributes, each overriding those before it:
/// the status timestamps, the fixed attributes, the value proposition's, the action's and
/// the app session's id. One object, so that copying an event retains one reference for them
/// all.
private final class AttributeLayers: Sendable {
    let history: [(status: SessionStatus, timestamp: Timestamp)]
    let timestamp: Timestamp
    let sessionID: String
    let status: SessionStatus
    let trigger: String
    let sessionAttributes: Attributes
    let actionAttributes: Attributes
    let appSessionID: String
    let version: TentaclesVersion

    init(
        history: [(status: SessionStatus, timestamp: Timestamp)], timestamp: Timestamp, sessionID: String,
        status: SessionStatus, trigger: String, sessionAttributes: Attributes, actionAttributes: Attributes,
        appSessionID: String, version: TentaclesVersion
    ) {
        self.history = history
        self.timestamp = timestamp
        self.sessionID = sessionID
        self.status = status
        self.trigger = trigger
        self.sessionAttributes = sessionAttributes
        self.actionAttributes = actionAttributes
        self.appSessionID = appSessionID
        self.version = version
    }

    /// All of them in one dictionary.
    var attributes: Attributes {
        // Room for all of them at once: growing the dictionary rehashes it.
        var attributes = Attributes(
            minimumCapacity: history.count + sessionAttributes.count + actionAttributes.count + 6)
        Session.forEachTimestampAttribute(of: history) { attributes[$0] = .int($1.milliseconds) }
        for key in fixedKeys { attributes[key] = fixedValue(of: key) }
        attributes.merge(sessionAttributes) { _, new in new }
        attributes.merge(actionAttributes) { _, new in new }
        attributes[.sessionId] = .string(appSessionID)
        return attributes
    }

    /// The attributes between the status timestamps and the value proposition's, in order.
    private var fixedKeys: [AttributeKey] {
        version.hasTimestamp ? Self.fixedKeysWithTimestamp : Self.fixedKeysOfTheContract
    }
    private static let fixedKeysOfTheContract: [AttributeKey] = [
        .valuePropositionSessionId, .status, .trigger, .category,
    ]
    private static let fixedKeysWithTimestamp: [AttributeKey] = [
        .timestamp, .domainActivitySessionId, .status, .trigger, .category,
    ]

    /// The value of one of ``fixedKeys``; `nil` for another key.
    private func fixedValue(of key: AttributeKey) -> AttributeValue? {
        switch key {
        case .timestamp: version.hasTimestamp ? .int(timestamp.milliseconds) : nil
        case version.sessionIDKey: .string(sessionID)
        case .status: .string(status.rawValue)
        case .trigger: .string(trigger)
        case .category: .string(version.category)
        default: nil
        }
    }

    subscript(key: AttributeKey) -> AttributeValue? {
        if key == .sessionId { return .string(appSessionID) }
        if let value = actionAttributes[key] ?? sessionAttributes[key] { return value }
        if let value = fixedValue(of: key) { return value }
        var found: Timestamp?
        Session.forEachTimestampAttribute(of: history) { if $0 == key { found = $1 } }
        return found.map { .int($0.milliseconds) }
    }

    func forEach(where include: (AttributeKey) -> Bool, _ body: (AttributeKey, AttributeValue) -> Void) {
        if include(.sessionId) { body(.sessionId, .string(appSessionID)) }
        for (key, value) in actionAttributes where include(key) && key != .sessionId {
            body(key, value)
        }
        for (key, value) in sessionAttributes where include(key) && key != .sessionId && actionAttributes[key] == nil {
            body(key, value)
        }
        func shadows(_ key: AttributeKey) -> Bool {
            key == .sessionId || actionAttributes[key] != nil || sessionAttributes[key] != nil
        }
        for key in fixedKeys where include(key) && !shadows(key) {
            if let value = fixedValue(of: key) { body(key, value) }
        }
        Session.forEachTimestampAttribute(of: history) { key, timestamp in
            if include(key) && !shadows(key) { body(key, .int(timestamp.milliseconds)) }
        }
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

/// A session Tentacles drops without an event: open when the app came back to the
/// foreground (``SessionManager/process(_:at:)``), it is not among the sessions restored.
public struct DroppedSession: Hashable, Sendable {
    /// When the app came back.
    public var timestamp: Timestamp
    public var app: String
    public var name: String
    public var sessionID: String

    public init(timestamp: Timestamp, app: String, name: String, sessionID: String) {
        self.timestamp = timestamp
        self.app = app
        self.name = name
        self.sessionID = sessionID
    }
}

/// What the session manager reports for one input.
public enum SessionOutput: Hashable, Sendable {
    case event(ValuePropositionEvent)
    case error(ValuePropositionError)
    /// A session gone without an event (Tentacles reports nothing).
    case dropped(DroppedSession)
}

/// The attribute keys Tentacles puts on value-proposition events.
extension AttributeKey {
    public static let valuePropositionSessionId: AttributeKey = "valuePropositionSessionId"
    public static let domainActivitySessionId: AttributeKey = "domainActivitySessionId"
    public static let status: AttributeKey = "status"
    public static let trigger: AttributeKey = "trigger"
    public static let category: AttributeKey = "category"
    public static let sessionId: AttributeKey = "sessionId"
    public static let timestamp: AttributeKey = "timestamp"
}
