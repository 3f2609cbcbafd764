/// The exit codes of `avt-replay`, as the README documents them (`check` and `diff` use
/// 1 for report sets that differ).
package enum ExitStatus: Int32 {
    /// Every input line was read and replayed (or is a record type not replayed yet).
    case success = 0
    /// Some input was skipped: rejected lines, or files that could not be read whole.
    case inputSkipped = 1
    /// The command line was wrong.
    case usage = 2
    /// The reports could not be written.
    case outputFailed = 3
    /// `--strict` or `--max-rejects` refused the input, the `--state` file could not be read,
    /// or it consumed an input already (a rerun, see ``StatePlan``); no reports were written.
    case inputFailed = 4
    /// Some metrics could not be delivered to a server; they are kept in the spool.
    case metricsKept = 5
    /// Some metrics could be neither delivered to a server nor kept in the spool: they are lost
    /// (the reports, `metrics.influx` and `metrics.graphite` included, were written).
    case metricsLost = 7
    /// No input could be read (every file missing, unreadable, a directory or not gzip): no
    /// report was written, the previous ones and the state are unchanged.
    case noInput = 6
    /// Another run holds the report folder or the state file: nothing was written.
    case busy = 8

    /// The status's name in `run.json`.
    package var name: String {
        switch self {
        case .success: "success"
        case .inputSkipped: "inputSkipped"
        case .usage: "usage"
        case .outputFailed: "outputFailed"
        case .inputFailed: "inputFailed"
        case .metricsKept: "metricsKept"
        case .noInput: "noInput"
        case .metricsLost: "metricsLost"
        case .busy: "busy"
        }
    }
}
