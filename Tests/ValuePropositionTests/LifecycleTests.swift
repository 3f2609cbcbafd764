import EventModel
import Testing
import ValueProposition

/// `willResignActive` and `didBecomeActive`, as Tentacles does them.
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

    private func dropped(_ outputs: [SessionOutput]) -> [String] {
        outputs.compactMap {
            if case .dropped(let dropped) = $0 { return dropped.sessionID }
            return nil
        }
    }

    private func errors(_ outputs: [SessionOutput]) -> [String] {
        outputs.compactMap {
            if case .error(let error) = $0 { return error.kind.name }
            return nil
        }
    }

    /// Tentacles' `processDidBecomeActive` sets the restored list as the open sessions
    /// (`DomainActivitySessionManager.swift`, lines 137-150 at aef2fe4) and then forgets it: a
    /// second `didBecomeActive` restores nothing and drops what is open.
    @Test func aSecondDidBecomeActiveRestoresNothingAndDropsWhatIsOpen() {
        var manager = SessionManager(app: "a1")
        _ = open("watch", [.open], at: 1_000, in: &manager)
        _ = manager.process(.willResignActive, at: 2_000)
        #expect(events(manager.process(.didBecomeActive, at: 3_000)).count == 2)
        #expect(dropped(manager.process(.didBecomeActive, at: 4_000)) == ["a1:v2"])
        #expect(manager.openSessions.isEmpty)
    }

    /// Open v1, resign, open v2, active, start v2: v2, opened in the background, is dropped
    /// when v1 is restored, and its `start` has no session (Tentacles: `initialActionNeedsToBeOpen`).
    @Test func aSessionOpenedInTheBackgroundIsDropped() {
        var manager = SessionManager(app: "a1")
        _ = open("v1", [.open], at: 1_000, in: &manager)
        _ = manager.process(.willResignActive, at: 2_000)
        _ = open("v2", [.open], at: 3_000, in: &manager)
        let active = manager.process(.didBecomeActive, at: 4_000)
        #expect(dropped(active) == ["a1:v2"])
        #expect(events(active).map(\.name) == ["v1", "v1"])
        #expect(errors(open("v2", [.start], at: 5_000, in: &manager)) == ["initialActionNeedsToBeOpen"])
        #expect(manager.openSessions.map(\.name) == ["v1"])
    }

    /// Open v1, resign, open and start v1, active, start v1: the remembered v1 is restored (as
    /// opened) in place of the one started in the background, so the start succeeds.
    @Test func theRememberedSessionReplacesTheOneOpenedAgainInTheBackground() {
        var manager = SessionManager(app: "a1")
        _ = open("v1", [.open], at: 1_000, in: &manager)
        _ = manager.process(.willResignActive, at: 2_000)
        _ = open("v1", [.open, .start], at: 3_000, in: &manager)
        let active = manager.process(.didBecomeActive, at: 4_000)
        #expect(dropped(active) == ["a1:v2"])
        #expect(events(active).map(\.sessionID) == ["a1:v3", "a1:v3"])
        let start = events(open("v1", [.start], at: 5_000, in: &manager))
        #expect(start.map(\.status) == [.started])
        #expect(start.map(\.sessionID) == ["a1:v3"])
    }

    /// Open v1, active with no resign, start v1: nothing was remembered, so v1 is dropped and
    /// the start has no session (Tentacles: `initialActionNeedsToBeOpen`).
    @Test func didBecomeActiveWithNothingRememberedDropsTheOpenSessions() {
        var manager = SessionManager(app: "a1")
        _ = open("v1", [.open], at: 1_000, in: &manager)
        #expect(dropped(manager.process(.didBecomeActive, at: 2_000)) == ["a1:v1"])
        #expect(errors(open("v1", [.start], at: 3_000, in: &manager)) == ["initialActionNeedsToBeOpen"])
    }

    /// Tentacles resets its session identifier before restoring (`Tentacles.swift`, line 175 at
    /// aef2fe4): the cancel events carry the old app session id, the restore events and every
    /// later one the new (derived here: `<app>:f<n>` after the n-th `didBecomeActive`).
    @Test func theAppSessionIDIsRenewedWhenTheAppComesBack() {
        var manager = SessionManager(app: "a1")
        let opened = events(open("v1", [.open], at: 1_000, in: &manager))
        #expect(opened.map { $0.attribute(.sessionId) } == ["a1"])
        let resign = events(manager.process(.willResignActive, at: 2_000))
        #expect(resign.map { $0.attribute(.sessionId) } == ["a1"])
        let restore = events(manager.process(.didBecomeActive, at: 3_000))
        #expect(restore.map { $0.attribute(.sessionId) } == ["a1:f1", "a1:f1"])
        #expect(restore.map { $0.attributes["sessionId"] } == ["a1:f1", "a1:f1"])
        let later = events(open("v2", [.open], at: 4_000, in: &manager))
        #expect(later.map { $0.attribute(.sessionId) } == ["a1:f1"])
        _ = manager.process(.willResignActive, at: 5_000)
        #expect(events(manager.process(.didBecomeActive, at: 6_000)).first?.attribute(.sessionId) == "a1:f2")
        var scoped = SessionManager(app: "a1", scope: "77")
        _ = scoped.process(.didBecomeActive, at: 1)
        #expect(scoped.appSessionID == "a1:77:f1")
    }

    @Test func nothingOpenMeansNothingToCancelOrRestore() {
        var manager = SessionManager(app: "a1")
        #expect(manager.process(.willResignActive, at: 1).isEmpty)
        #expect(manager.process(.didBecomeActive, at: 2).isEmpty)
    }
}
