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
    /// What triggered it (`clicked`, `automatically`, ...).
    public var trigger: String
    /// Both sets of attributes, packed while the record waits for its session to close
    /// (``PackedAttributes``), in one storage (``PackedAttributePair``); declared before
    /// `action`, whose byte then ends the record.
    @usableFromInline var packedPair: PackedAttributePair
    /// The status change asked for.
    public var action: VPAction

    /// The value proposition's attributes, packed.
    package var packedAttributes: PackedAttributes {
        get { packedPair.first }
        set { packedPair = PackedAttributePair(newValue, packedPair.second) }
    }
    /// The value proposition's attributes; with `name` they identify it (unpacked on every read).
    public var attributes: Attributes {
        get { packedAttributes.unpacked() }
        set { packedAttributes = PackedAttributes(newValue) }
    }
    /// Attributes of this status change only, packed.
    package var packedActionAttributes: PackedAttributes {
        get { packedPair.second }
        set { packedPair = PackedAttributePair(packedPair.first, newValue) }
    }
    /// Attributes of this status change only (unpacked on every read).
    public var actionAttributes: Attributes {
        get { packedActionAttributes.unpacked() }
        set { packedActionAttributes = PackedAttributes(newValue) }
    }

    /// The trigger of a record that names none.
    public static let defaultTrigger = "clicked"

    public init(
        timestamp: Timestamp, app: String, name: String, attributes: Attributes = [:], action: VPAction,
        trigger: String = VPRecord.defaultTrigger, actionAttributes: Attributes = [:]
    ) {
        self.init(
            timestamp: timestamp, app: app, name: name, packedAttributes: PackedAttributes(attributes),
            action: action, trigger: trigger, packedActionAttributes: PackedAttributes(actionAttributes))
    }

    /// A record whose attributes are packed already (in any key order: see ``==(_:_:)``).
    package init(
        timestamp: Timestamp, app: String, name: String, packedAttributes: PackedAttributes, action: VPAction,
        trigger: String = VPRecord.defaultTrigger, packedActionAttributes: PackedAttributes
    ) {
        self.timestamp = timestamp
        self.app = app
        self.name = name
        self.trigger = trigger
        packedPair = PackedAttributePair(packedAttributes, packedActionAttributes)
        self.action = action
    }

    /// Records are equal when their fields and attributes are, however the attributes were packed.
    public static func == (lhs: VPRecord, rhs: VPRecord) -> Bool {
        lhs.timestamp == rhs.timestamp && lhs.app == rhs.app && lhs.name == rhs.name && lhs.action == rhs.action
            && lhs.trigger == rhs.trigger
            && (lhs.packedAttributes == rhs.packedAttributes || lhs.attributes == rhs.attributes)
            && (lhs.packedActionAttributes == rhs.packedActionAttributes
                || lhs.actionAttributes == rhs.actionAttributes)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(timestamp)
        hasher.combine(app)
        hasher.combine(name)
        hasher.combine(action)
        hasher.combine(trigger)
        hasher.combine(attributes)
        hasher.combine(actionAttributes)
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
