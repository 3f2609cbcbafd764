/// What became of one server's batches in a push (`run.json`).
package struct PushSinkSummary {
    package var name: String
    package var delivered: Int
    package var fromSpool: Int
    package var kept: Int
    package var refused: Int
    package var lost: Int
    /// Batches left in the spool for this server after the push.
    package var waiting: Int
    package var unreachable: String?

    package init(
        name: String, delivered: Int, fromSpool: Int, kept: Int, refused: Int, lost: Int, waiting: Int,
        unreachable: String?
    ) {
        self.name = name
        self.delivered = delivered
        self.fromSpool = fromSpool
        self.kept = kept
        self.refused = refused
        self.lost = lost
        self.waiting = waiting
        self.unreachable = unreachable
    }
}

/// What became of the metrics of one push, over every server.
package enum PushResult {
    /// Every batch reached its server.
    case delivered
    /// Some batches are kept in the spool for a later run or `flush`.
    case kept
    /// Some batches were neither delivered nor kept.
    case lost

    /// The run's exit status given its status before the push.
    package func status(after status: ExitStatus) -> ExitStatus {
        switch self {
        case .delivered: status
        case .kept: .metricsKept
        case .lost: .metricsLost
        }
    }
}
