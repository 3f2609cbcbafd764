/// What a value-proposition action asks for (the `action` field of a `vp` record).
public enum VPAction: String, Hashable, Sendable, CaseIterable {
    case open
    case start
    case pause
    case complete
    case cancel
}

/// One value-proposition action, as recorded (`"type":"vp"`, Tentacles).
public struct VPRecord: Hashable, Sendable {
    /// When it happened.
    public var timestamp: Timestamp
    /// The app session the value proposition lives in.
    public var app: String
    /// The value proposition, e.g. `watchingVideo`.
    public var name: String
    /// The value proposition's attributes; with `name` they identify it.
    public var attributes: Attributes
    /// The status change asked for.
    public var action: VPAction
    /// What triggered it (`clicked`, `automatically`, ...).
    public var trigger: String
    /// Attributes of this status change only.
    public var actionAttributes: Attributes

    /// The trigger of a record that names none.
    public static let defaultTrigger = "clicked"

    public init(
        timestamp: Timestamp, app: String, name: String, attributes: Attributes = [:], action: VPAction,
        trigger: String = VPRecord.defaultTrigger, actionAttributes: Attributes = [:]
    ) {
        self.timestamp = timestamp
        self.app = app
        self.name = name
        self.attributes = attributes
        self.action = action
        self.trigger = trigger
        self.actionAttributes = actionAttributes
    }
}

/// An app lifecycle event (the `event` field of an `app` record).
public enum AppLifecycleEvent: String, Hashable, Sendable, CaseIterable {
    case willResignActive
    case didBecomeActive
}

/// One app lifecycle event, as recorded (`"type":"app"`, Tentacles).
public struct AppRecord: Hashable, Sendable {
    /// When it happened.
    public var timestamp: Timestamp
    /// The app session.
    public var app: String
    /// Resigning active (going to the background) or becoming active again.
    public var event: AppLifecycleEvent

    public init(timestamp: Timestamp, app: String, event: AppLifecycleEvent) {
        self.timestamp = timestamp
        self.app = app
        self.event = event
    }
}
