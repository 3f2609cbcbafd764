import EventModel
import Replay

/// `vp_sessions.csv`: one row per value-proposition session, in the order ``ReplayResult/vpSessions`` gives.
public enum VPSessionsReport {
    /// The header, in column order.
    public static let columns = [
        "app", "name", "session_id", "attrs", "opened_ts", "end_ts", "outcome", "time_to_start_ms", "active_ms",
        "paused_ms", "pauses", "prohibited_changes", "duration_ms", "end_trigger", "restored_from",
    ]

    /// The whole file.
    public static func encode(_ sessions: [VPSessionSummary]) -> [UInt8] {
        var buffer: [UInt8] = []
        var csv = CSVEncoder()
        csv.appendHeader(columns, into: &buffer)
        for row in sessions {
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
            csv.endRow(into: &buffer)
        }
        return buffer
    }

    /// Attributes as compact JSON with keys sorted by byte order.
    static func compactJSON(_ attributes: Attributes) -> String {
        var bytes: [UInt8] = []
        var json = JSONWriter()
        json.attributes(attributes, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
