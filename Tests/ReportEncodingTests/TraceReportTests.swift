import EventModel
import Replay
import ReportEncoding
import Testing
import TextFormat
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

@Suite("vp_sessions.csv nested attributes")
struct NestedAttributesReportTests {
    /// Nested value-proposition attributes are written as compact JSON with sorted keys,
    /// inside the `attrs` cell and in `events.jsonl`.
    @Test func nestedAttributesAreCompactJSONWithSortedKeys() throws {
        let attributes: Attributes = ["movie": .json(#"{"cast":["Ana"],"id":7}"#), "a": 1]
        var row = VPSessionSummary(
            app: "a1", name: "watch", sessionID: "a1:1:v1", attributes: attributes, openedTimestamp: 1_000)
        row.outcome = .open
        var csv = CSVEncoder()
        var buffer: [UInt8] = []
        VPSessionsReport.appendCells(of: row, to: &csv, into: &buffer)
        let text = String(decoding: buffer, as: UTF8.self)
        #expect(text.contains(#""{""a"":1,""movie"":{""cast"":[""Ana""],""id"":7}}""#))
        var json = JSONWriter()
        var line: [UInt8] = []
        json.attributes(attributes, into: &line)
        #expect(String(decoding: line, as: UTF8.self) == #"{"a":1,"movie":{"cast":["Ana"],"id":7}}"#)
    }
}
