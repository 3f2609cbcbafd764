import EventModel

/// The order of the lives' hand-overs (``SessionReport``), and so of their rows, trace lines
/// and points in every report: by ``sequence`` (the merged record that made them due, the end
/// of the input last), then by the time they became due, then by ``SessionKey``.
///
/// Every shard of a sharded run reads the whole input, so a hand-over has the same order in
/// its shard as in an unsharded run, and merging the shards' reports by it gives the rows of
/// the unsharded run in the same order.
public struct SessionOrder: Hashable, Comparable, Sendable {
    /// The records merged when it was handed over, or one more than all of them at the end.
    public var sequence: Int64
    /// The time the hand-over became due (``SessionReport/orderTime``).
    public var latest: Timestamp
    /// The instrument, app or player.
    public var key: SessionKey

    public init(sequence: Int64, latest: Timestamp, key: SessionKey) {
        self.sequence = sequence
        self.latest = latest
        self.key = key
    }

    public static func < (lhs: SessionOrder, rhs: SessionOrder) -> Bool {
        if lhs.sequence != rhs.sequence { return lhs.sequence < rhs.sequence }
        if lhs.latest != rhs.latest { return lhs.latest < rhs.latest }
        return lhs.key < rhs.key
    }
}
