import EventLog
import EventModel
import Foundation
import Replay
import ReportEncoding

/// The problems of a replay, in the order of the merged input: each counted, written to
/// `rejects.jsonl` and, but for the many, printed.
struct ProblemLog {
    /// How many problems are printed before the rest are only counted.
    static let problemsShown = 10

    let reports: ReportSet
    let quiet: Bool
    /// What the replay counted: records replayed, problems, late records rejected.
    var counts = RunCounts()
    /// The records of each input rejected as late, by rank.
    var lateRejected: [Int]
    /// The problems with whole files, as printed (`file: reason`), in order.
    var fileProblems: [String] = []
    private let names: [String]

    init(reports: ReportSet, quiet: Bool, names: [String]) {
        self.reports = reports
        self.quiet = quiet
        self.names = names
        lateRejected = Array(repeating: 0, count: names.count)
    }

    /// A record its life refused as late, as its rejected line.
    struct LateRecord: Sendable {
        /// The record as a line of the log, its first ``RejectedLine/excerptLimit`` bytes: all
        /// that `rejects.jsonl` keeps of it.
        var excerpt: [UInt8]
        var by: Int64
        var position: SourcePosition

        init(_ record: borrowing Record, by: Int64, at position: SourcePosition) {
            excerpt = []
            EventLogEncoder.encode(record, into: &excerpt)
            if excerpt.last == UInt8(ascii: "\n") { excerpt.removeLast() }
            if excerpt.count > RejectedLine.excerptLimit { excerpt.removeSubrange(RejectedLine.excerptLimit...) }
            self.by = by
            self.position = position
        }
    }

    /// Notes a record refused as late (it was counted as replayed).
    mutating func noteLate(_ late: LateRecord) {
        counts.replayed -= 1
        let known = names.indices.contains(late.position.fileRank)
        if known { lateRejected[late.position.fileRank] += 1 }
        let name = known ? names[late.position.fileRank] : "<state>"
        note(
            .late(
                RejectedLine(file: name, line: late.position.line, reason: "late", excerpt: late.excerpt), by: late.by))
    }

    /// Counts a problem, writes it to `rejects.jsonl` and prints it: every problem with a
    /// whole file, and the first ``problemsShown`` problems with lines.
    mutating func note(_ problem: InputProblem) {
        switch problem {
        case .line: counts.rejectedLines += 1
        case .late: counts.lateRejected += 1
        case .file:
            counts.damagedFiles += 1
            fileProblems.append(problem.message)
        }
        reports.write(problem)
        guard !quiet else { return }
        if case .file = problem {
            printError("avt-replay: \(problem.message)")
        } else if counts.lineProblems <= Self.problemsShown {
            printError("avt-replay: \(problem.message)")
        }
    }
}

/// A value handed to a thread and back.
///
/// Unchecked: one thread at a time has it. The thread it is handed to uses it until it says it
/// is done through a ``BoundedQueue`` (its last `put` or `finish()`); the thread that made it
/// reads it only after that queue's `take()` said so, which the queue's lock orders after.
final class ThreadBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: consuming Value) { self.value = value }
}
