import Foundation
import Testing

@testable import ReplayApp

/// `rejects.jsonl` kept on disk as a run notes its lines (``RejectsSpool``): written in the
/// order of the docs (by file name, then path, then line, a whole file's problems last, one
/// place's lines in the order noted), byte for byte what sorting them all in memory gives,
/// whatever order they came in and however little memory the spool has; its folder gone after.
struct RejectsSpoolTests {
    /// A line noted: its file, its line (`nil`: the whole file) and its bytes.
    struct Noted {
        var file: String
        var line: Int?
        var bytes: [UInt8]
    }

    /// What `rejects.jsonl` held before the spool: every line sorted in memory, stably.
    static func sortedInMemory(_ noted: [Noted]) -> [UInt8] {
        let orders = noted.map { RejectsOrder(file: $0.file, line: $0.line) }
        let sorted = noted.indices.sorted { lhs, rhs in
            orders[lhs] < orders[rhs] || (!(orders[rhs] < orders[lhs]) && lhs < rhs)
        }
        return sorted.flatMap { noted[$0].bytes }
    }

    /// A generator of the same numbers on every run.
    struct Numbers {
        var state: UInt64
        mutating func next(below bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// The files: names that sort otherwise than as paths (`b/a.jsonl` before `a.jsonl.gz`
    /// by name), standard input, the state's records.
    static let files = ["z.jsonl", "b/a.jsonl", "a.jsonl.gz", "<stdin>", "<state>", "logs/a.jsonl"]

    /// Lines as a run notes them: each file's read in order, files interleaved, with records
    /// rejected late coming after later lines of their file, some lines twice (the state's
    /// records name lines of several files), and problems with whole files.
    static func noted(_ count: Int, seed: UInt64, shuffled: Bool) -> [Noted] {
        var numbers = Numbers(state: seed)
        var nextLine = [Int](repeating: 1, count: files.count)
        var noted: [Noted] = []
        for number in 0..<count {
            let file = numbers.next(below: files.count)
            var line: Int?
            switch numbers.next(below: 20) {
            case 0: line = nil
            case 1, 2: line = max(1, nextLine[file] - 1 - numbers.next(below: 50))
            default:
                line = nextLine[file]
                nextLine[file] += 1 + numbers.next(below: 3)
            }
            if files[file] == "<state>" { line = numbers.next(below: 30) }
            let text = #"{"file":"\#(files[file])","line":\#(line.map(String.init) ?? "null"),"n":\#(number)}"#
            noted.append(Noted(file: files[file], line: line, bytes: Array((text + "\n").utf8)))
        }
        if shuffled {
            for index in noted.indices.reversed() { noted.swapAt(index, numbers.next(below: index + 1)) }
        }
        return noted
    }

    /// Notes `noted` in a spool of `memoryLimit` bytes and writes them; returns the bytes
    /// written and whether the spool had gone to disk.
    static func spooled(_ noted: [Noted], memoryLimit: Int, in folder: URL) throws -> (bytes: [UInt8], spilled: Bool) {
        let spoolFolder = folder.appendingPathComponent(".rejects-spool")
        let spool = RejectsSpool(folder: spoolFolder.path, memoryLimit: memoryLimit)
        for entry in noted {
            spool.add(file: entry.file, line: entry.line) { $0.append(contentsOf: entry.bytes) }
        }
        #expect(spool.count == noted.count)
        let spilled = FileManager.default.fileExists(atPath: spoolFolder.path)
        let target = folder.appendingPathComponent("rejects.jsonl")
        let writer = try ReportWriter(path: target.path)
        try spool.write(into: writer)
        try writer.commit()
        #expect(!FileManager.default.fileExists(atPath: spoolFolder.path))
        #expect(spool.count == 0)
        return (Array(try Data(contentsOf: target)), spilled)
    }

    @Test(arguments: [1, 200, 4_096, RejectsSpool.defaultMemoryLimit])
    func linesComeOutInTheirOrderWhateverTheMemory(memoryLimit: Int) throws {
        let folder = try TemporaryDirectory()
        for (seed, shuffled) in [(1, false), (2, false), (3, true)] {
            let noted = Self.noted(3_000, seed: UInt64(seed), shuffled: shuffled)
            let (bytes, spilled) = try Self.spooled(noted, memoryLimit: memoryLimit, in: folder.url)
            #expect(bytes == Self.sortedInMemory(noted), "seed \(seed), limit \(memoryLimit)")
            #expect(spilled == (memoryLimit < 100_000))
        }
    }

    /// A file's lines in order, as the reader notes them, go on at the end of its run on disk,
    /// so that however many there are, the file has one run, copied as it is.
    @Test func linesInOrderMakeOneRunPerFile() throws {
        let folder = try TemporaryDirectory()
        var noted: [Noted] = []
        for line in 1...20_000 {
            let file = line % 3 == 0 ? "b.jsonl" : "a.jsonl"
            noted.append(Noted(file: file, line: line, bytes: Array("\(file) \(line)\n".utf8)))
        }
        noted.append(Noted(file: "a.jsonl", line: nil, bytes: Array("a.jsonl truncated\n".utf8)))
        let spoolFolder = folder.url.appendingPathComponent(".rejects-spool")
        let spool = RejectsSpool(folder: spoolFolder.path, memoryLimit: 1_000)
        for entry in noted {
            spool.add(file: entry.file, line: entry.line) { $0.append(contentsOf: entry.bytes) }
        }
        let runs = try FileManager.default.contentsOfDirectory(atPath: spoolFolder.path)
        #expect(runs.count == 2)
        let writer = try ReportWriter(path: folder.url.appendingPathComponent("rejects.jsonl").path)
        try spool.write(into: writer)
        try writer.commit()
        let written = try Data(contentsOf: folder.url.appendingPathComponent("rejects.jsonl"))
        #expect(Array(written) == Self.sortedInMemory(noted))
    }

    /// Many runs of one file (lines far out of order) are merged as they come, a few at a time:
    /// the file never has more than a few dozen runs on disk.
    @Test func runsAreMergedAsTheyCome() throws {
        let folder = try TemporaryDirectory()
        var numbers = Numbers(state: 7)
        let noted = (0..<20_000).map { number in
            Noted(file: "a.jsonl", line: numbers.next(below: 1_000_000), bytes: Array("line \(number)\n".utf8))
        }
        let spoolFolder = folder.url.appendingPathComponent(".rejects-spool")
        let spool = RejectsSpool(folder: spoolFolder.path, memoryLimit: 300)
        var most = 0
        for (index, entry) in noted.enumerated() {
            spool.add(file: entry.file, line: entry.line) { $0.append(contentsOf: entry.bytes) }
            if index % 50 == 0 {
                most = max(most, (try? FileManager.default.contentsOfDirectory(atPath: spoolFolder.path))?.count ?? 0)
            }
        }
        #expect(most > RejectsSpool.fanIn)
        #expect(most < 4 * RejectsSpool.fanIn)
        let writer = try ReportWriter(path: folder.url.appendingPathComponent("rejects.jsonl").path)
        try spool.write(into: writer)
        try writer.commit()
        let written = try Data(contentsOf: folder.url.appendingPathComponent("rejects.jsonl"))
        #expect(Array(written) == Self.sortedInMemory(noted))
    }

    /// Lines discarded (a run that fails) leave nothing of the spool behind.
    @Test func resetRemovesTheFolder() throws {
        let folder = try TemporaryDirectory()
        let spoolFolder = folder.url.appendingPathComponent(".rejects-spool")
        let spool = RejectsSpool(folder: spoolFolder.path, memoryLimit: 10)
        for line in 1...100 { spool.add(file: "a.jsonl", line: 101 - line) { $0 += Array("\(line)\n".utf8) } }
        #expect(try FileManager.default.contentsOfDirectory(atPath: spoolFolder.path).count > 1)
        spool.reset()
        #expect(!FileManager.default.fileExists(atPath: spoolFolder.path))
        #expect(spool.count == 0)
    }

    /// A spool that cannot keep its lines (its folder cannot be made) says so when they are
    /// written, instead of writing a part of them.
    @Test func aSpoolThatCannotKeepItsLinesFailsWhenWritten() throws {
        let folder = try TemporaryDirectory()
        let blocker = try folder.write(Data("a file".utf8), to: "blocker")
        let spool = RejectsSpool(folder: blocker + "/.rejects-spool", memoryLimit: 10)
        for line in 1...100 { spool.add(file: "a.jsonl", line: line) { $0 += Array("\(line)\n".utf8) } }
        let target = folder.url.appendingPathComponent("rejects.jsonl")
        let writer = try ReportWriter(path: target.path)
        #expect(throws: AtomicFile.WriteError.self) { try spool.write(into: writer) }
        writer.discard()
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["blocker"])
    }
}
