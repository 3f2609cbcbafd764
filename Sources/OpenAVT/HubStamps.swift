import EventModel

/// One of the attributes the core hubs stamp on every event they accept, by slot: integers,
/// then flags, then the two ids. What ``Event/stamp(_:_:)`` takes, so that a hub stamps an
/// event without reaching for the attribute's key.
enum HubStamp: Int, CaseIterable {
    case deltaPlayTime, countErrors, countStarts, accumPauseTime, accumBufferTime, accumSeekTime, countAds
    case inPauseBlock, inSeekBlock, inBufferBlock, inPlaybackBlock, inAdBreakBlock, inAdBlock
    case streamId, playbackId

    /// How many slots hold integers, from slot 0.
    static var integerSlots: Int { inPauseBlock.rawValue }
    /// How many slots hold Booleans, after the integers'.
    static var flagSlots: Int { streamId.rawValue - inPauseBlock.rawValue }
    /// How many slots in all: the ids' are the last.
    static var slots: Int { playbackId.rawValue + 1 }

    /// The attribute it stamps.
    var key: AttributeKey { Self.keys[rawValue] }

    /// The attributes, by slot: the names the packed-name table numbers first
    /// (`AttributeKey.hubStamped`), so that a key's slot is its number less one.
    static var keys: [AttributeKey] { AttributeKey.hubStamped }

}

extension AttributeKey {
    /// The slot an event keeps this attribute in when its value has the slot's type
    /// (``HubStamp``), or `nil` when the attribute is not one the core hubs stamp: the
    /// stamped names have the first numbers of the packed names, in slot order
    /// (`AttributeKey.hubStamped`).
    @inline(__always)
    var hubStampSlot: Int? {
        let slot = Int(packedNumber) &- 1
        return UInt(bitPattern: slot) < UInt(HubStamp.slots) ? slot : nil
    }
}

/// The attributes the core hubs stamp on every event they accept, kept in fixed slots
/// (``HubStamp``) rather than in the event's list: integers, then flags, then
/// the two ids, each present or not.
///
/// Setting a slot costs a few stores where the list cost a walk over the keys, an append and
/// the retains of a key and a value, and an event whose attributes all fit in slots releases
/// no list.
struct HubStamps: Sendable {
    /// Which slots hold a value, a bit each.
    private var present: UInt16 = 0
    /// The values of the flag slots, at their slots' bits.
    private var flags: UInt16 = 0
    private var integers = InlineArray<7, Int64>(repeating: 0)
    /// The ids, in the id slots that are present.
    private var ids: HubIDs?
    /// The slots whose attribute is in the event's list instead, set with a value of another type.
    var displaced = SlotSet()

    /// A set of slots, a bit each.
    struct SlotSet: Sendable {
        private var bits: UInt16 = 0

        mutating func insert(_ slot: Int) { bits |= 1 << slot }

        @inline(__always)
        func contains(_ slot: Int) -> Bool { bits & (1 << slot) != 0 }

        /// Removes a slot; returns whether it was in the set.
        @inline(__always)
        mutating func remove(_ slot: Int) -> Bool {
            let bit: UInt16 = 1 << slot
            defer { bits &= ~bit }
            return bits & bit != 0
        }
    }

    private static var flagSlotRange: Range<Int> {
        HubStamp.integerSlots..<firstIDSlot
    }
    private static var firstIDSlot: Int { HubStamp.integerSlots + HubStamp.flagSlots }
    private static var streamIDSlot: Int { HubStamp.slots - 2 }
    private static var playbackIDSlot: Int { HubStamp.slots - 1 }

    /// The value in a slot, or `nil` when it holds none.
    subscript(slot: Int) -> AttributeValue? {
        guard present & (1 << slot) != 0 else { return nil }
        if slot < HubStamp.integerSlots { return .int(integers[slot]) }
        if Self.flagSlotRange.contains(slot) { return .bool(flags & (1 << slot) != 0) }
        return (slot == Self.streamIDSlot ? ids?.streamID : ids?.playbackID).map { .string($0) }
    }

    /// The integer in `slot`, or `nil` when it is not an integer slot or holds none.
    @inline(__always)
    func integer(in slot: Int) -> Int64? {
        slot < HubStamp.integerSlots && present & (1 << slot) != 0 ? integers[slot] : nil
    }

    /// The Boolean in `slot`, or `nil` when it is not a flag slot or holds none.
    @inline(__always)
    func flag(in slot: Int) -> Bool? {
        Self.flagSlotRange.contains(slot) && present & (1 << slot) != 0 ? flags & (1 << slot) != 0 : nil
    }

    /// The id in `slot`, or `nil` when it is not a string slot or holds none.
    @inline(__always)
    func string(in slot: Int) -> String? {
        guard slot >= Self.firstIDSlot, present & (1 << slot) != 0
        else { return nil }
        return slot == Self.streamIDSlot ? ids?.streamID : ids?.playbackID
    }

    /// Whether the id in `slot` is `text`, compared where it is kept; `nil` when `slot` is
    /// not a string slot or holds none.
    @inline(__always)
    func string(in slot: Int, equals text: String?) -> Bool? {
        guard slot >= Self.firstIDSlot, present & (1 << slot) != 0
        else { return nil }
        return slot == Self.streamIDSlot ? ids?.streamID == text : ids?.playbackID == text
    }

    /// Keeps `value` in `slot`, or empties the slot when `value` is `nil`. Returns `false`,
    /// with the slot emptied, when `value` is not of the slot's type: it belongs in the list.
    @inline(__always)
    mutating func store(_ value: AttributeValue?, in slot: Int) -> Bool {
        let bit: UInt16 = 1 << slot
        present &= ~bit
        switch value {
        case .int(let number) where slot < HubStamp.integerSlots:
            integers[slot] = number
        case .bool(let flag) where Self.flagSlotRange.contains(slot):
            if flag { flags |= bit } else { flags &= ~bit }
        case .string(let id) where slot >= Self.firstIDSlot:
            // A new object: the one held may be shared with other events.
            ids =
                slot == Self.streamIDSlot
                ? HubIDs(streamID: id, playbackID: ids?.playbackID) : HubIDs(streamID: ids?.streamID, playbackID: id)
        case nil:
            return true
        default:
            return false
        }
        present |= bit
        return true
    }

    /// Whether the ids of `shared` can be kept by sharing the object (``store(ids:)``) without
    /// losing anything: neither id slot's attribute is in the event's list, and no id slot
    /// holds an id that `shared` has none for.
    func canStore(ids shared: HubIDs) -> Bool {
        !displaced.contains(Self.streamIDSlot) && !displaced.contains(Self.playbackIDSlot)
            && (shared.streamID != nil || present & (1 << Self.streamIDSlot) == 0)
            && (shared.playbackID != nil || present & (1 << Self.playbackIDSlot) == 0)
    }

    /// Keeps the ids of `shared` in the id slots, sharing the object, when ``canStore(ids:)``.
    mutating func store(ids shared: consuming HubIDs) {
        if shared.streamID != nil { present |= 1 << Self.streamIDSlot }
        if shared.playbackID != nil { present |= 1 << Self.playbackIDSlot }
        ids = shared
    }

    /// Adds the attributes held to `attributes`.
    func add(to attributes: inout Attributes) {
        for slot in 0..<HubStamp.slots {
            if let value = self[slot] { attributes[HubStamp.keys[slot]] = value }
        }
    }
}

/// The `streamId` and `playbackId` a core hub stamps, in one object that the events it stamps
/// share: an event holds one reference for both, retained when it is stamped and released
/// when it goes, where two strings were two of each.
final class HubIDs: Sendable {
    let streamID: String?
    let playbackID: String?

    init(streamID: String?, playbackID: String?) {
        self.streamID = streamID
        self.playbackID = playbackID
    }
}
