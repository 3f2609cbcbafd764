import EventModel
import OpenAVT
import ReplayTestSupport
import Testing

/// The instrument's behaviour that OpenAVT-iOS's own suite does not cover: custom actions and
/// attributes, getters and their filters, hot-plugging, the lifecycle, and the chain's edges.
struct InstrumentTests {
    @Test func aCustomActionGetsItsTimeSinceAttribute() {
        var harness = InstrumentHarness(hub: HubCore())
        let custom = Action(name: "CustomAction")
        let renamed = Action(name: "Renamed", timeAttribute: "myTimeSince")
        harness.emit(custom)
        harness.emit(renamed)
        harness.advance(by: 250)
        harness.emit(.ping)
        let ping = harness.backend.takeLastEvent()
        #expect(ping?["timeSinceCustomAction"] == 250)
        #expect(ping?["myTimeSince"] == 250)
        #expect(ping?["timeSinceRenamed"] == nil)
        // Only the clocks of actions that reached the backend are on an event.
        #expect(ping?[Action.start.timeAttribute] == nil)
        #expect(
            ping?.attributes.keys.filter { $0.rawValue.hasPrefix("timeSince") }.sorted() == ["timeSinceCustomAction"])
    }

    @Test func timeSinceAttributesBehaveAsStoredOnes() {
        // The hub hides one time-since attribute and overwrites another; the snapshot an
        // event keeps must not change when the instrument's clocks restart afterwards.
        var harness = InstrumentHarness(hub: EditingHub())
        harness.emit(.mediaRequest)
        harness.advance(by: 100)
        harness.emit(.streamLoad)
        harness.advance(by: 50)
        harness.emit(.start)
        guard let start = harness.backend.takeLastEvent() else {
            Issue.record("Start did not reach the backend")
            return
        }
        #expect(start[Action.mediaRequest.timeAttribute] == nil)
        #expect(start[Action.streamLoad.timeAttribute] == 7)
        #expect(start.attributes[Action.mediaRequest.timeAttribute] == nil)
        #expect(start.attributes[Action.streamLoad.timeAttribute] == 7)
        harness.advance(by: 1_000)
        harness.emit(.ping)
        let ping = harness.backend.takeLastEvent()
        // Later events see the instrument's clocks, not the hub's edits of an earlier event.
        #expect(ping?[Action.mediaRequest.timeAttribute] == 1_150)
        #expect(ping?[Action.streamLoad.timeAttribute] == 1_050)
        #expect(ping?[Action.start.timeAttribute] == 1_000)
        #expect(start[Action.start.timeAttribute] == nil)
        var copy = start
        copy[Action.streamLoad.timeAttribute] = nil
        #expect(copy[Action.streamLoad.timeAttribute] == nil)
        #expect(start[Action.streamLoad.timeAttribute] == 7)
        #expect(copy != start)
        copy[Action.streamLoad.timeAttribute] = 7
        #expect(copy == start)
    }

    @Test func attributesTheHubsStampBehaveAsAnyOther() {
        // Kept in slots of their own, they read, overwrite, change type and disappear as
        // attributes kept in the list do.
        var event = Event(action: .start, timestamp: Timestamp(milliseconds: 0), attributes: ["countErrors": "many"])
        #expect(event[.countErrors] == "many")
        event[.countErrors] = 2
        #expect(event[.countErrors] == 2)
        #expect(event.attributes == [.countErrors: 2])
        event[.inPauseBlock] = true
        event[.playbackId] = "p-1"
        event[.streamId] = 5
        #expect(event[.inPauseBlock] == true)
        #expect(event[.playbackId] == "p-1")
        #expect(event[.streamId] == 5)
        event[.streamId] = "s-1"
        event[.playbackId] = nil
        #expect(event.attributes == [.countErrors: 2, .inPauseBlock: true, .streamId: "s-1"])
        let same = Event(
            action: .start, timestamp: Timestamp(milliseconds: 0),
            attributes: [.streamId: "s-1", .inPauseBlock: true, .countErrors: 2])
        #expect(event == same)
        #expect(event.hashValue == same.hashValue)
        event[.inPauseBlock] = false
        #expect(event[.inPauseBlock] == false)
        #expect(event != same)
    }

    @Test func typedReadsAreTheSubscriptsValueOfThatType() {
        // In a slot, in the list with another type, in the list for a key without a slot, or
        // missing: `integer`, `flag` and `string` read what the subscript holds, if of their type.
        var event = Event(
            action: .start, timestamp: Timestamp(milliseconds: 0),
            attributes: [.countErrors: 3, .inPauseBlock: "yes", .playbackId: "p-1", .title: "T", .duration: 9])
        event[.streamId] = 5
        let keys: [AttributeKey] = [.countErrors, .inPauseBlock, .playbackId, .streamId, .title, .duration, .countAds]
        for key in keys {
            #expect(event.integer(key) == event[key]?.int, "\(key)")
            #expect(event.flag(key) == event[key]?.bool, "\(key)")
            #expect(event.string(key) == event[key]?.string, "\(key)")
        }
        #expect(event.integer(.countErrors) == 3)
        #expect(event.string(.inPauseBlock) == "yes")
        #expect(event.flag(.inPauseBlock) == nil)
        #expect(event.integer(.streamId) == 5)
        #expect(event.string(.playbackId) == "p-1")
        #expect(event.integer(.duration) == 9)
        #expect(event.integer(.countAds) == nil)
    }

    @Test func suppliedAttributesActAsGettersAndHideLikeStoredOnes() {
        let instrument = Instrument(id: "i", hub: HubCore(), backend: RecordingBackend())
        let tracker = SupplyingTracker()
        let id = instrument.addTracker(tracker)
        // A supplied attribute wins over a getter of the same name and over `senderId`;
        // other getters still apply.
        instrument.registerGetter("title", for: id) { "from a getter" }
        instrument.registerGetter("extra", for: id) { 1 }
        instrument.ready()
        tracker.suppliedAttributes = SuppliedAttributes(
            PackedAttributes(["title": "A", "senderId": "recorded", "position": 5]))
        guard case .accepted(var event, _) = instrument.emit(.mediaRequest, trackerID: id, at: 1_000) else {
            Issue.record("MediaRequest was not accepted")
            return
        }
        #expect(event["title"] == "A")
        #expect(event[.senderId] == "recorded")
        #expect(event["extra"] == 1)
        #expect(instrument.callGetter("title", of: id) == "A")
        #expect(instrument.callGetter("extra", of: id) == 1)
        #expect(event.attributes["position"] == 5)
        event["title"] = nil
        #expect(event["title"] == nil)
        #expect(event.attributes["title"] == nil)
        event["position"] = 6
        #expect(event["position"] == 6)
        #expect(event.attributes["position"] == 6)
        // The tracker's next attributes do not change an event already emitted.
        tracker.suppliedAttributes = SuppliedAttributes()
        #expect(event[.senderId] == "recorded")
        #expect(instrument.callGetter("title", of: id) == "from a getter")
    }

    @Test func useGetterPutsASuppliedValueOnEventsThatReadAnother() {
        let instrument = Instrument(id: "i", hub: HubCore(), backend: RecordingBackend())
        let tracker = SupplyingTracker()
        let id = instrument.addTracker(tracker)
        instrument.ready()
        tracker.suppliedAttributes = SuppliedAttributes(PackedAttributes(["position": 5]))
        // An event that reads the value already (its tracker supplied it) keeps reading it.
        guard case .accepted(var own, _) = instrument.emit(.mediaRequest, trackerID: id, at: 1) else {
            Issue.record("MediaRequest was not accepted")
            return
        }
        instrument.useGetter("position", of: id, on: &own)
        #expect(own["position"] == 5 && own.attributes["position"] == 5)
        // The tracker's own event that stores another value over the supplied one gets it back.
        own["position"] = 9
        instrument.useGetter("position", of: id, on: &own)
        #expect(own["position"] == 5)
        // And so does one whose hub stamped the attribute over the supplied one.
        tracker.suppliedAttributes = SuppliedAttributes(PackedAttributes(["position": 5, "playbackId": "supplied"]))
        guard case .accepted(var stamped, _) = instrument.emit(.streamLoad, trackerID: id, at: 2) else {
            Issue.record("StreamLoad was not accepted")
            return
        }
        #expect(stamped[.playbackId] != "supplied")
        instrument.useGetter(.playbackId, of: id, on: &stamped)
        #expect(stamped[.playbackId] == "supplied")
        // Events that read another value, or none, get it.
        var other = Event(action: .ping, timestamp: 1)
        other["position"] = 3
        instrument.useGetter("position", of: id, on: &other)
        #expect(other["position"] == 5 && other.attributes["position"] == 5)
        var none = Event(action: .ping, timestamp: 1)
        instrument.useGetter("position", of: id, on: &none)
        #expect(none["position"] == 5)
    }

    @Test func actionsAreEqualByName() {
        #expect(Action(name: "Start", timeAttribute: "other") == .start)
        #expect(Action(name: "X").timeAttribute == "timeSinceX")
        #expect(Action(name: "Start") != Action(name: "Stop"))
        #expect(Set([Action(name: "Start"), .start, .stop]).count == 2)
        #expect(Action.adActions.filter(\.isAdAction).count == 14)
        #expect(Action.named("QualityChangeDown") == .qualityChangeDown)
        #expect(Action.named("AdSkip").isAdAction)
        #expect(Action.named("Custom").timeAttribute == "timeSinceCustom")
        #expect(Action(name: "AdBegin", timeAttribute: "x").isAdAction)
        #expect(!Action.start.isAdAction && !Action(name: "Custom").isAdAction)
    }

    @Test func gettersPutTheirValueOnEveryEventTheirFilterLets() {
        let harness = InstrumentHarness(hub: HubCore())
        var bitrate: Int64? = 800
        harness.instrument.registerGetter("bitrate", for: harness.content) { bitrate.map { .int($0) } }
        harness.instrument.registerGetter("onlyOnStart", for: harness.content, getter: { "yes" }) { event, _ in
            event.action == .start
        }
        harness.emit(.streamLoad)
        let load = harness.backend.takeLastEvent()
        #expect(load?["bitrate"] == 800)
        #expect(load?["onlyOnStart"] == nil)
        bitrate = nil
        harness.emit(.start)
        let start = harness.backend.takeLastEvent()
        #expect(start?["bitrate"] == nil)
        #expect(start?["onlyOnStart"] == "yes")
        // callGetter ignores the filter; useGetter applies it.
        #expect(harness.instrument.callGetter("onlyOnStart", of: harness.content) == "yes")
        var ping = Event(action: .ping, timestamp: harness.now)
        harness.instrument.useGetter("onlyOnStart", of: harness.content, on: &ping)
        #expect(ping["onlyOnStart"] == nil)
        harness.instrument.unregisterGetter("onlyOnStart", for: harness.content)
        #expect(harness.instrument.callGetter("onlyOnStart", of: harness.content) == nil)
    }

    @Test func removingATrackerEndsItsServiceAndForgetsItsGetters() {
        let harness = InstrumentHarness(hub: HubCore())
        let extra = LifecycleTracker()
        let extraID = harness.instrument.addTracker(extra)
        #expect(extraID == 1)
        harness.instrument.registerGetter("x", for: extraID) { 1 }
        #expect(harness.instrument.removeTracker(extraID))
        #expect(extra.calls == ["endOfService"])
        #expect(harness.instrument.callGetter("x", of: extraID) == nil)
        #expect(harness.instrument.removeTracker(extraID) == false)
        #expect(harness.instrument.emit(.ping, trackerID: extraID, at: harness.now) == .notProcessed)
        // Ids are not reused.
        #expect(harness.instrument.addTracker(StubTracker()) == 2)
    }

    @Test func replacingAComponentEndsTheOldOnesService() {
        let instrument = Instrument(id: "i")
        let first = LifecycleHub()
        let second = LifecycleHub()
        instrument.setHub(first)
        instrument.setHub(second)
        #expect(first.calls == ["endOfService"])
        instrument.ready()
        #expect(second.calls == ["ready i"])
        instrument.shutdown()
        #expect(second.calls == ["ready i", "endOfService"])
    }

    @Test func aComponentReplacedOrRemovedDuringAnEmitLivesUntilTheEmitReturns() {
        // The instrument calls its components without retaining them for the call; one that
        // a component replaces or removes meanwhile must still be there until the emit ends,
        // and must be released then.
        let instrument = Instrument(id: "i", backend: RecordingBackend())
        weak var replacedHub: ReplacingHub?
        weak var removedTracker: StubTracker?
        do {
            let hub = ReplacingHub()
            let tracker = StubTracker()
            instrument.setHub(hub)
            instrument.addTracker(tracker)
            hub.stillThere = { replacedHub != nil && removedTracker != nil }
            (replacedHub, removedTracker) = (hub, tracker)
        }
        instrument.ready()
        guard case .accepted(let event, _) = instrument.emit(.ping, trackerID: 0, at: 5) else {
            Issue.record("the replaced hub's event was not accepted")
            return
        }
        #expect(event["replaced"] == true)
        #expect(instrument.hub is HubCore)
        #expect(replacedHub == nil)
        #expect(removedTracker == nil)
        #expect(instrument.emit(.ping, trackerID: 0, at: 6) == .notProcessed)
        let next = instrument.addTracker(StubTracker())
        if case .accepted(let event, _) = instrument.emit(.mediaRequest, trackerID: next, at: 7) {
            #expect(event["replaced"] == nil)
        } else {
            Issue.record("the new hub did not accept MediaRequest")
        }
    }

    @Test func aMetricalcThatReplacesItselfAndEmitsDuringItsCallLivesUntilTheEmitReturns() {
        // The metricalc too is called without being retained, into the instrument's memory for
        // the metrics: one replaced during its call must still be there until the emit ends,
        // and an emit from within gets memory of its own, so neither event's metrics are lost.
        let instrument = Instrument(id: "i", hub: HubCore(), backend: RecordingBackend())
        weak var replaced: ReplacingMetricalc?
        var innerOutcome: EmitOutcome?
        do {
            let metricalc = ReplacingMetricalc()
            instrument.setMetricalc(metricalc)
            metricalc.stillThere = { replaced != nil }
            metricalc.keepInner = { innerOutcome = $0 }
            replaced = metricalc
        }
        instrument.addTracker(StubTracker())
        instrument.ready()
        let outer = instrument.emit(.mediaRequest, trackerID: 0, at: 5)
        guard case .accepted(_, let metrics) = outer else {
            Issue.record("MediaRequest was not accepted: \(outer)")
            return
        }
        let replacedMetric = Metric(
            name: "Replaced", kind: .gauge, value: .int(1), timestamp: Timestamp(milliseconds: 5))
        #expect(metrics == [replacedMetric])
        #expect(replaced == nil)
        #expect(instrument.metricalc is MetricalcCore)
        guard case .accepted(_, let inner)? = innerOutcome else {
            Issue.record("the emit from within was not accepted")
            return
        }
        #expect(inner == [Metric.numLoads(1).at(Timestamp(milliseconds: 5))])
    }

    @Test func aTrackerWhoseGetterRemovesItDuringTheAdsHubsWalkIsReleasedAfterTheEmit() {
        let instrument = Instrument(id: "i", hub: HubCoreAds(), backend: RecordingBackend())
        instrument.addTracker(StubTracker())
        weak var removedTracker: StubTracker?
        let removed = instrument.addTracker(
            {
                let tracker = StubTracker()
                removedTracker = tracker
                return tracker
            }())
        instrument.ready()
        // After `ready()`, where the stub trackers register their own getters.
        instrument.registerGetter(.isAdsTracker, for: removed) { [unowned instrument] in
            instrument.removeTracker(removed)
            return .bool(false)
        }
        instrument.registerGetter(.position, for: removed) { 2_000 }
        // The event is an ads tracker's, so the hub walks the content trackers for a position.
        instrument.registerGetter(.isAdsTracker, for: 0) { true }
        guard case .accepted(let event, _) = instrument.emit(.mediaRequest, trackerID: 0, at: 5) else {
            Issue.record("MediaRequest was not accepted")
            return
        }
        // Removed by its own getter, the tracker (and its getters) put nothing on the event.
        #expect(event[.position] == nil)
        #expect(instrument.trackerIDs == [0])
        #expect(removedTracker == nil)
    }

    @Test func readyAndShutdownReachEveryComponentInOpenAVTsOrder() {
        let log = CallLog()
        let instrument = Instrument(
            id: "i", hub: LifecycleHub(name: "hub", log: log), metricalc: LifecycleMetricalc(log: log),
            backend: LifecycleBackend(log: log))
        instrument.addTracker(LifecycleTracker(name: "t0", log: log))
        instrument.addTracker(LifecycleTracker(name: "t1", log: log))
        instrument.ready()
        #expect(log.calls == ["backend ready", "metricalc ready", "hub ready", "t0 ready", "t1 ready"])
        log.calls.removeAll()
        instrument.shutdown()
        #expect(log.calls == ["t0 end", "t1 end", "hub end", "metricalc end", "backend end"])
    }

    @Test func aTrackerCanDropAnEventBeforeTheHub() {
        let instrument = Instrument(id: "i", hub: HubCore(), backend: RecordingBackend())
        let tracker = LifecycleTracker(dropping: .ping)
        instrument.addTracker(tracker)
        instrument.ready()
        #expect(instrument.emit(.ping, trackerID: 0, at: 5) == .droppedByTracker)
        #expect(instrument.emit(.mediaRequest, trackerID: 0, at: 6) != .droppedByTracker)
    }

    @Test func withoutABackendNothingIsProcessedAndNoClockRestarts() {
        let instrument = Instrument(id: "i", hub: HubCore(), metricalc: MetricalcCore())
        instrument.addTracker(StubTracker())
        instrument.ready()
        #expect(instrument.emit(.mediaRequest, trackerID: 0, at: 1_000) == .notProcessed)
        instrument.setBackend(RecordingBackend())
        guard case .accepted(let event, _) = instrument.emit(.streamLoad, trackerID: 0, at: 2_000) else {
            Issue.record("StreamLoad was not accepted")
            return
        }
        // The MediaRequest changed the hub's state but never reached a backend, so it has no time-since.
        #expect(event[Action.mediaRequest.timeAttribute] == nil)
        #expect(instrument.state(of: 0).didMediaRequest)
    }

    @Test func metricsAreStampedWithTheEventsTime() {
        var harness = InstrumentHarness(hub: HubCore(), withMetricalc: true)
        harness.emit(.mediaRequest)
        harness.advance(by: 42)
        guard case .accepted(_, let metrics) = harness.emit(.streamLoad) else {
            Issue.record("StreamLoad was not accepted")
            return
        }
        #expect(metrics.map(\.timestamp) == [harness.now])
    }

    @Test func derivedIDsCountPerKind() {
        var generator = SequentialIDGenerator()
        #expect(generator.makeID(.playback, instrument: "a") == "a:p1")
        #expect(generator.makeID(.stream, instrument: "a") == "a:s1")
        #expect(generator.makeID(.playback, instrument: "a") == "a:p2")
        #expect(generator.playbacks == 2)
        #expect(generator.streams == 1)
    }
}

// MARK: - Components that log their lifecycle

final class CallLog {
    var calls: [String] = []
}

final class LifecycleTracker: Tracker {
    var trackerID: TrackerID?
    private let name: String
    private let log: CallLog
    private let dropped: Action?
    var calls: [String] { log.calls }

    init(name: String = "tracker", log: CallLog = CallLog(), dropping dropped: Action? = nil) {
        self.name = name
        self.log = log
        self.dropped = dropped
    }

    func initEvent(_ event: Event) -> Event? { event.action == dropped ? nil : event }
    func instrumentReady(_ instrument: Instrument) { log.calls.append("\(name) ready") }
    func endOfService() { log.calls.append(name == "tracker" ? "endOfService" : "\(name) end") }
}

/// A hub that, on `Start`, removes `timeSinceMediaRequest` and sets `timeSinceStreamLoad` to 7.
final class EditingHub: Hub {
    func process(_ event: Event, from tracker: TrackerID, in instrument: Instrument) -> Event? {
        guard event.action == .start else { return event }
        var event = event
        event[Action.mediaRequest.timeAttribute] = nil
        event[Action.streamLoad.timeAttribute] = 7
        return event
    }
}

final class LifecycleHub: Hub {
    private let name: String?
    private let log: CallLog
    var calls: [String] { log.calls }

    init(name: String? = nil, log: CallLog = CallLog()) {
        self.name = name
        self.log = log
    }

    func process(_ event: Event, from tracker: TrackerID, in instrument: Instrument) -> Event? { event }
    func instrumentReady(_ instrument: Instrument) {
        log.calls.append(name.map { "\($0) ready" } ?? "ready \(instrument.id)")
    }
    func endOfService() { log.calls.append(name.map { "\($0) end" } ?? "endOfService") }
}

final class LifecycleMetricalc: Metricalc {
    private let log: CallLog
    init(log: CallLog) { self.log = log }
    func metrics(for event: Event, from tracker: TrackerID, in instrument: Instrument) -> [Metric] { [] }
    func instrumentReady(_ instrument: Instrument) { log.calls.append("metricalc ready") }
    func endOfService() { log.calls.append("metricalc end") }
}

final class LifecycleBackend: Backend {
    private let log: CallLog
    init(log: CallLog) { self.log = log }
    func send(_ event: Event) {}
    func send(_ metric: Metric) {}
    func instrumentReady(_ instrument: Instrument) { log.calls.append("backend ready") }
    func endOfService() { log.calls.append("backend end") }
}

/// A hub that, processing an event, replaces itself with a ``HubCore`` and removes the
/// event's tracker, then marks the event `replaced` if both were still there (`stillThere`).
private final class ReplacingHub: Hub {
    var stillThere: () -> Bool = { false }

    func process(_ event: Event, from tracker: TrackerID, in instrument: Instrument) -> Event? {
        instrument.setHub(HubCore())
        instrument.removeTracker(tracker)
        var event = event
        event["replaced"] = .bool(stillThere())
        return event
    }
}

/// A metricalc that, for `MediaRequest`, replaces itself with `MetricalcCore` and emits
/// `StreamLoad` from within, then gives one metric: whether it was still there.
private final class ReplacingMetricalc: Metricalc {
    var stillThere: () -> Bool = { false }
    /// Takes the outcome of the emit from within.
    var keepInner: (EmitOutcome) -> Void = { _ in }

    func metrics(for event: Event, from tracker: TrackerID, in instrument: Instrument) -> [Metric] {
        guard event.action == .mediaRequest else { return [] }
        instrument.setMetricalc(MetricalcCore())
        keepInner(instrument.emit(.streamLoad, trackerID: tracker, at: event.timestamp))
        return [Metric(name: "Replaced", kind: .gauge, value: .int(stillThere() ? 1 : 0))]
    }
}

/// A tracker whose supplied attributes the test sets.
private final class SupplyingTracker: Tracker {
    var trackerID: TrackerID?
    var suppliedAttributes = SuppliedAttributes()
    func initEvent(_ event: consuming Event) -> Event? { event }
}
