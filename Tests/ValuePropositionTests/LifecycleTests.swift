import EventModel
import Testing
import ValueProposition

/// `willResignActive` and `didBecomeActive`, as Tentacles documents them.
struct LifecycleTests {
    private func open(_ name: String, _ actions: [VPAction], at start: Int64, in manager: inout SessionManager)
        -> [SessionOutput]
    {
        actions.enumerated().flatMap { offset, action in
            manager.process(
                VPRecord(
                    timestamp: Timestamp(milliseconds: start + Int64(offset)), app: "a1", name: name, action: action))
        }
    }

    private func events(_ outputs: [SessionOutput]) -> [ValuePropositionEvent] {
        outputs.compactMap {
            if case .event(let event) = $0 { return event }
            return nil
        }
    }

    @Test func backgroundThenForegroundRestoresTheSessionUnderANewID() {
        var manager = SessionManager(app: "a1")
        _ = open("watch", [.open, .start], at: 1_000, in: &manager)
        let resign = events(manager.process(.willResignActive, at: 5_000))
        #expect(resign.map(\.status) == [.canceled])
        #expect(resign.first?.attributes["trigger"] == "willResignActive")
        #expect(resign.first?.attributes["canceled"] == 5_000)
        #expect(manager.openSessions.isEmpty)
        let restore = events(manager.process(.didBecomeActive, at: 9_000))
        #expect(restore.map(\.status) == [.opened, .started])
        #expect(restore.map { $0.attributes["trigger"] } == ["didEnterForeground", "didEnterForeground"])
        #expect(restore.map(\.sessionID) == ["a1:v2", "a1:v2"])
        #expect(restore.first?.restoredFrom == "a1:v1")
        // Fresh timestamps: only the restore's.
        #expect(restore.last?.attributes["opened"] == 9_000)
        #expect(restore.last?.attributes["started"] == 9_000)
        #expect(restore.last?.attributes["started_1"] == nil)
        #expect(manager.openSessions.map(\.status) == [.started])
    }

    /// Tentacles' own `processWillResign` removes by index while enumerating and goes out of
    /// range with two active sessions; replay cancels both, in the order they were opened.
    @Test func twoActiveSessionsAreBothCanceledAndRestored() {
        var manager = SessionManager(app: "a1")
        _ = open("first", [.open, .start, .pause], at: 1_000, in: &manager)
        _ = open("second", [.open], at: 2_000, in: &manager)
        let resign = events(manager.process(.willResignActive, at: 5_000))
        #expect(resign.map(\.name) == ["first", "second"])
        #expect(resign.map(\.status) == [.canceled, .canceled])
        let restore = events(manager.process(.didBecomeActive, at: 6_000))
        #expect(restore.map(\.name) == ["first", "first", "second", "second"])
        #expect(restore.map(\.status) == [.opened, .paused, .opened, .opened])
        #expect(restore.map(\.sessionID) == ["a1:v3", "a1:v3", "a1:v4", "a1:v4"])
        // A session that was only opened gets `opened` twice.
        #expect(restore.last?.attributes["opened_1"] == 6_000)
        #expect(manager.openSessions.map(\.status) == [.paused, .opened])
    }

    @Test func aSecondDidBecomeActiveRestoresNothing() {
        var manager = SessionManager(app: "a1")
        _ = open("watch", [.open], at: 1_000, in: &manager)
        _ = manager.process(.willResignActive, at: 2_000)
        #expect(events(manager.process(.didBecomeActive, at: 3_000)).count == 2)
        #expect(manager.process(.didBecomeActive, at: 4_000).isEmpty)
        #expect(manager.openSessions.count == 1)
    }

    @Test func aSessionOpenedAgainInTheBackgroundIsNotRestored() {
        var manager = SessionManager(app: "a1")
        _ = open("watch", [.open, .start], at: 1_000, in: &manager)
        _ = manager.process(.willResignActive, at: 2_000)
        _ = open("watch", [.open], at: 3_000, in: &manager)
        #expect(manager.process(.didBecomeActive, at: 4_000).isEmpty)
        #expect(manager.openSessions.map(\.id) == ["a1:v2"])
    }

    @Test func nothingOpenMeansNothingToCancelOrRestore() {
        var manager = SessionManager(app: "a1")
        #expect(manager.process(.willResignActive, at: 1).isEmpty)
        #expect(manager.process(.didBecomeActive, at: 2).isEmpty)
    }
}
