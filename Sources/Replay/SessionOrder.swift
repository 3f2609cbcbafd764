import EventModel

/// Where a record is in the merged stream of all the inputs (`EventTimeMerge`): its time
/// there, then its key's digest (`Shard.hash`), then its position in the input. The
/// time is its own `ts`, or later for a record that came late (docs/time.md): it is what the
/// replay's clock reads when the record is replayed.
///
/// A place depends only on the record and the lines before it in its own file, never on the
/// other files: so every shard of a sharded run, reading only its own records, gives a record
/// the place an unsharded run gives it.
public struct StreamPlace: Hashable, Comparable, Sendable {
    /// The time of the record in the stream, which the replay's clock takes.
    public var time: Timestamp
    /// The digest of the record's key, which orders records of equal times.
    public var keyDigest: UInt64
    /// Where the record was read.
    public var position: SourcePosition

    public init(time: Timestamp, keyDigest: UInt64, position: SourcePosition) {
        self.time = time
        self.keyDigest = keyDigest
        self.position = position
    }

    public static func < (lhs: StreamPlace, rhs: StreamPlace) -> Bool {
        if lhs.time != rhs.time { return lhs.time < rhs.time }
        if lhs.keyDigest != rhs.keyDigest { return lhs.keyDigest < rhs.keyDigest }
        return lhs.position < rhs.position
    }
}

/// The order of the lives' hand-overs (``SessionReport``), and so of their rows, trace lines
/// and points in every report. A hand-over is made due by one of three things, and takes its
/// place from it:
/// - a record (``Stage/record``): at the record's ``StreamPlace``;
/// - a deadline, a life's flush or end when the clock passes a time (``Stage/deadline``):
///   after every record at that time and before every later one, deadlines of equal times
///   by key;
/// - the end of the input (``Stage/end``): after everything else, by the time of the life's
///   latest record, then key.
///
/// Every part of it comes from the life's own records, never from other lives': so a shard,
/// replaying only its own lives, hands each over at the place an unsharded run does, and
/// merging the shards' reports by it gives the unsharded run's order.
public struct SessionOrder: Hashable, Comparable, Sendable {
    /// What made a hand-over due.
    public enum Stage: Int, Hashable, Sendable {
        case record = 0
        case deadline = 1
        case end = 2
    }

    public var stage: Stage
    /// The record's time in the stream, the deadline, or (at the end) the life's latest record.
    public var time: Timestamp
    /// The record's key digest and position (a record's stage only; zero otherwise).
    public var keyDigest: UInt64
    public var position: SourcePosition
    /// The instrument, app or player.
    public var key: SessionKey

    public init(stage: Stage, time: Timestamp, keyDigest: UInt64, position: SourcePosition, key: SessionKey) {
        self.stage = stage
        self.time = time
        self.keyDigest = keyDigest
        self.position = position
        self.key = key
    }

    /// A hand-over made due by the record at `place`, of the life of `key`.
    public static func record(_ place: StreamPlace, key: SessionKey) -> SessionOrder {
        SessionOrder(stage: .record, time: place.time, keyDigest: place.keyDigest, position: place.position, key: key)
    }

    /// A hand-over made due when the clock passed `time`.
    public static func deadline(_ time: Timestamp, key: SessionKey) -> SessionOrder {
        SessionOrder(
            stage: .deadline, time: time, keyDigest: 0, position: SourcePosition(fileRank: 0, line: 0), key: key)
    }

    /// A hand-over at the end of the input, of a life whose latest record is at `latest`.
    public static func end(latest: Timestamp, key: SessionKey) -> SessionOrder {
        SessionOrder(stage: .end, time: latest, keyDigest: 0, position: SourcePosition(fileRank: 0, line: 0), key: key)
    }

    public static func < (lhs: SessionOrder, rhs: SessionOrder) -> Bool {
        if (lhs.stage == .end) != (rhs.stage == .end) { return rhs.stage == .end }
        if lhs.time != rhs.time { return lhs.time < rhs.time }
        if lhs.stage != rhs.stage { return lhs.stage.rawValue < rhs.stage.rawValue }
        if lhs.keyDigest != rhs.keyDigest { return lhs.keyDigest < rhs.keyDigest }
        if lhs.position != rhs.position { return lhs.position < rhs.position }
        return lhs.key < rhs.key
    }
}
