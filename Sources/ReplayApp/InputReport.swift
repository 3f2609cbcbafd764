import EventLog
import EventModel
import Foundation
import Replay
import ReportEncoding
import TextFormat

/// An input line that was not replayed, or a file that could not be read whole.
enum InputProblem {
    case line(RejectedLine)
    /// A record later than the reorder window whose life had replayed a record this many
    /// milliseconds later.
    case late(RejectedLine, by: Int64)
    case file(name: String, message: String)

    /// `file:line: reason`, or `file: reason`.
    var message: String {
        switch self {
        case .line(let rejection): return rejection.description
        case .late(let rejection, let by):
            return "\(rejection.file):\(rejection.line): late: \(by) ms before a record already replayed of its life"
        case .file(let name, let message): return "\(name): \(message)"
        }
    }

    /// Appends the `rejects.jsonl` line to `buffer`: `{"file":…,"line":…,"reason":…,"excerpt":…}`;
    /// `line` is `null` and `excerpt` empty for a problem with a whole file. A late record's
    /// reason is `late`, with `"late_ms"` after it: how much earlier it is than its life's latest
    /// record.
    func encode(into buffer: inout [UInt8]) {
        var json = JSONWriter()
        json.beginObject(into: &buffer)
        json.key("file", into: &buffer)
        switch self {
        case .line(let rejection), .late(let rejection, _):
            json.string(rejection.file, into: &buffer)
            json.key("line", into: &buffer)
            json.int(Int64(rejection.line), into: &buffer)
            json.key("reason", into: &buffer)
            json.string(rejection.reason, into: &buffer)
            if case .late(_, let by) = self {
                json.key("late_ms", into: &buffer)
                json.int(by, into: &buffer)
            }
            json.key("excerpt", into: &buffer)
            json.string(rejection.excerptText, into: &buffer)
        case .file(let name, let message):
            json.string(name, into: &buffer)
            json.key("line", into: &buffer)
            json.null(into: &buffer)
            json.key("reason", into: &buffer)
            json.string(message, into: &buffer)
            json.key("excerpt", into: &buffer)
            json.string("", into: &buffer)
        }
        json.endObject(into: &buffer)
        json.endLine(into: &buffer)
    }
}

/// What reading the inputs found and what the replay produced, counted.
package struct RunCounts {
    /// Each input, in replay order, and what was read of it.
    var inputs: [InputSummary] = []
    var files = 0
    var bytes: Int64 = 0
    /// Compressed bytes read (of gzip inputs; all bytes of plain ones).
    var bytesRead: Int64 = 0
    var records = 0
    var replayed = 0
    var rejectedLines = 0
    var damagedFiles = 0
    /// Records later than the reorder window (`--max-lateness`), and those of them rejected.
    var late = 0
    var lateRejected = 0
    /// Records ahead of every input's clock at the end (``EventTimeMerge/Released``):
    /// replayed for their own lives only.
    var ahead = 0
    var playbacks = 0
    var vpSessions = 0
    var marconiItems = 0
    var sessions: [MetricSystem: Int] = [:]
    /// Lives ended by the idle gap before the input ended.
    var livesEndedByGap = 0
    /// Lives resumed from the state.
    var resumedLives = 0
    /// The state file resumed, when it is not `--state`'s own (`--replace-run`).
    var resumedFrom: String?
    /// With `--state` (without `--finish`): the lives still open at the end and their open rows,
    /// carried over to the next run.
    var carried: ReplayEngine.OpenCounts?
    /// What looked wrong in the input without being an error (``RunWarning``), in order.
    package var warnings: [RunWarning] = []

    /// Records whose points a metric server could not store, left out of the metric files
    /// (``MetricTimeRange``): replayed, but their metrics are not delivered, so a problem too.
    var outsideMetricTimes = 0
    package var problems: Int { rejectedLines + lateRejected + damagedFiles + outsideMetricTimes }
    /// The problems with lines: rejected and late ones.
    var lineProblems: Int { rejectedLines + lateRejected }

    /// Adds what replaying counted (records replayed, problems noted) to what reading counted.
    mutating func add(replaying other: RunCounts) {
        replayed += other.replayed
        rejectedLines += other.rejectedLines
        lateRejected += other.lateRejected
        damagedFiles += other.damagedFiles
    }

    /// Adds the replay's counts (rows and sessions) to these.
    mutating func add(replayed other: RunCounts) {
        playbacks += other.playbacks
        vpSessions += other.vpSessions
        marconiItems += other.marconiItems
        sessions.merge(other.sessions, uniquingKeysWith: +)
    }

    mutating func count(_ report: SessionReport) {
        playbacks += report.playbacks.count
        vpSessions += report.vpSessions.count
        marconiItems += report.marconiItems.count
        if report.isLast { sessions[report.key.system, default: 0] += 1 }
    }
}

/// One input of a run, for `run.json`.
struct InputSummary {
    var name: String
    /// Its size in bytes, when it is a regular file.
    var size: Int64?
    /// The FNV-1a 64 digest of its bytes, when the run computed it (`--state` does).
    var digest: String?
    var lines: Int
    var rejected: Int
    var late: Int
    var lateRejected: Int
}

/// Where a line goes in `rejects.jsonl`: by input, in replay order (its file name, then its
/// path, as ``ReplayConfiguration/inputOrder(_:)`` sorts them), then by line; a problem with a
/// whole file after that file's lines. The same order however the run was split into shards
/// and threads, so that `merge` can put the shards' rejects together.
struct RejectsOrder: Comparable {
    var name: String
    var path: String
    var line: Int

    /// The order of a problem of the input shown as `file` (`<stdin>` for standard input), at
    /// `line` (`nil` for the whole file).
    init(file: String, line: Int?) {
        path = file == LineReader.displayName(for: "-") ? "-" : file
        name = (path as NSString).lastPathComponent
        self.line = line ?? .max
    }

    static func < (lhs: RejectsOrder, rhs: RejectsOrder) -> Bool {
        if lhs.name != rhs.name { return lhs.name.precedesInUTF8Order(rhs.name) }
        if lhs.path != rhs.path { return lhs.path.precedesInUTF8Order(rhs.path) }
        return lhs.line < rhs.line
    }
}

extension InputProblem {
    /// Where it goes in `rejects.jsonl`: its file as shown, and its line (`nil` for the whole
    /// file), as ``RejectsOrder`` orders them.
    var place: (file: String, line: Int?) {
        switch self {
        case .line(let rejection), .late(let rejection, _): (rejection.file, rejection.line)
        case .file(let name, _): (name, nil)
        }
    }
}
