import EventLog
import EventModel
import Replay
import ReportEncoding

/// An input line that was not replayed, or a file that could not be read whole.
enum InputProblem {
    case line(RejectedLine)
    case file(name: String, message: String)

    /// `file:line: reason`, or `file: reason`.
    var message: String {
        switch self {
        case .line(let rejection): return rejection.description
        case .file(let name, let message): return "\(name): \(message)"
        }
    }

    /// The `rejects.jsonl` line: `{"file":…,"line":…,"reason":…,"excerpt":…}`; `line` is `null`
    /// and `excerpt` empty for a problem with a whole file.
    func encoded() -> [UInt8] {
        var buffer: [UInt8] = []
        var json = JSONWriter()
        json.beginObject(into: &buffer)
        json.key("file", into: &buffer)
        switch self {
        case .line(let rejection):
            json.string(rejection.file, into: &buffer)
            json.key("line", into: &buffer)
            json.int(Int64(rejection.line), into: &buffer)
            json.key("reason", into: &buffer)
            json.string(rejection.reason, into: &buffer)
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
        return buffer
    }
}

/// What reading the inputs found and what the replay produced, counted.
struct RunCounts {
    var files = 0
    var bytes: Int64 = 0
    var records = 0
    var replayed = 0
    var rejectedLines = 0
    var damagedFiles = 0
    var playbacks = 0
    var vpSessions = 0
    var marconiItems = 0
    var sessions: [MetricSystem: Int] = [:]
    var timedOutSessions = 0
    var resumedRecords = 0
    var savedRecords = 0

    var problems: Int { rejectedLines + damagedFiles }

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
        sessions[report.key.system, default: 0] += 1
    }
}
