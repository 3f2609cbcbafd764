import EventModel

/// The value-proposition sessions of one app session (Tentacles' `DomainActivitySessionManager`),
/// with each record's time as the clock.
///
/// One session is open per value proposition (name and attributes, see ``ValuePropositionKey``).
/// A session starts only with `open`; `complete` and `cancel` end it and it is gone. A
/// prohibited change keeps the status and is reported as a non-fatal error, as is any action
/// other than `open` for a value proposition with no open session.
///
/// App lifecycle, as Tentacles' code does it (its `processWillResign` goes out of range with
/// two active sessions; here every one is canceled): `willResignActive` cancels every open
/// session, in the order they were opened (trigger `willResignActive`), and remembers them.
/// `didBecomeActive` renews the app session's id, then *replaces* the open sessions with the
/// remembered ones, each reopened under a new id with fresh timestamps, reporting `opened`
/// and then the status it had (both with trigger `didEnterForeground`; a session that was
/// only opened gets `opened` twice, the second as `opened_1`). A session open at that moment
/// (opened while in the background, or open with nothing remembered) is dropped, as in
/// Tentacles, without an event: here it is reported as ``SessionOutput/dropped(_:)``, so that
/// its row still says what became of it. What was remembered is then forgotten: a second
/// `didBecomeActive` restores nothing and drops every open session, and a `willResignActive`
/// with no open session forgets what was remembered.
///
/// The app session's id (the `sessionId` attribute of every event) is `<app>` until the first
/// `didBecomeActive`, then `<app>:f<n>` after the n-th (`<app>:<scope>:f<n>` with a scope):
/// Tentacles draws a new random id each time, so the cancel events of `willResignActive` carry
/// the old id and the restore events the new one.
///
/// Session ids are derived: `<app>:v<n>`, counting the sessions of the app from 1, or
/// `<app>:<scope>:v<n>` with a scope.
public struct SessionManager: Sendable {
    /// The app session.
    public let app: String
    /// The Tentacles version whose names its events carry.
    public let version: TentaclesVersion
    /// Put between the app and the counter in session ids, if not `nil`.
    public let scope: String?
    private var open: [OpenSession] = []
    private var remembered: [OpenSession] = []
    private var sessionsMade = 0
    /// The app session's id (`sessionId`), renewed by every `didBecomeActive`.
    public private(set) var appSessionID: String
    private var foregroundReturns = 0

    /// Creates the manager of an app session with nothing open.
    public init(app: String, scope: String? = nil, version: TentaclesVersion = .valueProposition) {
        self.app = app
        self.version = version
        self.scope = scope
        appSessionID = app
    }

    /// The open sessions, in the order they were opened.
    public var openSessions: [Session] { open.map(\.session) }

    /// Applies a value-proposition action.
    public mutating func process(_ record: VPRecord) -> [SessionOutput] {
        [output(of: record)]
    }

    /// Applies a value-proposition action, which has one output: its event, or the error that
    /// it is not allowed. (Without an array for each record, which ``process(_:)`` makes.)
    public mutating func output(of record: VPRecord) -> SessionOutput {
        guard let index = openIndex(of: record) else {
            guard record.action == .open else {
                return .error(
                    ValuePropositionError(
                        timestamp: record.timestamp, app: app, name: record.name,
                        kind: .initialActionNeedsToBeOpen(action: record.action), sessionID: nil))
            }
            // Records keep their attributes packed: unpack them once.
            let attributes = record.attributes
            let session = Session(
                id: makeID(), name: record.name, attributes: attributes, openedAt: record.timestamp)
            open.append(
                OpenSession(
                    key: ValuePropositionKey(name: record.name, attributes: attributes),
                    packedAttributes: record.packedAttributes, session: session))
            return .event(event(for: session, at: record.timestamp, trigger: record.trigger, record.actionAttributes))
        }
        guard let status = open[index].session.status.applying(record.action) else {
            return .error(
                ValuePropositionError(
                    timestamp: record.timestamp, app: app, name: record.name,
                    kind: .prohibitedStatusChange(status: open[index].session.status, action: record.action),
                    sessionID: open[index].session.id))
        }
        // The session changes where it is, or is moved out when it ends: a copy changed and
        // put back retained and released each of its strings and buffers, and copied its
        // history to append to it.
        let reached: Session
        if status.isFinal {
            var session = open.remove(at: index).session
            session.reach(status, at: record.timestamp)
            reached = session
        } else {
            open[index].session.reach(status, at: record.timestamp)
            reached = open[index].session
        }
        return .event(event(for: reached, at: record.timestamp, trigger: record.trigger, record.actionAttributes))
    }

    /// Applies an app lifecycle event.
    public mutating func process(_ lifecycle: AppLifecycleEvent, at timestamp: Timestamp) -> [SessionOutput] {
        switch lifecycle {
        case .willResignActive:
            remembered = open
            open = []
            return remembered.map { entry in
                var session = entry.session
                session.reach(.canceled, at: timestamp)
                return .event(event(for: session, at: timestamp, trigger: "willResignActive"))
            }
        case .didBecomeActive:
            foregroundReturns += 1
            appSessionID = (scope.map { app + ":" + $0 } ?? app) + ":f" + String(foregroundReturns)
            var outputs: [SessionOutput] = open.map { entry in
                .dropped(
                    DroppedSession(
                        timestamp: timestamp, app: app, name: entry.session.name, sessionID: entry.session.id))
            }
            open = []
            for entry in remembered {
                var session = entry.session.reset(id: makeID())
                session.reach(.opened, at: timestamp)
                var reopened = event(for: session, at: timestamp, trigger: "didEnterForeground")
                reopened.restoredFrom = entry.session.id
                outputs.append(.event(reopened))
                session.reach(entry.session.status, at: timestamp)
                outputs.append(.event(event(for: session, at: timestamp, trigger: "didEnterForeground")))
                open.append(OpenSession(key: entry.key, packedAttributes: entry.packedAttributes, session: session))
            }
            remembered = []
            return outputs
        }
    }

    /// The open session of the record's value proposition. Records of one value proposition
    /// usually pack their attributes alike, so equal bytes find it without unpacking them;
    /// other records compare as ``ValuePropositionKey``s. Open sessions have distinct keys, so
    /// at most one matches either way. Keys of different names differ: a record whose name no
    /// open session has (most `open` records) finds none without unpacking its attributes.
    private func openIndex(of record: VPRecord) -> Int? {
        if let index = open.firstIndex(where: {
            $0.packedAttributes == record.packedAttributes && $0.key.name == record.name
        }) {
            return index
        }
        guard open.contains(where: { $0.key.name == record.name }) else { return nil }
        let key = ValuePropositionKey(name: record.name, attributes: record.attributes)
        return open.firstIndex { $0.key == key }
    }

    private mutating func makeID() -> String {
        sessionsMade += 1
        return (scope.map { app + ":" + $0 } ?? app) + ":v" + String(sessionsMade)
    }

    /// The event Tentacles reports for the session's current status.
    private func event(
        for session: Session, at timestamp: Timestamp, trigger: String, _ actionAttributes: Attributes = [:]
    ) -> ValuePropositionEvent {
        ValuePropositionEvent(
            session: session, app: app, appSessionID: appSessionID, at: timestamp, trigger: trigger,
            actionAttributes: actionAttributes, version: version)
    }
}

/// An open (or remembered) session, with the key of its value proposition and the packed
/// attributes of the record that opened it.
private struct OpenSession: Sendable {
    var key: ValuePropositionKey
    var packedAttributes: PackedAttributes
    var session: Session
}

/// How a manager is kept in a `--state` file, so that one restored from it goes on exactly as
/// the manager it was saved from would have: the same outputs, ids and times.
///
/// Keys are short, a manager being written for every app session open at the end of a night:
/// `a` the app, `v` the version, `s` the scope (left out when `nil`), `o` the open sessions and
/// `r` the remembered ones (each as its ``Session``, in order; left out when empty), `n` the
/// count of sessions made and `f` of foreground returns (left out when 0), `i` the app
/// session's id. Nothing is a dictionary in table order: the encoding is the same bytes every
/// time.
extension SessionManager: Codable {
    private enum CodingKeys: String, CodingKey {
        case app = "a"
        case version = "v"
        case scope = "s"
        case open = "o"
        case remembered = "r"
        case sessionsMade = "n"
        case appSessionID = "i"
        case foregroundReturns = "f"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        app = try container.decode(String.self, forKey: .app)
        version = try container.decode(TentaclesVersion.self, forKey: .version)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        open = try container.decodeIfPresent([OpenSession].self, forKey: .open) ?? []
        remembered = try container.decodeIfPresent([OpenSession].self, forKey: .remembered) ?? []
        sessionsMade = try container.decodeIfPresent(Int.self, forKey: .sessionsMade) ?? 0
        appSessionID = try container.decode(String.self, forKey: .appSessionID)
        foregroundReturns = try container.decodeIfPresent(Int.self, forKey: .foregroundReturns) ?? 0
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(app, forKey: .app)
        try container.encode(version, forKey: .version)
        try container.encodeIfPresent(scope, forKey: .scope)
        if !open.isEmpty { try container.encode(open, forKey: .open) }
        if !remembered.isEmpty { try container.encode(remembered, forKey: .remembered) }
        if sessionsMade != 0 { try container.encode(sessionsMade, forKey: .sessionsMade) }
        try container.encode(appSessionID, forKey: .appSessionID)
        if foregroundReturns != 0 { try container.encode(foregroundReturns, forKey: .foregroundReturns) }
    }
}

/// An open session is kept as its ``Session`` alone: its key and packed attributes are made
/// from the session's name and attributes, as `process` made them from the record's (the
/// session's attributes are the record's, unpacked). The packed bytes number keys by the
/// process's key table, so they are packed again in any case; packed from the dictionary, in
/// key order, they may differ from the next record's bytes, which then finds the session by
/// its key instead.
extension OpenSession: Codable {
    init(from decoder: any Decoder) throws {
        session = try Session(from: decoder)
        key = ValuePropositionKey(name: session.name, attributes: session.attributes)
        packedAttributes = PackedAttributes(session.attributes)
    }

    func encode(to encoder: any Encoder) throws {
        try session.encode(to: encoder)
    }
}
