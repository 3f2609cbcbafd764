import Foundation
import Testing

@testable import EventLog

@Suite struct EntrySourceTests {
    /// The entries read from an input and the error that ended reading, if any.
    struct Outcome: Equatable {
        var entries: [LogEntry] = []
        var error: EventLogError?
    }

    /// Configurations that cross every boundary: the default one, tiny reads and fills, and
    /// the small buffers meant for many open sources (whose line buffer must grow for a
    /// long line).
    static let configurations = [
        LineReaderConfiguration(),
        LineReaderConfiguration(maxLineLength: 2_000, readSize: 7, fillSize: 13),
        LineReaderConfiguration(maxLineLength: 200_000, readSize: 16 << 10, fillSize: 64 << 10),
    ]

    /// What ``EventLogReader/forEachEntry(_:)`` reads.
    static func readWhole(_ path: String, configuration: LineReaderConfiguration) throws -> Outcome {
        let reader = try EventLogReader(path: path, configuration: configuration)
        var outcome = Outcome()
        do {
            try reader.forEachEntry { outcome.entries.append($0) }
        } catch let error as EventLogError {
            outcome.error = error
        }
        return outcome
    }

    /// What a source reads `chunk` entries at a time, checking each call's count, the line
    /// number reached and that nothing follows the end.
    static func readInChunks(
        _ path: String, configuration: LineReaderConfiguration, chunk: Int
    ) throws -> Outcome {
        let source = try EntrySource(path: path, configuration: configuration, decoder: RecordDecoder())
        var outcome = Outcome()
        do {
            while true {
                let before = outcome.entries.count
                let more = try source.next(upTo: chunk) { outcome.entries.append($0) }
                let delivered = outcome.entries.count - before
                #expect(more ? delivered == chunk : delivered <= chunk, "\(path), chunk \(chunk)")
                #expect(source.lineNumber == outcome.entries.last?.line ?? 0)
                if !more { break }
            }
        } catch {
            outcome.error = error
        }
        var after = 0
        #expect(try source.next(upTo: chunk) { _ in after += 1 } == false)
        #expect(after == 0)
        #expect(source.allocatedByteCount == 0)
        return outcome
    }

    /// The paths of inputs of every kind: plain and gzip, several members, CRLF and blank lines,
    /// lines too long, not JSON or not a record, damaged and empty gzip, empty files.
    static func inputs(in directory: TemporaryDirectory) throws -> [String] {
        let sample = sampleLog(count: 300).text
        let short = """
            {"ts":1,"instrument":"i","tracker":0,"action":"Start"}

            {"ts":true}
            {"ts":2,"type":"app","app":"a","event":"didBecomeActive"}
            not json
            [1]
            """
        let long =
            "{\"ts\":3,\"instrument\":\"i\",\"tracker\":0,\"action\":\"" + String(repeating: "x", count: 2_500) + "\"}"
        let large =
            "{\"ts\":4,\"type\":\"app\",\"app\":\"" + String(repeating: "a", count: 100_000)
            + "\",\"event\":\"didBecomeActive\"}"
        let withLongLines = [short, long, "{\"ts\":5}", large, long, short].joined(separator: "\n")
        var members = try gzip(short + "\n")
        members.append(try gzip(""))
        members.append(try gzip(sample))
        members.append(try gzip("\n" + withLongLines))
        let cut = try gzip(Data(sampleLog(count: 2_000).text.utf8), level: 1)
        var garbage = try gzip(short)
        garbage.append(Data("not gzip".utf8))
        return [
            try directory.write(sample, to: "sample.jsonl"),
            try directory.write(try gzip(sample), to: "sample.jsonl.gz"),
            try directory.write(members, to: "members.jsonl.gz"),
            try directory.write(short.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n", to: "crlf.jsonl"),
            try directory.write("\n\n  \t\r\n" + short + "\n\n \n", to: "blank.jsonl"),
            try directory.write(withLongLines, to: "long.jsonl"),
            try directory.write(try gzip(withLongLines), to: "long.jsonl.gz"),
            try directory.write(cut.prefix(cut.count / 2), to: "cut.jsonl.gz"),
            try directory.write(garbage, to: "garbage.jsonl.gz"),
            try directory.write("", to: "empty.jsonl"),
            try directory.write(try gzip(""), to: "empty.jsonl.gz"),
        ]
    }

    @Test func readingInChunksGivesTheEntriesAndErrorOfReadingWhole() throws {
        let directory = try TemporaryDirectory()
        let paths = try Self.inputs(in: directory)
        var errors: Set<EventLogError.Kind> = []
        var tooLong = 0
        for path in paths {
            for configuration in Self.configurations {
                let whole = try Self.readWhole(path, configuration: configuration)
                errors.formUnion(whole.error.map { [$0.kind] } ?? [])
                tooLong += whole.entries.count { $0.reason?.hasPrefix("line longer than") == true }
                for chunk in [1, 3, 1_000] {
                    let chunked = try Self.readInChunks(path, configuration: configuration, chunk: chunk)
                    #expect(chunked == whole, "\(path), \(configuration), chunk \(chunk)")
                }
            }
        }
        // The inputs cover what they are meant to.
        #expect(errors == [.truncatedGzip, .corruptGzip])
        #expect(tooLong > 0)
        let sample = try Self.readWhole(paths[0], configuration: LineReaderConfiguration())
        #expect(sample.entries.count == 300)
        #expect(sample.entries.allSatisfy { $0.reason == nil })
    }

    @Test func sourcesReadAlternatelyEachGiveTheirOwnEntries() throws {
        let directory = try TemporaryDirectory()
        let paths = try Self.inputs(in: directory)
        let first = paths[2]  // several gzip members
        let second = paths[5]  // plain, with long lines
        let configuration = LineReaderConfiguration(maxLineLength: 2_000, readSize: 100, fillSize: 500)
        let expected = [
            try Self.readWhole(first, configuration: configuration),
            try Self.readWhole(second, configuration: configuration),
        ]
        #expect(expected[0].entries.count > expected[1].entries.count)
        let decoder = RecordDecoder()
        let sources = [
            try EntrySource(path: first, configuration: configuration, decoder: decoder),
            try EntrySource(path: second, configuration: configuration, decoder: decoder),
        ]
        var read = [Outcome(), Outcome()]
        var open = [true, true]
        var calls = 0
        while open.contains(true) {
            for index in sources.indices where open[index] {
                open[index] = try sources[index].next(upTo: index == 0 ? 3 : 2) { read[index].entries.append($0) }
                calls += 1
            }
        }
        #expect(read == expected)
        #expect(calls > 20)
        for (source, path) in zip(sources, [first, second]) {
            #expect(source.displayName == path)
            #expect(source.bytesRead == Int64(try Data(contentsOf: URL(fileURLWithPath: path)).count))
        }
    }

    @Test func aLimitOfZeroDeliversNothingAndKeepsThePlace() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(try gzip(sampleLog(count: 10).text), to: "a.jsonl.gz")
        let source = try EntrySource(path: path, decoder: RecordDecoder())
        var entries: [LogEntry] = []
        #expect(try source.next(upTo: 4) { entries.append($0) })
        #expect(try source.next(upTo: 0) { entries.append($0) })
        #expect(entries.count == 4)
        #expect(try source.next(upTo: 100) { entries.append($0) } == false)
        #expect(entries == (try Self.readWhole(path, configuration: LineReaderConfiguration())).entries)
    }

    @Test func closingReleasesEverythingAndEndsReading() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(try gzip(sampleLog(count: 100).text), to: "a.jsonl.gz")
        let source = try EntrySource(path: path, decoder: RecordDecoder())
        var count = 0
        #expect(try source.next(upTo: 5) { _ in count += 1 })
        #expect(source.allocatedByteCount > 0)
        let bytesRead = source.bytesRead
        #expect(bytesRead > 0)
        source.close()
        source.close()
        #expect(source.allocatedByteCount == 0)
        #expect(try source.next(upTo: 5) { _ in count += 1 } == false)
        #expect(count == 5)
        #expect(source.lineNumber == 6)  // line 2 is blank
        #expect(source.bytesRead == bytesRead)
    }

    @Test func aSourceHoldsItsBuffersAndTheInflateStateOnly() throws {
        let directory = try TemporaryDirectory()
        let text = sampleLog(count: 3_000).text
        let compressed = try directory.write(try gzip(text), to: "a.jsonl.gz")
        let plain = try directory.write(text, to: "a.jsonl")
        let configuration = LineReaderConfiguration(readSize: 16 << 10, fillSize: 64 << 10)
        let lineBuffer = (64 << 10) + 4_096 + LineReader.padding
        #expect(LineReader.padding == 64)
        for (path, expected) in [
            (compressed, GzipInflater.stateByteCount + (16 << 10) + lineBuffer), (plain, lineBuffer),
        ] {
            let source = try EntrySource(path: path, configuration: configuration, decoder: RecordDecoder())
            #expect(source.allocatedByteCount == 0)
            var held: Set<Int> = []
            var entries = 0
            while try source.next(upTo: 100, { _ in entries += 1 }) {
                held.insert(source.allocatedByteCount)
            }
            #expect(entries == 3_000)
            #expect(held == [expected], "\(path)")
            #expect(source.allocatedByteCount == 0)
        }
    }

    @Test func theLineBufferGrowsForALongLineOnly() throws {
        let directory = try TemporaryDirectory()
        let large =
            "{\"ts\":4,\"type\":\"app\",\"app\":\"" + String(repeating: "a", count: 100_000)
            + "\",\"event\":\"didBecomeActive\"}"
        let short = #"{"ts":1,"type":"app","app":"a","event":"didBecomeActive"}"#
        let path = try directory.write([short, large, short].joined(separator: "\n"), to: "a.jsonl")
        let configuration = LineReaderConfiguration(maxLineLength: 200_000, readSize: 1 << 10, fillSize: 16 << 10)
        let source = try EntrySource(path: path, configuration: configuration, decoder: RecordDecoder())
        var sizes: [Int] = []
        var lines: [Int] = []
        while try source.next(upTo: 1, { lines.append($0.line) }) {
            sizes.append(source.allocatedByteCount)
        }
        #expect(lines == [1, 2, 3])
        #expect(sizes.first == (16 << 10) + 4_096 + LineReader.padding)
        let largest = try #require(sizes.max())
        #expect(largest >= large.utf8.count)
        #expect(largest <= 200_000 + (16 << 10) + LineReader.padding)
    }

    @Test func aMissingPathCannotBeOpened() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("missing.jsonl.gz")
        let error = #expect(throws: EventLogError.self) { try EntrySource(path: path, decoder: RecordDecoder()) }
        #expect(error?.kind == .cannotOpen)
        #expect(error?.file == path)
    }
}

extension LogEntry {
    /// The line number of the entry.
    var line: Int {
        switch self {
        case .record(_, let line): line
        case .rejected(let rejection): rejection.line
        }
    }

    /// Why the line was rejected; nil for a record.
    var reason: String? {
        guard case .rejected(let rejection) = self else { return nil }
        return rejection.reason
    }
}
