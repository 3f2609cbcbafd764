import EventModel

/// The strings and attribute keys a decoder made recently, so that a value repeated on many
/// records (an instrument id, an action, a title, an attribute name) is built once.
///
/// Direct-mapped by a digest of the bytes: a look-up is an array index and a comparison of
/// bytes; a miss replaces the entry. Making a `String` (and an attribute key's digest) for
/// every name and value would be about a tenth of a replay's instructions.
final class TextCache {
    private static let slots = 4_096
    private var strings: [CachedString?]
    private var keys: [(digest: UInt64, key: AttributeKey)?]
    /// The key-number cache: ``numberSlots`` slots of ``numberSlotSize`` bytes, each the
    /// name's digest (8 bytes), number (4), length (1, 0 for an empty slot), padding, then
    /// the name's bytes. One block of memory, as every attribute of every record looks here.
    private let numberCache: UnsafeMutableRawPointer
    private static let numberSlots = 1_024
    private static let maxNumberedName = 64
    private static let numberSlotSize = 16 + maxNumberedName

    init() {
        strings = Array(repeating: nil, count: Self.slots)
        keys = Array(repeating: nil, count: Self.slots)
        let size = Self.numberSlots * Self.numberSlotSize
        numberCache = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        numberCache.initializeMemory(as: UInt8.self, repeating: 0, count: size)
    }

    deinit {
        numberCache.deallocate()
    }

    /// A string and what finds it: the length and first and last eight bytes of its UTF-8
    /// form (zero-padded when shorter), the whole of a string of up to 16 bytes.
    private struct CachedString {
        var first: UInt64
        var last: UInt64
        var length: Int
        var string: String
    }

    /// The bytes as a string (invalid UTF-8 repaired as `String(decoding:as:)` does).
    ///
    /// Most values (ids, action names) have up to 16 bytes, which the slot's words compare
    /// whole, without reading the string.
    func string(_ bytes: UnsafeRawBufferPointer) -> String {
        let (first, last) = Self.ends(bytes)
        let mixed = (first ^ (last &* 0x9e37_79b9_7f4a_7c15) ^ UInt64(bytes.count)) &* 0xbf58_476d_1ce4_e5b9
        let slot = Int(truncatingIfNeeded: mixed >> 52) & (Self.slots - 1)
        if let entry = strings[slot], entry.first == first, entry.last == last, entry.length == bytes.count,
            bytes.count <= 16 || Self.equal(entry.string, bytes)
        {
            return entry.string
        }
        let string = String(decoding: bytes, as: UTF8.self)
        strings[slot] = CachedString(first: first, last: last, length: bytes.count, string: string)
        return string
    }

    /// The first and last eight bytes (the bytes, zero-padded, and 0 when fewer than eight).
    @inline(__always)
    private static func ends(_ bytes: UnsafeRawBufferPointer) -> (first: UInt64, last: UInt64) {
        if bytes.count >= 8 {
            return (
                bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
            )
        }
        var first: UInt64 = 0
        for (index, byte) in bytes.enumerated() { first |= UInt64(byte) << (8 * UInt64(index)) }
        return (first, 0)
    }

    /// The attribute key named by the bytes.
    func key(_ bytes: UnsafeRawBufferPointer) -> AttributeKey {
        let digest = Self.digest(bytes)
        let slot = Int(truncatingIfNeeded: digest) & (Self.slots - 1)
        if let entry = keys[slot], entry.digest == digest, Self.equal(entry.key.rawValue, bytes) {
            return entry.key
        }
        let key = AttributeKey(String(decoding: bytes, as: UTF8.self))
        keys[slot] = (digest, key)
        return key
    }

    /// The packed-key number of the attribute name spelt by the bytes
    /// (``PackedAttributes/keyNumber(ofName:)``). Every attribute of every record asks, so the
    /// slot is found by a digest of the length and the first and last eight bytes, and the
    /// name compared with a copy of its bytes, all in one block of memory.
    /// Inlined, as is ``quickDigest(_:)``: left to the compiler, comparing names in place
    /// made them too large to inline.
    @inline(__always)
    func keyNumber(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        let length = bytes.count
        guard length > 0, length <= Self.maxNumberedName, let given = bytes.baseAddress else {
            return PackedAttributes.keyNumber(ofName: bytes)
        }
        let digest = Self.quickDigest(bytes)
        let slot = numberCache + (Int(truncatingIfNeeded: digest) & (Self.numberSlots - 1)) * Self.numberSlotSize
        if slot.load(as: UInt64.self) == digest, Int(slot.load(fromByteOffset: 12, as: UInt8.self)) == length,
            sameBytes(slot + 16, given, count: length)
        {
            return slot.load(fromByteOffset: 8, as: UInt32.self)
        }
        let number = PackedAttributes.keyNumber(ofName: bytes)
        slot.storeBytes(of: digest, as: UInt64.self)
        slot.storeBytes(of: number, toByteOffset: 8, as: UInt32.self)
        slot.storeBytes(of: UInt8(length), toByteOffset: 12, as: UInt8.self)
        (slot + 16).copyMemory(from: given, byteCount: length)
        return number
    }

    /// A digest of the length and the first and last eight bytes (of every byte when fewer
    /// than eight): cheap for long values such as URLs; values it confuses only miss.
    @inline(__always)
    private static func quickDigest(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var digest = UInt64(bytes.count) &* 0x9e37_79b9_7f4a_7c15
        if bytes.count >= 8 {
            digest ^= bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
            digest = (digest ^ (digest >> 31)) &* 0xbf58_476d_1ce4_e5b9
            digest ^= bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
        } else {
            for byte in bytes { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        digest = (digest ^ (digest >> 27)) &* 0x94d0_49bb_1331_11eb
        return digest ^ (digest >> 31)
    }

    private static func digest(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return digest
    }

    /// Reads the string's bytes in place: `withUTF8` needs a mutable copy, a reference-count
    /// operation per look-up on the decoding thread.
    private static func equal(_ string: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let isSame = string.utf8.withContiguousStorageIfAvailable { sameBytes(UnsafeRawBufferPointer($0), bytes) }
        return isSame ?? string.utf8.elementsEqual(bytes)
    }
}
