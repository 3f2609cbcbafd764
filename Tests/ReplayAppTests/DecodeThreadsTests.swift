import EventLog
import EventModel
import Foundation
import Replay
import Testing

@testable import ReplayApp

/// Reading with several decode threads hands over what reading on the reading thread alone
/// does: the same items in the same order, the same counts and the same warnings.
struct DecodeThreadsTests {
    /// The decode thread counts compared with 1.
    static let threadCounts = [2, 3, 8]
    /// 2025-11-20T00:00:00Z, avt-loggen's start, in epoch milliseconds.
    static let start: Int64 = 1_763_596_800_000

    /// What an ``InputReader`` handed over and counted, comparable.
    struct Reading {
        enum Item: Equatable {
            case record(Record, StreamPlace, late: Bool)
            /// A problem's message, and its excerpt for a line.
            case problem(String)
        }

        /// What the reader counted and warned of.
        struct Counts: Equatable {
            var records = 0
            var bytes: Int64 = 0
            var bytesRead: Int64 = 0
            var late = 0
            var linesByInput: [Int] = []
            var rejectedByInput: [Int] = []
            var lateByInput: [Int] = []
            var inputsOpened = 0
            var filesOverLimit: [String] = []
            var warnings: [[RunWarning]] = []
        }

        var items: [Item] = []
        var counts = Counts()
        /// Records handed over with a key digest other than their own.
        var wrongKeyDigests = 0

        var lateCount: Int { items.count { if case .record(_, _, late: true) = $0 { true } else { false } } }
        var problems: [String] {
            items.compactMap { if case .problem(let message) = $0 { message } else { nil } }
        }
    }

    /// Reads `paths` with `threads` decode threads, merged with a reorder window of 2 s (so that
    /// records 2 to 25 s late are late).
    static func read(_ paths: [String], threads: Int, rejectLimit: RejectLimit? = nil) -> Reading {
        var reader = InputReader(
            paths: paths, merge: EventTimeMerge(inputs: paths.count, maxLateness: 2_000),
            rejectLimit: rejectLimit, decodeThreads: threads)
        var reading = Reading()
        reader.run { item in
            switch consume item {
            case .record(let record, let place, _):
                // Worked out by the thread that decoded the record, as the merge would.
                if place.keyDigest != EventTimeMerge.keyDigest(of: record) { reading.wrongKeyDigests += 1 }
                reading.items.append(.record(record, place, late: place.time != record.timestamp))
            case .advance: break
            case .problem(let problem):
                var text = problem.message
                if case .line(let rejection) = problem { text += " | " + rejection.excerptText }
                reading.items.append(.problem(text))
            }
        }
        reading.counts = Reading.Counts(
            records: reader.counts.records, bytes: reader.counts.bytes, bytesRead: reader.counts.bytesRead,
            late: reader.counts.late, linesByInput: reader.linesByInput, rejectedByInput: reader.rejectedByInput,
            lateByInput: reader.lateByInput, inputsOpened: reader.inputsOpened, filesOverLimit: reader.filesOverLimit,
            warnings: reader.warningsByInput)
        return reading
    }

    /// Reads `paths` with 1 and with each of ``threadCounts`` decode threads, expects the same
    /// reading from each, and returns it.
    @discardableResult
    static func expectSameReading(
        _ paths: [String], rejectLimit: RejectLimit? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Reading {
        let alone = read(paths, threads: 1, rejectLimit: rejectLimit)
        for threads in threadCounts {
            let reading = read(paths, threads: threads, rejectLimit: rejectLimit)
            expectSame(reading, alone, "\(threads) threads", sourceLocation: sourceLocation)
        }
        return alone
    }

    /// Expects the same items and counts, naming the first item that differs.
    static func expectSame(
        _ reading: Reading, _ expected: Reading, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(reading.items.count == expected.items.count, "\(what)", sourceLocation: sourceLocation)
        let compared = min(reading.items.count, expected.items.count)
        if let first = (0..<compared).first(where: { reading.items[$0] != expected.items[$0] }) {
            Issue.record(
                "\(what): item \(first) is \(reading.items[first]), not \(expected.items[first])",
                sourceLocation: sourceLocation)
        }
        #expect(reading.counts == expected.counts, "\(what)", sourceLocation: sourceLocation)
        #expect(reading.wrongKeyDigests == 0, "\(what)", sourceLocation: sourceLocation)
    }

    /// Generates a log with avt-loggen (the one in `AVT_REPLAY_BINARIES` when set, else the
    /// one `swift build --build-tests` builds beside the test bundle) into a new folder under
    /// `directory`; returns its files, sorted.
    static func generate(_ arguments: [String], in directory: TemporaryDirectory) throws -> [String] {
        let folder = directory.url.appendingPathComponent(UUID().uuidString)
        let loggen =
            (ProcessInfo.processInfo.environment["AVT_REPLAY_BINARIES"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
            .appendingPathComponent("avt-loggen")
        let status = try runProcess(loggen, arguments + ["--out", folder.path]).status
        #expect(status == 0, "avt-loggen \(arguments) failed: swift build --build-tests builds it")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .map { folder.appendingPathComponent($0).path }
    }

    @Test func severalFiles() throws {
        let directory = try TemporaryDirectory()
        let paths = try Self.generate(
            ["--records", "30000", "--files", "6", "--seed", "7", "--late", "25", "--layout", "hosts:4"], in: directory)
        let reading = Self.expectSameReading(paths)
        #expect(reading.counts.records == 30_000)
        #expect(reading.lateCount > 0)
        // Every late record comes out at a later time than its own, counted.
        #expect(reading.counts.late == reading.lateCount)
    }

    @Test func hourlyFiles() throws {
        let directory = try TemporaryDirectory()
        let paths = try Self.generate(["--records", "20000", "--files", "5", "--seed", "8"], in: directory)
        #expect(Self.expectSameReading(paths).counts.records == 20_000)
    }

    /// An input streamed ahead (``BlockDecoding/startAhead(_:source:)``) gives the blocks it
    /// gives when streamed as the merge takes them, and counts as cut once its last block is.
    @Test func anInputStreamedAheadGivesTheSameBlocks() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.generate(["--records", "5000", "--files", "1", "--seed", "13"], in: directory)[0]
        func blocks(ahead: Bool) throws -> (entries: [LogEntry], cutAtTheEnd: Bool) {
            let decoding = BlockDecoding(threads: 3, timestampUnit: .milliseconds)
            defer { decoding.finish() }
            let source = try LineBlockSource(path: path, configuration: InputReader.sourceConfiguration)
            if ahead {
                decoding.startAhead(0, source: source)
            } else {
                decoding.start(0, source: source)
            }
            var spelling = ActionSpelling()
            var entries: [LogEntry] = []
            while true {
                let block = decoding.take(0, decoder: RecordDecoder(), spelling: &spelling)
                entries += block.decoded.entries.compactMap { $0 }
                if block.decoded.isLast { return (entries, decoding.isCut(0)) }
            }
        }
        let ahead = try blocks(ahead: true)
        let plain = try blocks(ahead: false)
        #expect(ahead.entries.count == 5_000)
        #expect(ahead.entries == plain.entries)
        #expect(ahead.cutAtTheEnd)
    }

    /// Hourly files, the third cut off in the middle of a line: streamed ahead or not, its bad
    /// last line comes at the place the merge reaches it, as with one thread.
    @Test func aProblemOfAFileStreamedAheadComesInItsPlace() throws {
        let directory = try TemporaryDirectory()
        let paths = try Self.generate(["--records", "20000", "--files", "4", "--seed", "14"], in: directory)
        let damaged = URL(fileURLWithPath: paths[2])
        let data = try Data(contentsOf: damaged)
        try data.prefix(data.count / 2 + 7).write(to: damaged)
        let reading = Self.expectSameReading(paths)
        #expect(reading.problems.count == 1)
        // Not the last item: the fourth file's records come after the third's bad line.
        #expect(reading.items.lastIndex { if case .problem = $0 { true } else { false } }! < reading.items.count - 100)
    }

    @Test func oneFile() throws {
        let directory = try TemporaryDirectory()
        let paths = try Self.generate(
            ["--records", "25000", "--files", "3", "--seed", "9", "--late", "25", "--layout", "single"], in: directory)
        #expect(paths.count == 1)
        #expect(Self.expectSameReading(paths).counts.records == 25_000)
    }

    /// Standard input is read in blocks from its first record on, never parked.
    @Test func standardInput() throws {
        let directory = try TemporaryDirectory()
        let paths = try Self.generate(
            ["--records", "12000", "--files", "2", "--seed", "10", "--layout", "single"], in: directory)
        let file = open(paths[0], O_RDONLY)
        let saved = dup(STDIN_FILENO)
        defer {
            dup2(saved, STDIN_FILENO)
            close(saved)
            close(file)
        }
        func readStandardInput(threads: Int) -> Reading {
            lseek(file, 0, SEEK_SET)
            dup2(file, STDIN_FILENO)
            return Self.read(["-"], threads: threads)
        }
        let alone = readStandardInput(threads: 1)
        #expect(alone.counts.records == 12_000)
        for threads in Self.threadCounts {
            Self.expectSame(readStandardInput(threads: threads), alone, "\(threads) threads")
        }
    }

    /// Rejected lines, lines too long, `ts` in seconds and as text, misspelt actions, a gzip
    /// stream cut short, a `.gz` that is not gzip, a missing file and an empty one.
    @Test func badInput() throws {
        let directory = try TemporaryDirectory()
        var lines: [String] = []
        for index in 0..<3_000 {
            let ts = Self.start + Int64(index) * 500
            switch index % 50 {
            case 7: lines.append("not json")
            case 13: lines.append(#"{"ts":true,"instrument":"x","tracker":0,"action":"Play"}"#)
            case 21: lines.append("")
            case 29:
                let padding = String(repeating: "x", count: LineReaderConfiguration.defaultMaxLineLength)
                lines.append(#"{"ts":\#(ts),"instrument":"long","tracker":0,"action":"\#(padding)"}"#)
            case 33: lines.append(#"{"ts":"2025-11-20T01:00:00Z","instrument":"text","tracker":0,"action":"Play"}"#)
            case 41: lines.append(#"{"ts":\#(1_763_596_800 + index),"instrument":"s","tracker":0,"action":"Play"}"#)
            case 45: lines.append(#"{"ts":\#(ts),"instrument":"m","tracker":1,"action":"streamload"}"#)
            default: lines.append(#"{"ts":\#(ts),"instrument":"i\#(index % 9)","tracker":0,"action":"Ping"}"#)
            }
        }
        let text = lines.joined(separator: "\n") + "\n"
        let compressed = try gzip(Data(text.utf8))
        let paths = [
            try directory.write(Data(text.utf8), to: "bad.jsonl"),
            try directory.write(compressed.prefix(compressed.count * 3 / 4), to: "cut.jsonl.gz"),
            try directory.write(Data(text.utf8), to: "plain.jsonl.gz"),
            directory.url.appendingPathComponent("missing.jsonl").path,
            try directory.write(Data(), to: "empty.jsonl"),
            try directory.write(try gzip(Data(text.prefix(text.count / 2).utf8)), to: "half.jsonl.gz"),
        ]
        let reading = Self.expectSameReading(paths, rejectLimit: RejectLimit(argument: "2%"))
        let problems = reading.problems
        #expect(problems.contains { $0.contains("cut.jsonl.gz: truncated gzip stream") })
        #expect(problems.contains { $0.contains("plain.jsonl.gz: not a gzip file") })
        #expect(problems.contains { $0.contains("line longer than") })
        #expect(problems.contains { $0.contains("not valid JSON") })
        #expect(reading.counts.warnings[0].map(\.kind).contains(.actionLooksMisspelt))
        #expect(reading.counts.warnings[0].map(\.kind).contains(.tsLooksLikeSeconds))
        #expect(reading.counts.filesOverLimit.contains { $0.hasSuffix("bad.jsonl") })
    }

    /// Many files, each covering the whole log: all of them read at once, more than the blocks
    /// the decoding threads may hold.
    @Test func manyFiles() throws {
        let directory = try TemporaryDirectory()
        var paths = try Self.generate(
            ["--records", "140000", "--files", "2", "--seed", "11", "--late", "25", "--layout", "hosts:100"],
            in: directory)
        paths += try Self.generate(["--records", "60000", "--files", "200", "--seed", "12"], in: directory)
        #expect(paths.count == 300)
        #expect(Self.expectSameReading(paths).counts.records == 200_000)
    }
}
