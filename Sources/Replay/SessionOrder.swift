import EventModel

/// The order in which sessions close, and so the order of their rows, trace lines and
/// points in every report: by ``sequence`` (the input record whose arrival closed them, the
/// end of the input last), then by latest record time, then by ``SessionKey``.
///
/// Every shard of a sharded run reads the whole input, so a session has the same order in
/// its shard as in an unsharded run, and merging the shards' reports by it gives the rows of
/// the unsharded run in the same order.
public struct SessionOrder: Hashable, Comparable, Sendable {
    /// The records read when the session closed, or one more than all of them at the end.
    public var sequence: Int64
    /// The time of the session's latest record.
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
