import ReportEncoding

/// The reports written hand-over by hand-over, as lives go. A sharded run's `sessions.index`
/// lists how many bytes each hand-over wrote to each of them, in this order.
enum SessionFile: Int, CaseIterable {
    case playbacks
    case vpSessions
    case marconiItems
    case influx
    case graphite
    case trace

    var name: String {
        switch self {
        case .playbacks: "playbacks.csv"
        case .vpSessions: "vp_sessions.csv"
        case .marconiItems: "marconi_items.csv"
        case .influx: "metrics.influx"
        case .graphite: "metrics.graphite"
        case .trace: "events.jsonl"
        }
    }

    /// What the file starts with before any session's rows: the CSV header, or nothing.
    var header: [UInt8] {
        switch self {
        case .playbacks: PlaybacksReport.header()
        case .vpSessions: VPSessionsReport.header()
        case .marconiItems: MarconiItemsReport.header()
        case .influx, .graphite, .trace: []
        }
    }
}
