import EventLog
import EventModel
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
}

/// What reading the inputs found.
struct InputReport {
    var files = 0
    var bytes: Int64 = 0
    var records = 0
    var replayed = 0
    var unsupported: [RecordType: Int] = [:]
    var problems: [InputProblem] = []

    /// Rejected lines (not whole-file problems).
    var rejectedLines: Int {
        problems.count {
            if case .line = $0 { return true }
            return false
        }
    }

    /// Files that could not be read whole.
    var damagedFiles: Int { problems.count - rejectedLines }

    /// `rejects.jsonl`: `{"file":…,"line":…,"reason":…,"excerpt":…}` per problem, in input order
    /// (files by name, then line); `line` is `null` and `excerpt` empty for a problem with a whole file.
    func encodedRejects() -> [UInt8] {
        var buffer: [UInt8] = []
        var json = JSONWriter()
        for problem in problems {
            json.beginObject(into: &buffer)
            json.key("file", into: &buffer)
            switch problem {
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
        }
        return buffer
    }
}
