import EventModel

/// One value-proposition session (Tentacles' `DomainActivitySession`): a status and the
/// times every status was reached.
public struct Session: Hashable, Sendable {
    /// The session id: derived, never random (see ``SessionManager``).
    public private(set) var id: String
    /// The value proposition's name.
    public let name: String
    /// The value proposition's attributes, as recorded.
    public let attributes: Attributes
    /// The current status.
    public private(set) var status: SessionStatus
    /// Every status reached, with its time, in order.
    public private(set) var history: [(status: SessionStatus, timestamp: Timestamp)]

    /// A new session, opened at `timestamp`.
    public init(id: String, name: String, attributes: Attributes, openedAt timestamp: Timestamp) {
        self.id = id
        self.name = name
        self.attributes = attributes
        self.status = .opened
        self.history = [(.opened, timestamp)]
    }

    /// Moves to a status, recording when.
    public mutating func reach(_ status: SessionStatus, at timestamp: Timestamp) {
        self.status = status
        history.append((status, timestamp))
    }

    /// The session under a new id with no timestamps, as Tentacles resets a session restored
    /// after the app comes back to the foreground; its status is unchanged until set again.
    public func reset(id: String) -> Session {
        var copy = self
        copy.id = id
        copy.history = []
        return copy
    }

    /// The status timestamps as Tentacles reports them: `opened`, `started`, `started_1`, ...
    /// in epoch milliseconds.
    public var timestampAttributes: Attributes {
        var attributes = Attributes(minimumCapacity: history.count)
        addTimestampAttributes(to: &attributes)
        return attributes
    }

    /// Adds ``timestampAttributes`` to `attributes`.
    public func addTimestampAttributes(to attributes: inout Attributes) {
        Self.forEachTimestampAttribute(of: history) { attributes[$0] = .int($1.milliseconds) }
    }

    /// Calls `body` with the key and time of each status timestamp of a history, in order.
    static func forEachTimestampAttribute(
        of history: [(status: SessionStatus, timestamp: Timestamp)], _ body: (AttributeKey, Timestamp) -> Void
    ) {
        for (position, (status, timestamp)) in history.enumerated() {
            // A history has a few entries: counting the earlier ones of a status beats hashing.
            let count = history[..<position].count { $0.status == status }
            body(status.attributeKey(occurrence: count), timestamp)
        }
    }

    public static func == (lhs: Session, rhs: Session) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name && lhs.attributes == rhs.attributes && lhs.status == rhs.status
            && lhs.history.elementsEqual(rhs.history) { $0.status == $1.status && $0.timestamp == $1.timestamp }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(status)
        hasher.combine(history.count)
    }
}

/// How a session is kept in a `--state` file. Keys are short, a session being written for
/// every one open at the end of a night: `i` the id, `n` the name, `a` the attributes
/// (`SortedAttributes`, left out when empty), `s` the status, `h` the history as
/// `[[status, milliseconds], …]` in order.
extension Session: Codable {
    private enum CodingKeys: String, CodingKey {
        case id = "i"
        case name = "n"
        case attributes = "a"
        case status = "s"
        case history = "h"
    }

    /// One entry of the history, as `[status, milliseconds]`.
    private struct HistoryEntry: Codable {
        var status: SessionStatus
        var timestamp: Timestamp

        init(status: SessionStatus, timestamp: Timestamp) {
            self.status = status
            self.timestamp = timestamp
        }

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            status = try container.decode(SessionStatus.self)
            timestamp = try container.decode(Timestamp.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(status)
            try container.encode(timestamp)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        attributes = try container.decodeIfPresent(SortedAttributes.self, forKey: .attributes)?.attributes ?? [:]
        status = try container.decode(SessionStatus.self, forKey: .status)
        history = try container.decode([HistoryEntry].self, forKey: .history).map { ($0.status, $0.timestamp) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        if !attributes.isEmpty {
            try container.encode(SortedAttributes(attributes), forKey: .attributes)
        }
        try container.encode(status, forKey: .status)
        try container.encode(history.map { HistoryEntry(status: $0.status, timestamp: $0.timestamp) }, forKey: .history)
    }
}
