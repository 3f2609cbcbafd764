import EventModel

/// The status of a value-proposition session (Tentacles' `DomainActivitySession.Status`).
public enum SessionStatus: String, Hashable, Sendable, CaseIterable {
    case opened
    case started
    case paused
    case canceled
    case completed

    /// Whether the session ends in this status.
    public var isFinal: Bool { self == .canceled || self == .completed }

    /// The attribute of the time the session reached this status for the `occurrence`-th time,
    /// from 0: `started` for the first, then `started_1`, `started_2`, ... (Tentacles' names).
    /// The first few of each status are made once.
    func attributeKey(occurrence: Int) -> AttributeKey {
        let keys: [AttributeKey]
        switch self {
        case .opened: keys = Self.timestampKeys[0]
        case .started: keys = Self.timestampKeys[1]
        case .paused: keys = Self.timestampKeys[2]
        case .canceled: keys = Self.timestampKeys[3]
        case .completed: keys = Self.timestampKeys[4]
        }
        if occurrence < keys.count { return keys[occurrence] }
        return AttributeKey(rawValue + "_" + String(occurrence))
    }

    /// Per status, in declaration order, its timestamp attributes for occurrences 0 to 15.
    private static let timestampKeys: [[AttributeKey]] = allCases.map { status in
        [AttributeKey(status.rawValue)] + (1..<16).map { AttributeKey(status.rawValue + "_" + String($0)) }
    }

    /// The status an action leads to from this one, or `nil` when the change is prohibited.
    ///
    /// The allowed changes are open→start, open→cancel, start→pause, start→complete,
    /// start→cancel, pause→start and pause→cancel; `open` only creates a session.
    public func applying(_ action: VPAction) -> SessionStatus? {
        switch (self, action) {
        case (.opened, .start): return .started
        case (.opened, .cancel), (.started, .cancel), (.paused, .cancel): return .canceled
        case (.started, .pause): return .paused
        case (.started, .complete): return .completed
        case (.paused, .start): return .started
        default: return nil
        }
    }

    /// The status an action names (`open` → `opened`, ...).
    public init(reachedBy action: VPAction) {
        switch action {
        case .open: self = .opened
        case .start: self = .started
        case .pause: self = .paused
        case .complete: self = .completed
        case .cancel: self = .canceled
        }
    }
}

/// Kept in a `--state` file as its name (`opened`, `started`, …).
extension SessionStatus: Codable {}
