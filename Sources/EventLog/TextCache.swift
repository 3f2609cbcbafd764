import EventModel
import Glibc

/// The strings and attribute keys a decoder made recently, so that a value repeated on many
/// records (an instrument id, an action, a title, an attribute name) is built once.
///
/// Direct-mapped by a digest of the bytes: a look-up is an array index and a comparison of
/// bytes; a miss replaces the entry. Measured: making a `String` (and an attribute key's
/// digest) for every name and value was about a tenth of a replay's instructions.
final class TextCache {
    private static let slots = 4_096
    private var strings: [(digest: UInt64, string: String)?]
    private var keys: [(digest: UInt64, key: AttributeKey)?]
    /// The key-number cache's slots: digest, name length (0 for an empty slot), number, and
    /// the name's bytes in ``maxNumberedName`` bytes of `numberNames`.
    private var numberDigests: [UInt64]
    private var numberLengths: [UInt8]
    private var numbers: [UInt32]
    private var numberNames: [UInt8]
    private static let numberSlots = 1_024
    private static let maxNumberedName = 64

    init() {
        strings = Array(repeating: nil, count: Self.slots)
        keys = Array(repeating: nil, count: Self.slots)
        numberDigests = Array(repeating: 0, count: Self.numberSlots)
        numberLengths = Array(repeating: 0, count: Self.numberSlots)
        numbers = Array(repeating: 0, count: Self.numberSlots)
        numberNames = Array(repeating: 0, count: Self.numberSlots * Self.maxNumberedName)
    }

    /// The bytes as a string (invalid UTF-8 repaired as `String(decoding:as:)` does).
    func string(_ bytes: UnsafeRawBufferPointer) -> String {
        let digest = Self.digest(bytes)
        let slot = Int(truncatingIfNeeded: digest) & (Self.slots - 1)
        if let entry = strings[slot], entry.digest == digest, Self.equal(entry.string, bytes) {
            return entry.string
        }
        let string = String(decoding: bytes, as: UTF8.self)
        strings[slot] = (digest, string)
        return string
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
    /// name compared with a copy of its bytes, all in arrays of plain values (measured: a
    /// cache of attribute keys cost some 190 instructions an attribute).
    func keyNumber(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        let length = bytes.count
        guard length > 0, length <= Self.maxNumberedName, let given = bytes.baseAddress else {
            return PackedAttributes.keyNumber(ofName: bytes)
        }
        let digest = Self.quickDigest(bytes)
        let slot = Int(truncatingIfNeeded: digest) & (Self.numberSlots - 1)
        let start = slot * Self.maxNumberedName
        if numberDigests[slot] == digest, Int(numberLengths[slot]) == length,
            numberNames.withUnsafeBytes({ names in
                names.baseAddress.map { memcmp($0 + start, given, length) == 0 } ?? false
            })
        {
            return numbers[slot]
        }
        let number = PackedAttributes.keyNumber(ofName: bytes)
        numberDigests[slot] = digest
        numberLengths[slot] = UInt8(length)
        numbers[slot] = number
        numberNames.withUnsafeMutableBytes { names in
            if let target = names.baseAddress { (target + start).copyMemory(from: given, byteCount: length) }
        }
        return number
    }

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

    private static func equal(_ string: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var string = string
        return string.withUTF8 { utf8 in
            guard utf8.count == bytes.count else { return false }
            guard let stored = utf8.baseAddress, let given = bytes.baseAddress else { return true }
            return memcmp(stored, given, bytes.count) == 0
        }
    }
}
