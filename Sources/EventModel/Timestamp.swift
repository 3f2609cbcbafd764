/// A point in time, in milliseconds since the Unix epoch.
///
/// Every state machine takes its time from the records it replays, never from
/// the wall clock, so a `Timestamp` is the only clock in the library.
public struct Timestamp: Hashable, Comparable, Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var milliseconds: Int64

    /// Creates a timestamp from milliseconds since the Unix epoch.
    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// Whole seconds since the Unix epoch, rounded down (also for times before 1970).
    public var epochSeconds: Int64 {
        milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
    }

    /// The start of the bucket of `length` milliseconds this time is in: buckets start at
    /// multiples of their length since the epoch, before it too (`-1` is in the bucket of `-length`).
    public func bucketStart(length: Int64) -> Timestamp {
        let index = milliseconds >= 0 ? milliseconds / length : (milliseconds - length + 1) / length
        return Timestamp(milliseconds: index * length)
    }

    /// The milliseconds from `earlier` to `self`.
    public func milliseconds(since earlier: Timestamp) -> Int64 {
        milliseconds &- earlier.milliseconds
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }
}

extension Timestamp: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) {
        self.init(milliseconds: value)
    }
}
