/// The files of a report set that are compared, and how each is read.
///
/// Every file a replay writes is compared: a changed reject is a change like a changed
/// playback. Other files in a report folder (a spool, notes) are not report files and are
/// left out.
package enum ReportFile: String, CaseIterable, Sendable {
    case playbacks = "playbacks.csv"
    case vpSessions = "vp_sessions.csv"
    case marconiItems = "marconi_items.csv"
    case summary = "summary.csv"
    case aggregates = "aggregates.csv"
    case influx = "metrics.influx"
    case graphite = "metrics.graphite"
    case rejects = "rejects.jsonl"
    case trace = "events.jsonl"
    case page = "report.html"

    /// The file named `name`, if it is a report file.
    package init?(name: String) { self.init(rawValue: name) }

    /// The file's name in a report folder.
    package var name: String { rawValue }

    /// How the file's contents are matched up.
    enum Layout: Equatable {
        /// CSV rows matched by ``ReportFile/keyColumns``.
        case table
        /// JSON lines matched by file and line.
        case rejects
        /// JSON lines matched by instrument and tracker (app and value proposition, player),
        /// then by position in that sequence.
        case trace
        /// Lines compared as a multiset.
        case lines
        /// The values a page marks as data, matched by their marks (``PageComparison``).
        case page
    }

    var layout: Layout {
        switch self {
        case .playbacks, .vpSessions, .marconiItems, .summary, .aggregates: return .table
        case .influx, .graphite: return .lines
        case .rejects: return .rejects
        case .trace: return .trace
        case .page: return .page
        }
    }

    /// The columns that identify a row of a CSV report (with the number of earlier rows
    /// with the same values, for the rare row that repeats them).
    var keyColumns: [String] {
        switch self {
        case .playbacks: return ["instrument", "playback_id"]
        case .vpSessions: return ["app", "session_id"]
        case .marconiItems: return ["player", "title", "artist", "station", "kind"]
        case .summary: return ["bucket"]
        case .aggregates: return ["bucket", "system", "metric"]
        case .influx, .graphite, .rejects, .trace, .page: return []
        }
    }

    /// What a row is, in words, from its cells by column name.
    func subject(of row: [String: String]) -> String {
        let cell = { (name: String) in row[name] ?? "" }
        switch self {
        case .playbacks: return "playback \(cell("playback_id")) of instrument \(cell("instrument"))"
        case .vpSessions: return "session \(cell("session_id")) (\(cell("name"))) of app \(cell("app"))"
        case .marconiItems:
            let artist = cell("artist").isEmpty ? "" : " by \(cell("artist"))"
            return "item \"\(cell("title"))\"\(artist) of player \(cell("player"))"
        case .summary: return "bucket \(cell("bucket"))"
        case .aggregates: return "metric \(cell("metric")) of \(cell("system")) in bucket \(cell("bucket"))"
        case .influx, .graphite, .rejects, .trace, .page: return "line"
        }
    }
}
