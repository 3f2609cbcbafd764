import EventModel
import HeapModule

/// The clock of one input of the merge (``EventTimeMerge``): the latest time its records agree
/// on, which one device's clock cannot move.
///
/// A record more than the window (`maxLateness`) later than the clock is a *jump*: it is
/// placed at its own time, but it moves the clock only once a later record of the same input
/// and of another key (another instrument, app or player) comes within the window of it:
/// then the input has moved on (after a silence, or when one file covers several
/// hours). A jump no other key follows is one device's clock ahead of everyone's, and the
/// input's other records keep their places: they do not come late because of it.
/// While an input has shown one key only (a file of one device), that key's clock is the
/// input's: nothing in the input can say it is wrong. The clock never goes back (the merge lets
/// records out by the lowest clock less the window, so that no record still to come is
/// earlier): a file that begins with one device far ahead has that device's clock, and its
/// other records come late.
///
/// What a record does to the clock depends only on the records before it in its own input:
/// so a partition (`avt-replay partition`) works out each line's place as the merge does.
package struct FileClock: Sendable {
    /// The latest time the input's records agree on; `nil` before its first record.
    package private(set) var time: Timestamp?
    /// The one key the input has shown, until another comes.
    private var setBy: UInt64?
    /// The jumps not followed yet, earliest first.
    private var jumps = Heap<Jump>()

    package init() {}

    /// Where a record read next from the input goes: its own time, or the clock less
    /// `maxLateness` when it is later than that (a late record); and whether it is a jump
    /// (placed at its own time, the clock left where it is).
    package mutating func place(
        of timestamp: Timestamp, keyDigest: UInt64, maxLateness: Int64
    ) -> (time: Timestamp, isJump: Bool) {
        guard time != nil else {
            time = timestamp
            setBy = keyDigest
            return (timestamp, false)
        }
        if let first = setBy {
            if first == keyDigest {
                return (Self.place(of: timestamp, clock: &time, maxLateness: maxLateness), false)
            }
            setBy = nil
        }
        follow(by: timestamp, keyDigest: keyDigest, maxLateness: maxLateness)
        if let clock = time, timestamp.milliseconds > clock.milliseconds &+ maxLateness {
            jumps.insert(Jump(time: timestamp, keyDigest: keyDigest))
            return (timestamp, true)
        }
        return (Self.place(of: timestamp, clock: &time, maxLateness: maxLateness), false)
    }

    /// Where a record of a partition's part file goes, as the partition found it: `given`
    /// its mark there. A jump leaves the clock where it is; the others move it as
    /// ``place(of:clock:maxLateness:)`` does (the part file holds only some of the input's
    /// keys, so the clock is no later than the whole input's).
    package mutating func place(of timestamp: Timestamp, given: GivenPlace, maxLateness: Int64) -> Timestamp {
        switch given {
        case .inOrder: Self.place(of: timestamp, clock: &time, maxLateness: maxLateness)
        case .late(let place): Self.place(of: place, clock: &time, maxLateness: maxLateness)
        case .jump: timestamp
        }
    }

    /// Where the partition put a record of a part file (``PartLine``).
    package enum GivenPlace: Sendable, Equatable {
        /// At its own time.
        case inOrder
        /// It came late: at this time.
        case late(Timestamp)
        /// A jump, at its own time: it does not move the clock.
        case jump
    }

    /// Moves the clock to the jumps that a record of `keyDigest` at `timestamp` follows: those
    /// of other keys within the window of it. A jump more than the window before it is left
    /// behind: the record is later still (a jump itself, or the clock moves past it anyway),
    /// and vouches for nothing that far back. The jumps of its own key stop the search: a key
    /// never vouches for itself.
    private mutating func follow(by timestamp: Timestamp, keyDigest: UInt64, maxLateness: Int64) {
        while let first = jumps.min, first.time.milliseconds <= timestamp.milliseconds &+ maxLateness,
            first.keyDigest != keyDigest
        {
            jumps.removeMin()
            guard first.time.milliseconds >= timestamp.milliseconds &- maxLateness else { continue }
            if time.map({ first.time > $0 }) ?? true { time = first.time }
        }
    }

    /// The time of the place of a record at `time` read next from an input whose clock is
    /// `clock` (its own time, or the clock less `maxLateness` when it is later than that), and
    /// the clock moved to it.
    package static func place(of time: Timestamp, clock: inout Timestamp?, maxLateness: Int64) -> Timestamp {
        guard let current = clock else {
            clock = time
            return time
        }
        if time > current { clock = time }
        return max(time, Timestamp(milliseconds: current.milliseconds &- maxLateness))
    }

    /// A record more than the window ahead of the clock, not followed yet.
    private struct Jump: Comparable {
        var time: Timestamp
        var keyDigest: UInt64

        static func < (lhs: Jump, rhs: Jump) -> Bool {
            (lhs.time, lhs.keyDigest) < (rhs.time, rhs.keyDigest)
        }
    }
}
