import EventModel
import Replay
import ReportEncoding
import Testing
import ValueProposition

@Suite("events.jsonl")
struct TraceReportTests {
    /// A session dropped when the app came back has a line of its own, with the session's id.
    @Test func aDroppedSessionIsOneLine() {
        let dropped = DroppedSession(timestamp: 9_000, app: "a1", name: "watchingVideo", sessionID: "a1:1:v1")
        let text = String(decoding: TraceReport.encode([.vp(.dropped(dropped))]), as: UTF8.self)
        #expect(text == #"{"ts":9000,"type":"vp","app":"a1","name":"watchingVideo","dropped":"a1:1:v1"}"# + "\n")
    }
}
