import EventModel
import Testing
import ValueProposition

/// Tentacles' `DomainActivitySessionTests` and `RawDomainActivityTests`, ported with exact times.
struct SessionTests {
    private func makeSession() -> Session {
        Session(id: "a:v1", name: "Test", attributes: ["stringProperty": "s", "doubleProperty": 1.5], openedAt: 100)
    }

    @Test func aNewSessionIsOpenedWithItsTimestamp() {
        let session = makeSession()
        #expect(session.status == .opened)
        #expect(session.timestampAttributes == ["opened": 100])
    }

    @Test func everyStatusChangeIsTimestampedAndRepeatsAreCounted() {
        var session = makeSession()
        session.reach(.started, at: 200)
        session.reach(.paused, at: 300)
        session.reach(.started, at: 400)
        session.reach(.paused, at: 500)
        session.reach(.completed, at: 600)
        #expect(
            session.timestampAttributes == [
                "opened": 100, "started": 200, "paused": 300, "started_1": 400, "paused_1": 500, "completed": 600,
            ])
        #expect(session.id == "a:v1")
    }

    @Test func resetGivesANewIDAndForgetsTheTimestamps() {
        var session = makeSession()
        session.reach(.started, at: 200)
        let reset = session.reset(id: "a:v2")
        #expect(reset.id == "a:v2")
        #expect(reset.timestampAttributes == [:])
        #expect(reset.status == .started)
    }

    @Test func valuePropositionsAreEqualByNameAndAttributes() {
        let attributes: Attributes = ["stringProperty": "s", "boolProperty": true, "doubleProperty": 1.5]
        #expect(
            ValuePropositionKey(name: "Test", attributes: attributes)
                == ValuePropositionKey(name: "Test", attributes: attributes))
        #expect(
            ValuePropositionKey(name: "Test", attributes: attributes)
                != ValuePropositionKey(name: "DifferentName", attributes: attributes))
        var other = attributes
        other["stringProperty"] = "DifferentName"
        #expect(
            ValuePropositionKey(name: "Test", attributes: attributes)
                != ValuePropositionKey(name: "Test", attributes: other))
    }
}
