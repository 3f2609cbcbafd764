import EventModel
import Marconi

/// What one replay session produced, once it closed: its report rows, trace and metrics.
public struct SessionReport: Hashable, Sendable {
    /// Why a session closed.
    public enum Closing: String, Hashable, Sendable {
        /// No record came for the session timeout, in log time.
        case timeout
        /// The input ended.
        case inputEnd
    }

    /// The instrument, app or player.
    public var key: SessionKey
    /// Why it closed.
    public var closing: Closing
    /// The time of the session's first record.
    public var firstTimestamp: Timestamp?
    /// The time of the session's latest record.
    public var lastTimestamp: Timestamp?
    /// The records the engine had read when the session closed (the one that closed it
    /// included), or one more than all of them when the input ended: see ``order``.
    public var closeSequence: Int64 = 0
    /// The playbacks of an instrument, in the order they began.
    public var playbacks: [PlaybackSummary] = []
    /// The value-proposition sessions of an app session, in the order they opened.
    public var vpSessions: [VPSessionSummary] = []
    /// The items of a Marconi player, in the order they started.
    public var marconiItems: [MarconiItemSummary] = []
    /// The trace, in replay order (empty unless asked for).
    public var trace: [TraceLine] = []
    /// The metrics, in replay order.
    public var points: [MetricPoint] = []

    public init(key: SessionKey, closing: Closing) {
        self.key = key
        self.closing = closing
    }

    /// Where the session's rows go among every session's: the order sessions close in.
    public var order: SessionOrder {
        SessionOrder(sequence: closeSequence, latest: lastTimestamp ?? Timestamp(milliseconds: 0), key: key)
    }
}
