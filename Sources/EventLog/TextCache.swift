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

    init() {
        strings = Array(repeating: nil, count: Self.slots)
        keys = Array(repeating: nil, count: Self.slots)
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
