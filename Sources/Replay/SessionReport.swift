import EventModel
import Marconi

/// What a live replay of one instrument, app session or player hands over at once: the trace
/// lines and metric points it produced since the last hand-over, and, when its life ends, its
/// rows.
///
/// A life hands its outputs over in several reports: one each time its pending outputs are
/// flushed (``ReplayEngine``), and a last one, with ``closing`` set, when it ends.
public struct SessionReport: Hashable, Sendable {
    /// Why a life ended.
    public enum Closing: String, Hashable, Sendable {
        /// No record came for the idle gap, in log time.
        case idleGap
        /// The input ended.
        case inputEnd
    }

    /// The instrument, app or player.
    public var key: SessionKey
    /// Why the life ended, in its last report; `nil` in the others.
    public var closing: Closing?
    /// The time of the life's first record.
    public var firstTimestamp: Timestamp?
    /// The time of the life's latest record so far.
    public var lastTimestamp: Timestamp?
    /// Where the report goes among every report: what made it due (``SessionOrder``).
    public var order: SessionOrder
    /// The playbacks of an instrument, in the order they began (last report only).
    public var playbacks: [PlaybackSummary] = []
    /// The value-proposition sessions of an app session, in the order they opened (last report only).
    public var vpSessions: [VPSessionSummary] = []
    /// The items of a Marconi player, in the order they started (last report only).
    public var marconiItems: [MarconiItemSummary] = []
    /// The trace, in replay order (empty unless asked for).
    public var trace: [TraceLine] = []
    /// The metrics, in replay order.
    public var points: [MetricPoint] = []
    /// With `--group-by`, the aggregates of the metrics that belong to a row, by the row's
    /// group (last report only): ``points`` with a row are aggregated here, once the row is final.
    public var rowAggregates: [MetricAggregates.Key: MetricAggregates.Aggregate] = [:]

    public init(key: SessionKey, closing: Closing?) {
        self.key = key
        self.closing = closing
        order = .end(latest: Timestamp(milliseconds: 0), key: key)
    }

    /// Whether this is the life's last report, with its rows.
    public var isLast: Bool { closing != nil }
}
