import ArgumentParser
import EventLog
import EventModel

/// A time on the command line: an RFC 3339 time (`2025-11-20T00:00:00Z`) or epoch milliseconds.
struct TimeArgument: ExpressibleByArgument {
    var timestamp: Timestamp

    init?(argument: String) {
        if let milliseconds = Int64(argument) {
            timestamp = Timestamp(milliseconds: milliseconds)
        } else if let milliseconds = try? RFC3339.milliseconds(argument).get() {
            timestamp = Timestamp(milliseconds: milliseconds)
        } else {
            return nil
        }
    }
}
