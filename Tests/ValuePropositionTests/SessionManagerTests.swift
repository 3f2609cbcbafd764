import EventModel
import Testing
import ValueProposition

/// Tentacles' `DomainActivityTrackingTests`, ported: each sequence of actions on a "watchVideo"
/// value proposition and whether each gives an event or an error.
struct SessionManagerTests {
    static let attributes: Attributes = ["videoName": "Learning Swift", "language": "English", "duration": 3569.0]

    enum Outcome: Equatable, CustomStringConvertible {
        case event(SessionStatus)
        case error
        var description: String {
            switch self {
            case .event(let status): return status.rawValue
            case .error: return "error"
            }
        }
    }

    /// Runs actions one millisecond apart and returns the outputs.
    static func run(_ actions: [VPAction], manager: inout SessionManager, attributes: Attributes = attributes)
        -> [SessionOutput]
    {
        actions.enumerated().flatMap { offset, action in
            manager.process(
                VPRecord(
                    timestamp: Timestamp(milliseconds: Int64(1_000 + offset)), app: "a1", name: "watchVideo",
                    attributes: attributes, action: action))
        }
    }

    static func outcomes(_ outputs: [SessionOutput]) -> [Outcome] {
        outputs.map {
            switch $0 {
            case .event(let event): return .event(event.status)
            case .error, .dropped: return .error
            }
        }
    }

    static let sequences: [([VPAction], [Outcome])] = [
        ([.open], [.event(.opened)]),
        ([.open, .open], [.event(.opened), .error]),
        ([.open, .cancel], [.event(.opened), .event(.canceled)]),
        ([.open, .complete], [.event(.opened), .error]),
        ([.open, .pause], [.event(.opened), .error]),
        ([.open, .start, .complete], [.event(.opened), .event(.started), .event(.completed)]),
        ([.open, .pause, .complete], [.event(.opened), .error, .error]),
        (
            [.open, .start, .pause, .start, .complete],
            [.event(.opened), .event(.started), .event(.paused), .event(.started), .event(.completed)]
        ),
        (
            [.open, .start, .pause, .start, .pause, .start, .complete],
            [
                .event(.opened), .event(.started), .event(.paused), .event(.started), .event(.paused),
                .event(.started), .event(.completed),
            ]
        ),
        (
            [.open, .start, .pause, .start, .pause, .start, .cancel],
            [
                .event(.opened), .event(.started), .event(.paused), .event(.started), .event(.paused),
                .event(.started), .event(.canceled),
            ]
        ),
        ([.open, .start, .cancel], [.event(.opened), .event(.started), .event(.canceled)]),
        ([.start], [.error]),
        ([.start, .complete], [.error, .error]),
        ([.start, .cancel], [.error, .error]),
        ([.pause], [.error]),
        ([.cancel], [.error]),
        ([.complete], [.error]),
        ([.open, .cancel, .complete], [.event(.opened), .event(.canceled), .error]),
    ]

    @Test(arguments: sequences)
    func actionsGiveEventsOrErrors(actions: [VPAction], expected: [Outcome]) {
        var manager = SessionManager(app: "a1")
        let outputs = Self.run(actions, manager: &manager)
        #expect(Self.outcomes(outputs) == expected)
    }

    /// `output(of:)`, which the replay calls, gives what `process(_:)` gives, event or error,
    /// for every action of a session's life and one not allowed.
    @Test func anActionsOutputIsWhatProcessGives() {
        var processing = SessionManager(app: "a1")
        var single = SessionManager(app: "a1")
        let actions: [VPAction] = [.start, .open, .start, .pause, .open, .start, .complete, .complete]
        var outputs: [SessionOutput] = []
        for (offset, action) in actions.enumerated() {
            let record = VPRecord(
                timestamp: Timestamp(milliseconds: Int64(1_000 + offset)), app: "a1", name: "watchVideo",
                attributes: Self.attributes, action: action)
            let output = single.output(of: record)
            #expect(processing.process(record) == [output])
            outputs.append(output)
        }
        let outcomes = Self.outcomes(outputs)
        #expect(outcomes.first == .error)
        #expect(outcomes.contains(.event(.completed)))
        #expect(outcomes.last == .error)
    }

    @Test func eventsCarryWhatTentaclesReports() throws {
        var manager = SessionManager(app: "a1")
        let outputs = Self.run([.open, .start, .pause, .start], manager: &manager)
        guard case .event(let event) = outputs.last else {
            Issue.record("no event")
            return
        }
        #expect(event.name == "watchVideo")
        #expect(
            event.attributes == [
                "videoName": "Learning Swift", "language": "English", "duration": 3569.0,
                "category": "valueProposition", "trigger": "clicked", "status": "started",
                "valuePropositionSessionId": "a1:v1", "sessionId": "a1",
                "opened": 1_000, "started": 1_001, "paused": 1_002, "started_1": 1_003,
            ])
    }

    /// Tentacles at ffcb97e (the default) has no `timestamp`; at aef2fe4 the names are those of
    /// domain activities, and `timestamp` (added by 7fe5abe) is the event's time
    /// (DomainActivitySession.swift lines 87, 94 and 97 at aef2fe4).
    @Test func eventsCarryTheNamesOfTheTentaclesVersionChosen() throws {
        var manager = SessionManager(app: "a1", version: .domainActivity)
        let outputs = Self.run([.open, .start], manager: &manager)
        guard case .event(let event) = outputs.last else {
            Issue.record("no event")
            return
        }
        #expect(
            event.attributes == [
                "videoName": "Learning Swift", "language": "English", "duration": 3569.0,
                "category": "domainActivity", "trigger": "clicked", "status": "started",
                "domainActivitySessionId": "a1:v1", "sessionId": "a1", "timestamp": 1_001,
                "opened": 1_000, "started": 1_001,
            ])
        #expect(event.attribute(.timestamp) == 1_001)
        #expect(event.attribute(.valuePropositionSessionId) == nil)
        var seen: [AttributeKey] = []
        event.forEachAttribute(where: { _ in true }) { key, _ in seen.append(key) }
        #expect(Set(seen) == Set(event.attributes.keys))
        // The duration middleware knows both categories.
        let withDuration = Middleware.duration(from: .opened, to: .started).apply(to: event)
        #expect(withDuration?.attributes["durationOpenedStarted"] == 1)
    }

    @Test func eventsOfOneSessionShareItsIDAndAnEndedSessionIsGone() {
        var manager = SessionManager(app: "a1")
        let outputs = Self.run([.open, .start, .complete, .open], manager: &manager)
        let ids = outputs.compactMap { output -> String? in
            if case .event(let event) = output { return event.sessionID }
            return nil
        }
        #expect(ids == ["a1:v1", "a1:v1", "a1:v1", "a1:v2"])
        #expect(manager.openSessions.map(\.id) == ["a1:v2"])
    }

    @Test func twoValuePropositionsWithOtherAttributesAreTwoSessions() {
        var manager = SessionManager(app: "a1")
        var outputs = Self.run([.open, .start], manager: &manager)
        outputs += Self.run(
            [.open, .start, .complete], manager: &manager,
            attributes: ["videoName": "Studying SwiftUI", "language": "German", "duration": 435])
        outputs += Self.run([.complete], manager: &manager)
        #expect(Self.outcomes(outputs).count(where: { $0 != .error }) == 6)
        #expect(manager.openSessions.isEmpty)
    }

    @Test func valuePropositionsOfOtherNamesAreOtherSessionsEvenWithTheSameAttributes() {
        var manager = SessionManager(app: "a1")
        func record(_ name: String, _ action: VPAction, at milliseconds: Int64) -> VPRecord {
            VPRecord(
                timestamp: Timestamp(milliseconds: milliseconds), app: "a1", name: name, attributes: Self.attributes,
                action: action)
        }
        let opened = manager.process(record("watchVideo", .open, at: 1_000))
        let startedElsewhere = manager.process(record("browseCatalog", .start, at: 1_001))
        let openedElsewhere = manager.process(record("browseCatalog", .open, at: 1_002))
        let started = manager.process(record("watchVideo", .start, at: 1_003))
        #expect(
            Self.outcomes(opened + startedElsewhere + openedElsewhere + started) == [
                .event(.opened), .error, .event(.opened), .event(.started),
            ])
        #expect(manager.openSessions.map(\.name) == ["watchVideo", "browseCatalog"])
        #expect(manager.openSessions.map(\.status) == [.started, .opened])
    }

    @Test func attributesCompareAsJSONValues() {
        #expect(
            ValuePropositionKey(name: "n", attributes: ["a": 123])
                == ValuePropositionKey(name: "n", attributes: ["a": 123.0]))
        #expect(
            ValuePropositionKey(name: "n", attributes: ["a": 1, "b": "x"])
                == ValuePropositionKey(name: "n", attributes: ["b": "x", "a": 1]))
        #expect(
            ValuePropositionKey(name: "n", attributes: ["a": 1.5])
                != ValuePropositionKey(name: "n", attributes: ["a": 1]))
        #expect(
            ValuePropositionKey(name: "n", attributes: ["a": "1"])
                != ValuePropositionKey(name: "n", attributes: ["a": 1]))
        #expect(ValuePropositionKey(name: "n", attributes: [:]) != ValuePropositionKey(name: "m", attributes: [:]))
        var manager = SessionManager(app: "a1")
        let outputs =
            Self.run([.open], manager: &manager, attributes: ["n": 2])
            + Self.run([.start], manager: &manager, attributes: ["n": 2.0])
        #expect(Self.outcomes(outputs) == [.event(.opened), .event(.started)])
    }

    /// Attributes packed in the given order, as the decoder packs a record's (JSON order).
    static func packed(_ entries: [(String, Int64)]) -> PackedAttributes {
        let names = entries.map { Array($0.0.utf8) }
        let numbers = names.map { name in name.withUnsafeBytes { PackedAttributes.keyNumber(ofName: $0) } }
        let size = entries.indices.reduce(0) {
            $0
                + PackedAttributes.packedSize(
                    keyNumber: numbers[$1], nameBytes: names[$1].count,
                    valueBytes: PackedAttributes.byteCount(of: entries[$1].1), isString: false)
        }
        return PackedAttributes.pack(byteCount: size) { writer in
            for index in entries.indices {
                names[index].withUnsafeBytes {
                    writer.append(keyNumber: numbers[index], name: $0, int: entries[index].1)
                }
            }
        }
    }

    @Test func recordsFindTheirSessionWhateverTheOrderOfTheirAttributes() {
        let (inOrder, reversed) = (Self.packed([("a", 1), ("b", 2)]), Self.packed([("b", 2), ("a", 1)]))
        #expect(inOrder != reversed)
        func record(_ name: String, _ attributes: PackedAttributes, _ action: VPAction) -> VPRecord {
            VPRecord(
                timestamp: 1, app: "a1", name: name, packedAttributes: attributes, action: action,
                packedActionAttributes: PackedAttributes())
        }
        #expect(record("v", inOrder, .open) == record("v", reversed, .open))
        var manager = SessionManager(app: "a1")
        let outputs = [
            record("v", inOrder, .open), record("v", reversed, .start), record("w", inOrder, .start),
            record("w", reversed, .open), record("w", inOrder, .start), record("v", inOrder, .complete),
        ].flatMap { manager.process($0) }
        let sessions = outputs.map { output -> String? in
            if case .event(let event) = output { return event.sessionID }
            return nil
        }
        #expect(sessions == ["a1:v1", "a1:v1", nil, "a1:v2", "a1:v2", "a1:v1"])
        #expect(manager.openSessions.map(\.id) == ["a1:v2"])
    }

    @Test func actionAttributesOverrideOnThatEventOnly() {
        var manager = SessionManager(app: "a1")
        let open = manager.process(
            VPRecord(timestamp: 1, app: "a1", name: "v", attributes: ["position": 0], action: .open))
        let pause = manager.process(
            VPRecord(
                timestamp: 2, app: "a1", name: "v", attributes: ["position": 0], action: .open,
                actionAttributes: ["position": 42]))
        let start = manager.process(
            VPRecord(
                timestamp: 3, app: "a1", name: "v", attributes: ["position": 0], action: .start,
                trigger: "automatically", actionAttributes: ["position": 42, "extra": true]))
        guard case .event(let opened) = open.first, case .error = pause.first, case .event(let started) = start.first
        else {
            Issue.record("unexpected outputs")
            return
        }
        #expect(opened.attributes["position"] == 0)
        #expect(started.attributes["position"] == 42)
        #expect(started.attributes["extra"] == true)
        #expect(started.attributes["trigger"] == "automatically")
        #expect(manager.openSessions.first?.attributes == ["position": 0])
    }

    /// An event reads one attribute, or some, as its whole dictionary has them, whatever layer
    /// they come from: a value-proposition attribute hides a fixed one, an action's hides both,
    /// the app session's id hides them all.
    @Test func oneAttributeReadsAsTheWholeDictionaryHasIt() throws {
        var manager = SessionManager(app: "a1")
        let attributes: Attributes = ["status": "mine", "position": 0, "durationOpenedStarted": 5, "sessionId": "x"]
        let record = { (timestamp: Timestamp, action: VPAction, actionAttributes: Attributes) in
            VPRecord(
                timestamp: timestamp, app: "a1", name: "v", attributes: attributes, action: action,
                actionAttributes: actionAttributes)
        }
        _ = manager.process(record(1, .open, [:]))
        _ = manager.process(record(2, .start, [:]))
        _ = manager.process(record(3, .pause, [:]))
        let outputs = manager.process(record(4, .start, ["trigger": "mine too", "position": 42, "opened": 7]))
        guard case .event(let event) = outputs.first else {
            Issue.record("no event")
            return
        }
        let whole = event.attributes
        #expect(whole["status"] == "mine")
        #expect(whole["trigger"] == "mine too")
        #expect(whole["opened"] == 7)
        #expect(whole["started_1"] == 4)
        #expect(whole["sessionId"] == "a1")
        let keys: [AttributeKey] = whole.keys.sorted() + ["started_2", "absent"]
        for key in keys {
            #expect(event.attribute(key) == whole[key], "\(key)")
        }
        var visited: Attributes = [:]
        event.forEachAttribute(where: { _ in true }) { key, value in
            #expect(visited.updateValue(value, forKey: key) == nil, "\(key) twice")
        }
        #expect(visited == whole)
        var durations: [AttributeKey] = []
        event.forEachAttribute(where: Middleware.isDurationKey) { key, _ in durations.append(key) }
        #expect(durations == ["durationOpenedStarted"])
    }

    @Test func settingTheAttributesReplacesEveryLayer() throws {
        var manager = SessionManager(app: "a1")
        let outputs = manager.process(
            VPRecord(timestamp: 1, app: "a1", name: "v", attributes: ["position": 0], action: .open))
        guard case .event(var event) = outputs.first else {
            Issue.record("no event")
            return
        }
        let made = event
        event.attributes["position"] = 1
        #expect(event.attribute("position") == 1)
        #expect(event.attribute("status") == "opened")
        #expect(event != made)
        event.attributes["position"] = 0
        #expect(event == made)
        event.attributes = ["only": true]
        #expect(event.attribute("status") == nil)
        #expect(event.attributes == ["only": true])
    }

    /// Every (status, action) pair: allowed changes reach a status, the others are errors that keep it.
    static let transitions: [(SessionStatus, VPAction, SessionStatus?)] = [
        (.opened, .open, nil), (.opened, .start, .started), (.opened, .pause, nil), (.opened, .complete, nil),
        (.opened, .cancel, .canceled),
        (.started, .open, nil), (.started, .start, nil), (.started, .pause, .paused), (.started, .complete, .completed),
        (.started, .cancel, .canceled),
        (.paused, .open, nil), (.paused, .start, .started), (.paused, .pause, nil), (.paused, .complete, nil),
        (.paused, .cancel, .canceled),
    ]

    @Test(arguments: transitions)
    func transitionTable(from status: SessionStatus, action: VPAction, to expected: SessionStatus?) {
        #expect(status.applying(action) == expected)
        var manager = SessionManager(app: "a1")
        let path: [VPAction] =
            switch status {
            case .opened: [.open]
            case .started: [.open, .start]
            case .paused: [.open, .start, .pause]
            case .canceled, .completed: []
            }
        _ = Self.run(path, manager: &manager)
        let outputs = manager.process(
            VPRecord(timestamp: 9_000, app: "a1", name: "watchVideo", attributes: Self.attributes, action: action))
        if let expected {
            #expect(Self.outcomes(outputs) == [.event(expected)])
        } else {
            #expect(
                outputs == [
                    .error(
                        ValuePropositionError(
                            timestamp: 9_000, app: "a1", name: "watchVideo",
                            kind: .prohibitedStatusChange(status: status, action: action), sessionID: "a1:v1"))
                ])
            #expect(manager.openSessions.first?.status == status)
        }
    }
}

/// Nested attributes identify a value proposition as JSON values: key order never matters and
/// `123 == 123.0` (the decoder makes them canonical), arrays compare in order. Tentacles'
/// attributes may nest: they are serialised through `JSONEncoder` and `JSONSerialization`
/// (Serialisable.swift lines 27-35 at aef2fe4).
@Suite struct NestedValuePropositionTests {
    private func action(_ action: VPAction, _ movie: String, at time: Int64) -> VPRecord {
        VPRecord(
            timestamp: Timestamp(milliseconds: time), app: "a1", name: "watch", attributes: ["movie": .json(movie)],
            action: action)
    }

    @Test func theSameNestedValueIsTheSameSession() {
        var manager = SessionManager(app: "a1")
        _ = manager.process(action(.open, #"{"id":123,"tags":["a","b"]}"#, at: 1))
        let start = manager.process(action(.start, #"{"id":123,"tags":["a","b"]}"#, at: 2))
        guard case .event(let started)? = start.first else {
            Issue.record("the start gave no event: \(start)")
            return
        }
        #expect(started.status == .started)
        let other = manager.process(action(.start, #"{"id":123,"tags":["b","a"]}"#, at: 3))
        guard case .error(let error)? = other.first else {
            Issue.record("another array order found the session: \(other)")
            return
        }
        #expect(error.kind == .initialActionNeedsToBeOpen(action: .start))
    }
}
