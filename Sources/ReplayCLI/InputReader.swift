import EventLog
import EventModel
import Foundation
import Replay

/// Reads input files into the replay engine, keeping every good record and noting every problem.
struct InputReader {
    /// How many problems are printed before the rest are only counted.
    static let problemsShown = 10

    var engine: ReplayEngine
    let reports: ReportSet
    let pipeline: ReplayPipeline
    let quiet: Bool
    let rejectLimit: RejectLimit?
    var counts = RunCounts()
    /// Files with more rejected lines than `rejectLimit` allows.
    var filesOverLimit: [String] = []
    /// The progress line, on a terminal.
    var progress: ProgressLine?
    /// Bytes of the files read before the current one.
    var bytesBefore: Int64 = 0
    /// Reads, inflates and splits each file while this thread decodes and routes its lines.
    let readingThread = ReadingThread()

    /// Adds one record and hands the sessions it closed to the pipeline.
    mutating func add(_ record: consuming Record, at position: SourcePosition) {
        let closed = engine.add(record, at: position)
        if !closed.isEmpty { pipeline.submit(consume closed) }
    }

    /// Reads `path`; its rank among the inputs breaks ties between equal times.
    mutating func read(_ path: String, rank: Int) {
        counts.files += 1
        let name = LineReader.displayName(for: path)
        if let problem = Self.precheck(path) {
            note(.file(name: name, message: problem))
            return
        }
        counts.bytes += Self.fileSize(path)
        var lines = 0
        var rejected = 0
        defer { bytesBefore = counts.bytes }
        do {
            let reader = try EventLogReader(path: path)
            progress?.update(file: rank + 1, name: name, bytesDone: bytesBefore, records: counts.records)
            try reader.forEachEntry(readingAheadOn: readingThread) { entry in
                counts.records += 1
                lines += 1
                if counts.records & 0x3FFF == 0 {
                    progress?.update(
                        file: rank + 1, name: name, bytesDone: bytesBefore + reader.bytesRead, records: counts.records)
                }
                switch consume entry {
                case .record(let record, let line):
                    counts.replayed += 1
                    add(record, at: SourcePosition(fileRank: rank, line: line))
                case .rejected(let rejection):
                    rejected += 1
                    note(.line(rejection))
                }
            }
        } catch let error as EventLogError {
            note(.file(name: error.file, message: error.message))
        } catch {
            note(.file(name: name, message: "\(error)"))
        }
        if let rejectLimit, rejectLimit.isExceeded(rejected: rejected, of: lines) {
            filesOverLimit.append(name)
        }
    }

    /// Counts a problem, writes it to `rejects.jsonl` and prints the first few.
    mutating func note(_ problem: InputProblem) {
        switch problem {
        case .line: counts.rejectedLines += 1
        case .file: counts.damagedFiles += 1
        }
        reports.write(problem)
        guard !quiet else { return }
        if counts.problems <= Self.problemsShown {
            printError("avt-replay: \(problem.message)")
        }
    }

    /// A reason not to read a file at all: a `.gz` file that is not gzip.
    static func precheck(_ path: String) -> String? {
        guard path != "-", path.hasSuffix(".gz"), let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let magic = (try? handle.read(upToCount: 2)) ?? Data()
        if magic.isEmpty || magic == Data([0x1F, 0x8B]) { return nil }
        return "not a gzip file (it has a .gz name but no gzip header); skipped"
    }

    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        guard path != "-", stat(path, &info) == 0 else { return 0 }
        return Int64(info.st_size)
    }
}
