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
