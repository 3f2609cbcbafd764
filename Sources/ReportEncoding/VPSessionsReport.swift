import EventModel
import Replay
import TextFormat

/// `vp_sessions.csv`: one row per value-proposition session, in the order given (sessions as they close).
public enum VPSessionsReport: CSVReport {
    /// The header, in column order.
    public static let columns = [
        "app", "name", "session_id", "attrs", "opened_ts", "end_ts", "outcome", "time_to_start_ms", "active_ms",
        "paused_ms", "pauses", "prohibited_changes", "duration_ms", "end_trigger", "restored_from", "timed_out",
    ]

    public static func appendCells(of row: VPSessionSummary, to csv: inout CSVEncoder, into buffer: inout [UInt8]) {
        csv.appendString(row.app, into: &buffer)
        csv.appendString(row.name, into: &buffer)
        csv.appendString(row.sessionID, into: &buffer)
        csv.appendString(compactJSON(row.attributes), into: &buffer)
        csv.appendInt(row.openedTimestamp.milliseconds, into: &buffer)
        csv.appendInt(row.endTimestamp?.milliseconds, into: &buffer)
        csv.appendString(row.outcome.rawValue, into: &buffer)
        csv.appendInt(row.timeToStart, into: &buffer)
        csv.appendInt(row.activeTime, into: &buffer)
        csv.appendInt(row.pausedTime, into: &buffer)
        csv.appendInt(row.pauses, into: &buffer)
        csv.appendInt(row.prohibitedChanges, into: &buffer)
        csv.appendInt(row.duration, into: &buffer)
        csv.appendString(row.endTrigger, into: &buffer)
        csv.appendString(row.restoredFrom, into: &buffer)
        csv.appendBool(row.timedOut, into: &buffer)
    }

    /// Attributes as compact JSON with keys sorted by byte order.
    static func compactJSON(_ attributes: Attributes) -> String {
        var bytes: [UInt8] = []
        var json = JSONWriter()
        json.attributes(attributes, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
