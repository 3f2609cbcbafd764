import EventLog
import EventModel
import Foundation
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

    /// The entries of `path`, read whole by ``EventLogReader`` or pulled a few at a time by
    /// ``EntrySource`` with the replay's small buffers, and the error that ended reading.
    private func entries(
        _ path: String, pulled: Bool, maxLineLength: Int
    ) throws -> (entries: [LogEntry], error: EventLogError?, bytesRead: Int64) {
        var entries: [LogEntry] = []
        if pulled {
            let source = try EntrySource(
                path: path,
                configuration: LineReaderConfiguration(
                    maxLineLength: maxLineLength, readSize: 32 << 10, fillSize: 128 << 10),
                decoder: RecordDecoder())
            do {
                while try source.next(upTo: 7, { entries.append($0) }) {}
            } catch {
                return (entries, error, source.bytesRead)
            }
            return (entries, nil, source.bytesRead)
        }
        let reader = try EventLogReader(
            path: path, configuration: LineReaderConfiguration(maxLineLength: maxLineLength))
        do {
            try reader.forEachEntry { entries.append($0) }
        } catch let error as EventLogError {
            return (entries, error, reader.bytesRead)
        }
        return (entries, nil, reader.bytesRead)
    }

    /// Lines of every kind, many blocks' worth: records with attributes of varying length,
    /// blank lines, rejected lines and lines too long for a limit of 2,000 bytes.
    private static let mixedLog: String = (0..<6_000).map { index in
        switch index % 13 {
        case 3: ""
        case 7: "{\"ts\":\(index),\"instrument\":\"i\(index % 50)\",\"tracker\":true}"
        case 11: "not json \(index)"
        case 12 where index % 5 == 0: "{\"ts\":\(index),\"pad\":\"" + String(repeating: "y", count: 2_500) + "\"}"
        default:
            "{\"ts\":\(index),\"instrument\":\"i\(index % 50)\",\"tracker\":\(index % 3),\"action\":\"Ping\","
                + "\"attrs\":{\"n\":\(index),\"s\":\"" + String(repeating: "x", count: index % 300) + "\"}}"
        }
    }.joined(separator: "\n")

    @Test func pullingGivesTheSameEntriesInTheSameOrder() throws {
        let directory = try TemporaryDirectory()
        let compressed = try gzip(Data(Self.mixedLog.utf8))
        let path = try directory.write(compressed, to: "a.jsonl.gz")
        let plain = try directory.write(Self.mixedLog, to: "a.jsonl")
        for file in [path, plain] {
            let inLine = try entries(file, pulled: false, maxLineLength: 2_000)
            let ahead = try entries(file, pulled: true, maxLineLength: 2_000)
            #expect(inLine.error == nil && ahead.error == nil)
            #expect(ahead.entries.count == (0..<6_000).count { $0 % 13 != 3 })  // all but the blank lines
            #expect(ahead.entries == inLine.entries)
            #expect(ahead.bytesRead == Int64(file == path ? compressed.count : Self.mixedLog.utf8.count))
        }
    }

    @Test func pullingDeliversTheLinesBeforeDamageThenTheError() throws {
        let directory = try TemporaryDirectory()
        let compressed = try gzip(Data(Self.mixedLog.utf8), level: 1)
        let path = try directory.write(compressed.prefix(compressed.count * 2 / 3), to: "cut.jsonl.gz")
        let inLine = try entries(path, pulled: false, maxLineLength: 2_000)
        let ahead = try entries(path, pulled: true, maxLineLength: 2_000)
        let error = try #require(ahead.error)
        #expect(error.kind == .truncatedGzip)
        #expect(error == inLine.error)
        #expect(ahead.entries.count > 2_000)
        #expect(ahead.entries == inLine.entries)
    }

    @Test func aLineLargerThanTheFillSizeIsReadWhole() throws {
        let directory = try TemporaryDirectory()
        let large =
            "{\"ts\":2,\"type\":\"app\",\"app\":\"" + String(repeating: "a", count: 300_000)
            + "\",\"event\":\"didBecomeActive\"}"
        let text = ["{\"ts\":1,\"instrument\":\"i\",\"tracker\":0,\"action\":\"Start\"}", large, "[1]"]
            .joined(separator: "\n")
        let path = try directory.write(try gzip(Data(text.utf8)), to: "large.jsonl.gz")
        let ahead = try entries(path, pulled: true, maxLineLength: 400_000)
        try #require(ahead.entries.count == 3)
        #expect(ahead.entries == (try entries(path, pulled: false, maxLineLength: 400_000)).entries)
        guard case .record(.app(let app), line: 2) = ahead.entries[1] else {
            Issue.record("expected the large line's record: \(ahead.entries[1])")
            return
        }
        #expect(app.app.utf8.count == 300_000)
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
