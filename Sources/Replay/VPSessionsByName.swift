import EventModel

/// The value-proposition sessions of `report.html`, counted by name as lives end.
///
/// Each name keeps its sessions, those completed, and those started with the sum of their
/// times to start; memory grows with the names, not the sessions. Merged (``merge(_:)``),
/// the counts are those of both sets of sessions.
public struct VPSessionsByName: Sendable, Equatable {
    /// One name's sessions.
    public struct Row: Codable, Sendable, Equatable {
        public var name: String
        public var sessions: Int64 = 0
        public var completed: Int64 = 0
        /// Sessions that started, and the sum of their times from `opened` to the first `started`.
        public var started: Int64 = 0
        public var timeToStartSum: Int64 = 0

        /// A name without sessions yet.
        public init(name: String) {
            self.name = name
        }

        mutating func add(_ other: Row) {
            sessions += other.sessions
            completed += other.completed
            started += other.started
            timeToStartSum += other.timeToStartSum
        }

        /// ``add(_:)`` with checked arithmetic, for rows read from a file: throws, naming the
        /// field, when a sum would pass 2⁶⁰, leaving the row as it was.
        package mutating func add(checking other: Row) throws(StateError) {
            func overflow(_ field: String) -> StateError {
                StateError("the name \"\(name)\": \(field): adds up to more than 2^60")
            }
            guard let sessions = StoredRange.add(sessions, other.sessions) else { throw overflow("sessions") }
            guard let completed = StoredRange.add(completed, other.completed) else { throw overflow("completed") }
            guard let started = StoredRange.add(started, other.started) else { throw overflow("started") }
            guard let timeToStartSum = StoredRange.add(timeToStartSum, other.timeToStartSum) else {
                throw overflow("timeToStartSum")
            }
            self.sessions = sessions
            self.completed = completed
            self.started = started
            self.timeToStartSum = timeToStartSum
        }

        /// Decodes what the synthesized `encode(to:)` writes; refuses (`dataCorrupted`) a
        /// count outside `StoredRange/counts`, a time outside `StoredRange/sums`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            func count(_ key: CodingKeys, in range: ClosedRange<Int64> = StoredRange.counts) throws -> Int64 {
                try container.decodeStoredIfPresent(key, in: range) ?? 0
            }
            sessions = try count(.sessions)
            completed = try count(.completed)
            started = try count(.started)
            timeToStartSum = try count(.timeToStartSum, in: StoredRange.sums)
        }

        private enum CodingKeys: String, CodingKey {
            case name, sessions, completed, started, timeToStartSum
        }
    }

    private var byName: [String: Row] = [:]

    /// No session yet.
    public init() {}

    /// Counts the sessions of a closed app session.
    public mutating func add(_ report: SessionReport) {
        for session in report.vpSessions {
            var row = Row(name: session.name)
            row.sessions = 1
            if session.outcome == .completed { row.completed = 1 }
            if let timeToStart = session.timeToStart {
                row.started = 1
                row.timeToStartSum = timeToStart
            }
            byName[session.name, default: Row(name: session.name)].add(row)
        }
    }

    /// Adds another count's rows.
    public mutating func merge(_ other: VPSessionsByName) {
        for (name, row) in other.byName { byName[name, default: Row(name: name)].add(row) }
    }

    /// The names, most sessions first, then by name (byte-wise).
    public var rows: [Row] {
        byName.values.sorted { lhs, rhs in
            lhs.sessions != rhs.sessions ? lhs.sessions > rhs.sessions : lhs.name.precedesInUTF8Order(rhs.name)
        }
    }
}

extension VPSessionsByName: Codable {
    /// Decodes the ``rows``, as ``encode(to:)`` writes them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        for row in try container.decode([Row].self) {
            do {
                try byName[row.name, default: Row(name: row.name)].add(checking: row)
            } catch {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
            }
        }
    }

    /// ``merge(_:)`` with checked arithmetic, for counts read from files (throws as
    /// ``Row/add(checking:)`` does, leaving some rows merged).
    package mutating func merge(checking other: VPSessionsByName) throws(StateError) {
        for (name, row) in other.byName { try byName[name, default: Row(name: name)].add(checking: row) }
    }

    /// Encodes the ``rows``, in their order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rows)
    }
}
