import EventLog
import EventModel
import Testing

@Suite struct EventLogReaderTests {
    @Test func recordsAndRejectionsInLineOrder() throws {
        let directory = try TemporaryDirectory()
        let long = "{\"ts\":1,\"pad\":\"" + String(repeating: "x", count: 300) + "\"}"
        let text = """
            {"ts":1,"instrument":"i","tracker":0,"action":"Start"}

            {"ts":true}
            {"ts":2,"type":"app","app":"a","event":"didBecomeActive"}
            \(long)
            not json
            """
        let path = try directory.write(try gzip(text), to: "a.jsonl.gz")
        let reader = try EventLogReader(path: path, configuration: LineReaderConfiguration(maxLineLength: 100))
        var entries: [LogEntry] = []
        try reader.forEachEntry { entries.append($0) }
        try #require(entries.count == 5)
        #expect(
            entries[0] == .record(.avt(AVTRecord(timestamp: 1, instrument: "i", tracker: 0, action: "Start")), line: 1))
        #expect(
            entries[1]
                == .rejected(
                    RejectedLine(
                        file: path, line: 3, reason: #""ts" must be an integer or an RFC 3339 string"#,
                        excerpt: Array(#"{"ts":true}"#.utf8))))
        #expect(entries[2] == .record(.app(AppRecord(timestamp: 2, app: "a", event: .didBecomeActive)), line: 4))
        guard case .rejected(let tooLong) = entries[3], case .rejected(let notJSON) = entries[4] else {
            Issue.record("expected two rejections: \(entries)")
            return
        }
        #expect(tooLong.line == 5)
        #expect(tooLong.reason == "line longer than 100 bytes")
        #expect(tooLong.excerpt.count == RejectedLine.excerptLimit)
        #expect(tooLong.excerptText == String(long.prefix(RejectedLine.excerptLimit)))
        #expect(notJSON.line == 6)
        #expect(notJSON.reason.hasPrefix("not valid JSON: "))
        #expect(notJSON.description.hasPrefix("\(path):6: not valid JSON: "))
    }

    @Test func rejectedLinesKeepTheirFirst200Bytes() {
        let bytes = Array(repeating: UInt8(ascii: "a"), count: 500)
        let rejection = bytes.withUnsafeBytes {
            RejectedLine(file: "<stdin>", line: 12, reason: #"missing "ts""#, bytes: $0)
        }
        #expect(rejection.excerpt == Array(bytes.prefix(200)))
        #expect(rejection.description == #"<stdin>:12: missing "ts""#)
    }
}
