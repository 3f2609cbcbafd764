import EventModel

/// An instrument's components as ``Instrument/emit(_:trackerID:at:)`` calls them: without
/// retaining them.
///
/// Swift retains a class reference it reads from a property for the length of a call, and
/// releases it after: the tracker, hub, metricalc and backend were 8 of the 50 atomic
/// reference-count operations of a replayed record. `Unmanaged` lends an object to a call
/// without that (`_withUnsafeGuaranteedRef`), but takes only a class, not a protocol's
/// existential. So each component gets a call object, a class generic over the component's
/// own type, which holds it; the call objects are kept here (strongly) and called through
/// `Unmanaged`. Whoever replaces or removes a component during an emit must keep its call
/// object alive until the emit returns (`Instrument` does).
struct ComponentCalls {
    private(set) var hub: Unmanaged<HubCall>?
    private(set) var metricalc: Unmanaged<MetricalcCall>?
    private(set) var backend: Unmanaged<BackendCall>?
    private(set) var trackers = TrackerTable<Unmanaged<TrackerCall>>()
    // The call objects themselves, which the references above do not retain.
    private var hubCall: HubCall?
    private var metricalcCall: MetricalcCall?
    private var backendCall: BackendCall?
    private var trackerCalls = TrackerTable<TrackerCall>()

    /// Sets the hub; returns the call object of the one it replaces.
    mutating func setHub(_ component: (any Hub)?) -> AnyObject? {
        let replaced = hubCall
        hubCall = component.map { makeHubCall($0) }
        hub = hubCall.map { Unmanaged.passUnretained($0) }
        return replaced
    }

    /// Sets the metricalc; returns the call object of the one it replaces.
    mutating func setMetricalc(_ component: (any Metricalc)?) -> AnyObject? {
        let replaced = metricalcCall
        metricalcCall = component.map { makeMetricalcCall($0) }
        metricalc = metricalcCall.map { Unmanaged.passUnretained($0) }
        return replaced
    }

    /// Sets the backend; returns the call object of the one it replaces.
    mutating func setBackend(_ component: (any Backend)?) -> AnyObject? {
        let replaced = backendCall
        backendCall = component.map { makeBackendCall($0) }
        backend = backendCall.map { Unmanaged.passUnretained($0) }
        return replaced
    }

    /// Sets or removes a tracker; returns the call object of the one it replaces.
    mutating func setTracker(_ component: (any Tracker)?, _ trackerID: TrackerID) -> AnyObject? {
        let replaced = trackerCalls[trackerID]
        trackerCalls[trackerID] = component.map { makeTrackerCall($0) }
        trackers[trackerID] = trackerCalls[trackerID].map { Unmanaged.passUnretained($0) }
        return replaced
    }
}

// Each call object's base class declares the calls `emit` makes, and its generic subclass
// makes them on its component, itself through `Unmanaged` so as not to retain it either.

/// A hub's calls (see ``ComponentCalls``).
class HubCall {
    func process(inPlace event: inout Event, from tracker: TrackerID, in instrument: Instrument) -> Bool {
        preconditionFailure("a subclass makes the calls")
    }
    var rejectionReason: String? { preconditionFailure("a subclass makes the calls") }
}

private func makeHubCall(_ component: some Hub) -> HubCall { ConcreteHubCall(component) }

private final class ConcreteHubCall<Component: Hub>: HubCall {
    let component: Component
    init(_ component: Component) { self.component = component }
    override func process(inPlace event: inout Event, from tracker: TrackerID, in instrument: Instrument) -> Bool {
        Unmanaged.passUnretained(component)._withUnsafeGuaranteedRef {
            $0.process(inPlace: &event, from: tracker, in: instrument)
        }
    }
    override var rejectionReason: String? {
        Unmanaged.passUnretained(component)._withUnsafeGuaranteedRef { $0.rejectionReason }
    }
}

/// A metricalc's calls (see ``ComponentCalls``).
class MetricalcCall {
    func appendMetrics(for event: Event, from tracker: TrackerID, in instrument: Instrument, to metrics: inout [Metric])
    {
        preconditionFailure("a subclass makes the calls")
    }
}

private func makeMetricalcCall(_ component: some Metricalc) -> MetricalcCall { ConcreteMetricalcCall(component) }

private final class ConcreteMetricalcCall<Component: Metricalc>: MetricalcCall {
    let component: Component
    init(_ component: Component) { self.component = component }
    override func appendMetrics(
        for event: Event, from tracker: TrackerID, in instrument: Instrument, to metrics: inout [Metric]
    ) {
        Unmanaged.passUnretained(component)._withUnsafeGuaranteedRef {
            $0.appendMetrics(for: event, from: tracker, in: instrument, to: &metrics)
        }
    }
}

/// A backend's calls (see ``ComponentCalls``).
class BackendCall {
    func send(_ event: Event) { preconditionFailure("a subclass makes the calls") }
    func send(_ metric: Metric) { preconditionFailure("a subclass makes the calls") }
}

private func makeBackendCall(_ component: some Backend) -> BackendCall { ConcreteBackendCall(component) }

private final class ConcreteBackendCall<Component: Backend>: BackendCall {
    let component: Component
    init(_ component: Component) { self.component = component }
    override func send(_ event: Event) {
        Unmanaged.passUnretained(component)._withUnsafeGuaranteedRef { $0.send(event) }
    }
    override func send(_ metric: Metric) {
        Unmanaged.passUnretained(component)._withUnsafeGuaranteedRef { $0.send(metric) }
    }
}

/// A tracker's calls (see ``ComponentCalls``).
class TrackerCall {
    var suppliedAttributes: SuppliedAttributes { preconditionFailure("a subclass makes the calls") }
    func initEvent(inPlace event: inout Event) -> Bool { preconditionFailure("a subclass makes the calls") }
}

private func makeTrackerCall(_ component: some Tracker) -> TrackerCall { ConcreteTrackerCall(component) }

private final class ConcreteTrackerCall<Component: Tracker>: TrackerCall {
    let component: Component
    init(_ component: Component) { self.component = component }
    override var suppliedAttributes: SuppliedAttributes {
        Unmanaged.passUnretained(component)._withUnsafeGuaranteedRef { $0.suppliedAttributes }
    }
    override func initEvent(inPlace event: inout Event) -> Bool {
        Unmanaged.passUnretained(component)._withUnsafeGuaranteedRef { $0.initEvent(inPlace: &event) }
    }
}

// Calls through `Unmanaged`, read as calls on the components.

extension Unmanaged where Instance == HubCall {
    func process(inPlace event: inout Event, from tracker: TrackerID, in instrument: Instrument) -> Bool {
        _withUnsafeGuaranteedRef { $0.process(inPlace: &event, from: tracker, in: instrument) }
    }
    var rejectionReason: String? { _withUnsafeGuaranteedRef { $0.rejectionReason } }
}

extension Unmanaged where Instance == MetricalcCall {
    func appendMetrics(for event: Event, from tracker: TrackerID, in instrument: Instrument, to metrics: inout [Metric])
    {
        _withUnsafeGuaranteedRef { $0.appendMetrics(for: event, from: tracker, in: instrument, to: &metrics) }
    }
}

extension Unmanaged where Instance == BackendCall {
    func send(_ event: Event) { _withUnsafeGuaranteedRef { $0.send(event) } }
    func send(_ metric: Metric) { _withUnsafeGuaranteedRef { $0.send(metric) } }
}

extension Unmanaged where Instance == TrackerCall {
    var suppliedAttributes: SuppliedAttributes { _withUnsafeGuaranteedRef { $0.suppliedAttributes } }
    func initEvent(inPlace event: inout Event) -> Bool { _withUnsafeGuaranteedRef { $0.initEvent(inPlace: &event) } }
}
