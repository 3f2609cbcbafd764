import EventModel

/// An OpenAVT instrument: trackers, a hub, a metricalc and a backend, chained (OpenAVT's `OAVTInstrument`).
///
/// An emitted action becomes an event that gets the instrument's time-since attributes and
/// the tracker's getter attributes, then passes through the tracker's `initEvent`, the hub,
/// the metricalc and the backend. Time is the caller's: ``emit(_:trackerID:at:)`` takes it.
///
/// ```swift
/// let instrument = Instrument(id: "ios-7f3a9c", hub: HubCoreAds(), metricalc: MetricalcCore(), backend: backend)
/// let content = instrument.addTracker(player)
/// instrument.ready()
/// instrument.emit(.start, trackerID: content, at: 1_763_622_903_225)
/// ```
///
/// Unlike OpenAVT there are no ping timers: a replayed `Ping` comes from the log like any other action.
public final class Instrument {
    /// The instrument's identifier; `senderId` attributes and derived ids start with it.
    public let id: String
    /// The hub, if set.
    public private(set) var hub: (any Hub)?
    /// The metricalc, if set.
    public private(set) var metricalc: (any Metricalc)?
    /// The backend, if set.
    public private(set) var backend: (any Backend)?
    /// Whether ``emit(_:trackerID:at:)`` gives back the events the hub rejects (keeping a copy
    /// of each event for that costs a copy of its attributes when the hub changes them).
    public var keepsRejectedEvents = true

    private var trackers = TrackerTable<any Tracker>()
    /// The components as ``emit(_:trackerID:at:)`` and the hubs' getter look-ups call them,
    /// without retaining them.
    private(set) var calls = ComponentCalls()
    /// How many emits are under way (a component may emit).
    private var emitDepth = 0
    /// The calls of components replaced or removed during an emit, kept until the outermost
    /// emit returns: `calls` does not retain them for the emit. (The getter look-ups read a
    /// tracker through `calls` only before any getter of theirs runs, or look it up again.)
    private var retired: [AnyObject] = []
    /// The ids of `trackers`, sorted: hubs walk them on every event.
    public private(set) var trackerIDs: [TrackerID] = []
    private var states = TrackerTable<TrackerState>()
    /// `<instrument id>-<tracker id>` of each tracker, made once.
    private var senderIDs = TrackerTable<AttributeValue>()
    private var nextTrackerID: TrackerID = 0
    private var clocks = TimeSinceClocks.openAVT()
    /// The clock the last accepted event restarts, restarted when the next event is emitted:
    /// by then the last event is usually gone, so the clocks' times change in place instead of
    /// being copied from under its snapshot.
    private var pendingRestart: (key: AttributeKey, time: Timestamp)?
    /// The memory of the last accepted event's metrics, kept with a reference of the
    /// instrument's own: once the caller has let that event's outcome go, the next event's
    /// metrics are written there, with no allocation (``dropReusableMemory()`` lets it go).
    private var metricsMemory: [Metric] = []
    var getters = TrackerTable<GetterTable>()

    /// Creates an instrument with the given components.
    public init(id: String, hub: (any Hub)? = nil, metricalc: (any Metricalc)? = nil, backend: (any Backend)? = nil) {
        self.id = id
        self.hub = hub
        self.metricalc = metricalc
        self.backend = backend
        _ = calls.setHub(hub)
        _ = calls.setMetricalc(metricalc)
        _ = calls.setBackend(backend)
    }

    // MARK: Components

    /// Sets the hub; the one it replaces gets `endOfService()`. Call ``ready()`` afterwards.
    public func setHub(_ hub: any Hub) {
        self.hub?.endOfService()
        self.hub = hub
        retire(calls.setHub(hub))
    }

    /// Sets the metricalc; the one it replaces gets `endOfService()`. Call ``ready()`` afterwards.
    public func setMetricalc(_ metricalc: any Metricalc) {
        self.metricalc?.endOfService()
        self.metricalc = metricalc
        retire(calls.setMetricalc(metricalc))
    }

    /// Sets the backend; the one it replaces gets `endOfService()`. Call ``ready()`` afterwards.
    public func setBackend(_ backend: any Backend) {
        self.backend?.endOfService()
        self.backend = backend
        retire(calls.setBackend(backend))
    }

    /// Adds a tracker and returns the id it was given (0 for the first, then 1, 2, ...).
    @discardableResult
    public func addTracker(_ tracker: any Tracker) -> TrackerID {
        let trackerID = nextTrackerID
        nextTrackerID += 1
        tracker.trackerID = trackerID
        trackers[trackerID] = tracker
        retire(calls.setTracker(tracker, trackerID))
        trackerIDs.append(trackerID)
        states[trackerID] = TrackerState()
        senderIDs[trackerID] = .string(id + "-" + String(trackerID))
        return trackerID
    }

    /// Removes a tracker, its state and its getters; returns whether it was there.
    @discardableResult
    public func removeTracker(_ trackerID: TrackerID) -> Bool {
        guard let tracker = trackers[trackerID] else { return false }
        trackers[trackerID] = nil
        retire(calls.setTracker(nil, trackerID))
        trackerIDs.removeAll { $0 == trackerID }
        senderIDs[trackerID] = nil
        tracker.endOfService()
        states[trackerID] = nil
        getters[trackerID] = nil
        return true
    }

    /// The tracker with this id, if any.
    public func tracker(_ trackerID: TrackerID) -> (any Tracker)? {
        trackers[trackerID]
    }

    /// Tells every component the chain is ready: backend, metricalc, hub, then trackers by id.
    public func ready() {
        backend?.instrumentReady(self)
        metricalc?.instrumentReady(self)
        hub?.instrumentReady(self)
        for trackerID in trackerIDs {
            trackers[trackerID]?.instrumentReady(self)
        }
    }

    /// Lets go the memory kept only to be reused by the next event (its metrics'): an idle
    /// instrument costs its state alone.
    package func dropReusableMemory() {
        metricsMemory = []
    }

    /// Tells every component the job is done: trackers by id (their getters go), hub, metricalc, backend.
    public func shutdown() {
        for trackerID in trackerIDs {
            trackers[trackerID]?.endOfService()
            getters[trackerID] = nil
        }
        hub?.endOfService()
        metricalc?.endOfService()
        backend?.endOfService()
    }

    // MARK: Tracker states

    /// The state of a tracker; a fresh state for an unknown id.
    public func state(of trackerID: TrackerID) -> TrackerState {
        states[trackerID] ?? TrackerState()
    }

    /// Replaces the state of a tracker that belongs to the instrument.
    public func setState(_ state: TrackerState, of trackerID: TrackerID) {
        guard trackers[trackerID] != nil else { return }
        states[trackerID] = state
    }

    // MARK: Emitting

    /// Emits an action from a tracker at a time, through the whole chain.
    ///
    /// The new event gets `senderId` (`<instrument id>-<tracker id>`), then the time-since
    /// attribute of every action that reached the backend before (milliseconds from then to
    /// `timestamp`), then the tracker's supplied attributes, then its getters' attributes
    /// (but for those it supplies). An action's time-since clock is restarted only when its
    /// event reaches the backend, as in OpenAVT.
    /// - Parameters:
    ///   - action: What happened.
    ///   - trackerID: The tracker that saw it.
    ///   - timestamp: When it happened.
    /// - Returns: What became of the event.
    @discardableResult
    public func emit(_ action: Action, trackerID: TrackerID, at timestamp: Timestamp) -> EmitOutcome {
        if let restart = pendingRestart.take() { clocks.restart(restart.key, at: restart.time) }
        guard let tracker = calls.trackers[trackerID] else { return .notProcessed }
        emitDepth += 1
        defer { endCall() }
        // Room for the getters' attributes; those the core hubs stamp have slots of their own.
        // The supplied attributes go straight into the event, not through a variable that
        // would be copied (a retain and a release of their bytes).
        var event = Event(
            action: action, timestamp: timestamp, sender: senderIDs[trackerID],
            clocks: clocks.snapshot(at: timestamp), supplied: tracker.suppliedAttributes,
            capacity: getters[trackerID]?.count ?? 0)
        applyGetters(of: trackerID, to: &event)

        // Tracker and hub change the event where it is; a copy is kept only when rejected
        // events are wanted back.
        guard tracker.initEvent(inPlace: &event) else { return .droppedByTracker }
        guard let hub = calls.hub else { return .notProcessed }
        if keepsRejectedEvents {
            let kept = event
            guard hub.process(inPlace: &event, from: trackerID, in: self) else {
                return .rejected(kept, reason: hub.rejectionReason)
            }
        } else {
            // No optional copy to make and destroy on every event.
            guard hub.process(inPlace: &event, from: trackerID, in: self) else {
                return .rejected(nil, reason: hub.rejectionReason)
            }
        }
        guard let backend = calls.backend else { return .notProcessed }
        // Taken out of the instrument, so that a component emitting from within gets memory of
        // its own; shared with the caller again as the outcome goes.
        var metrics: [Metric] = []
        swap(&metrics, &metricsMemory)
        metrics.removeAll(keepingCapacity: true)
        calls.metricalc?.appendMetrics(for: event, from: trackerID, in: self, to: &metrics)
        for index in metrics.indices {
            metrics[index].timestamp = timestamp
            backend.send(metrics[index])
        }
        backend.send(event)
        pendingRestart = (action.timeAttribute, timestamp)
        metricsMemory = metrics
        return .accepted(consume event, metrics: metrics)
    }

    @inline(__always)
    private func endCall() {
        emitDepth -= 1
        if emitDepth == 0 && !retired.isEmpty { retired.removeAll() }
    }

    /// Keeps a replaced or removed component's calls until the calls under way return.
    private func retire(_ replaced: AnyObject?) {
        if emitDepth > 0, let replaced { retired.append(replaced) }
    }
}

// MARK: - State

extension Instrument {
    /// Short keys: a nightly run keeps every open instrument. `n`: the next tracker id; `c`:
    /// the time-since clocks; `h`, `m`, `b`: the hub, metricalc and backend, each its type `t`
    /// and state `s`; `t`: the trackers, each its id `i`, flags `f`, type `t` and state `s`.
    private enum StateKey: String, CodingKey {
        case nextTrackerID = "n", clocks = "c", hub = "h", metricalc = "m", backend = "b", trackers = "t"
    }

    private enum ComponentKey: String, CodingKey {
        case type = "t", state = "s"
    }

    private enum TrackerKey: String, CodingKey {
        case id = "i", flags = "f", type = "t", state = "s"
    }

    /// Writes the instrument's state, so that ``decodeState(from:)`` can carry its open state
    /// machines into another instrument (a nightly run's `--state`): its trackers' ids and
    /// states (``TrackerState``), its time-since clocks, and each component's own state
    /// (``Component/encodeState(to:)``, whose errors it throws as they are).
    ///
    /// The same state always gives the same bytes. Not kept: the components themselves, the
    /// getters (trackers register them again in `instrumentReady`) and
    /// ``keepsRejectedEvents``, which are how the instrument is made.
    public func encodeState(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StateKey.self)
        try container.encode(nextTrackerID, forKey: .nextTrackerID)
        // The restart the next emit would make first, made on a copy: the same clocks, saved.
        var clocks = clocks
        if let restart = pendingRestart { clocks.restart(restart.key, at: restart.time) }
        try container.encode(clocks, forKey: .clocks)
        try Self.encode(hub, forKey: .hub, in: &container)
        try Self.encode(metricalc, forKey: .metricalc, in: &container)
        try Self.encode(backend, forKey: .backend, in: &container)
        var entries = container.nestedUnkeyedContainer(forKey: .trackers)
        for trackerID in trackerIDs {
            guard let tracker = trackers[trackerID] else { continue }
            var entry = entries.nestedContainer(keyedBy: TrackerKey.self)
            try entry.encode(trackerID, forKey: .id)
            try entry.encode(state(of: trackerID), forKey: .flags)
            try entry.encode(Self.typeName(of: tracker), forKey: .type)
            try tracker.encodeState(to: entry.superEncoder(forKey: .state))
        }
    }

    /// Restores what ``encodeState(to:)`` wrote into an instrument made the same way: the same
    /// types of components, the same trackers added with the same ids, and ``ready()`` called.
    ///
    /// Throws a `DecodingError` when the instrument is not made as the saved one was (before
    /// changing anything), and the components' errors (``Component/decodeState(from:)``) as
    /// they are; after an error, make a fresh instrument.
    public func decodeState(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: StateKey.self)
        // Everything is checked before anything changes.
        var restores: [(component: any Component, decoder: any Decoder)] = []
        try Self.check(backend, forKey: .backend, in: container, into: &restores)
        try Self.check(metricalc, forKey: .metricalc, in: container, into: &restores)
        try Self.check(hub, forKey: .hub, in: container, into: &restores)
        var entries = try container.nestedUnkeyedContainer(forKey: .trackers)
        var savedIDs: [TrackerID] = []
        var flags: [TrackerState] = []
        while !entries.isAtEnd {
            let entry = try entries.nestedContainer(keyedBy: TrackerKey.self)
            let trackerID = try entry.decode(TrackerID.self, forKey: .id)
            savedIDs.append(trackerID)
            flags.append(try entry.decode(TrackerState.self, forKey: .flags))
            guard let tracker = trackers[trackerID] else { continue }
            let type = try entry.decode(String.self, forKey: .type)
            guard type == Self.typeName(of: tracker) else {
                throw Self.mismatch(
                    "the state's tracker \(trackerID) is a \(type), this instrument's a \(Self.typeName(of: tracker))",
                    at: entry.codingPath)
            }
            restores.append((tracker, try entry.superDecoder(forKey: .state)))
        }
        guard savedIDs == trackerIDs else {
            throw Self.mismatch(
                "the state was saved from an instrument with the trackers \(savedIDs), this one has \(trackerIDs)",
                at: entries.codingPath)
        }
        let nextTrackerID = try container.decode(TrackerID.self, forKey: .nextTrackerID)
        guard nextTrackerID > (trackerIDs.last ?? -1) else {
            throw Self.mismatch(
                "the next tracker id \(nextTrackerID) is taken", at: container.codingPath + [StateKey.nextTrackerID])
        }
        let clocks = try container.decode(TimeSinceClocks.self, forKey: .clocks)

        self.nextTrackerID = nextTrackerID
        self.clocks = clocks
        pendingRestart = nil
        for (trackerID, state) in zip(trackerIDs, flags) {
            states[trackerID] = state
        }
        for restore in restores {
            try restore.component.decodeState(from: restore.decoder)
        }
    }

    private static func encode(
        _ component: (any Component)?, forKey key: StateKey, in container: inout KeyedEncodingContainer<StateKey>
    ) throws {
        guard let component else { return }
        var nested = container.nestedContainer(keyedBy: ComponentKey.self, forKey: key)
        try nested.encode(typeName(of: component), forKey: .type)
        try component.encodeState(to: nested.superEncoder(forKey: .state))
    }

    /// Checks that the state has a component of the same type under `key` as the instrument
    /// (or neither has one), and adds the component and the decoder of its state to `restores`.
    private static func check(
        _ component: (any Component)?, forKey key: StateKey, in container: KeyedDecodingContainer<StateKey>,
        into restores: inout [(component: any Component, decoder: any Decoder)]
    ) throws {
        let path = container.codingPath + [key]
        guard let component else {
            guard !container.contains(key) else {
                throw mismatch("the state has a \(key.rawValue), this instrument has none", at: path)
            }
            return
        }
        guard container.contains(key) else {
            throw mismatch("the state has no \(key.rawValue), this instrument has \(typeName(of: component))", at: path)
        }
        let nested = try container.nestedContainer(keyedBy: ComponentKey.self, forKey: key)
        let type = try nested.decode(String.self, forKey: .type)
        guard type == typeName(of: component) else {
            throw mismatch(
                "the state's \(key.rawValue) is a \(type), this instrument's a \(typeName(of: component))", at: path)
        }
        restores.append((component, try nested.superDecoder(forKey: .state)))
    }

    private static func typeName(of component: any Component) -> String {
        String(describing: type(of: component))
    }

    private static func mismatch(_ description: String, at path: [any CodingKey]) -> DecodingError {
        .dataCorrupted(
            .init(codingPath: path, debugDescription: description + ": restore into an instrument made the same way"))
    }
}
