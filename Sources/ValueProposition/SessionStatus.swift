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

    /// The attribute of the time the session first reached this status (`opened`, ...),
    /// made once.
    var attributeKey: AttributeKey {
        switch self {
        case .opened: Self.openedKey
        case .started: Self.startedKey
        case .paused: Self.pausedKey
        case .canceled: Self.canceledKey
        case .completed: Self.completedKey
        }
    }

    private static let openedKey = AttributeKey(SessionStatus.opened.rawValue)
    private static let startedKey = AttributeKey(SessionStatus.started.rawValue)
    private static let pausedKey = AttributeKey(SessionStatus.paused.rawValue)
    private static let canceledKey = AttributeKey(SessionStatus.canceled.rawValue)
    private static let completedKey = AttributeKey(SessionStatus.completed.rawValue)

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
