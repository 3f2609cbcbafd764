import EventModel

/// What an ``EventLogReader`` reports for each non-blank line.
public enum LogEntry: Hashable, Sendable {
    /// A valid record and its 1-based line number.
    case record(Record, line: Int)
    /// A rejected line.
    case rejected(RejectedLine)
}
