/// The name of an attribute, such as `position` or `timeSinceStart`.
///
/// Custom attributes are made with a string literal or ``init(_:)``; by OpenAVT's
/// convention their names are lower camel case.
///
/// Every event carries some sixty attributes, so keys are hashed and compared all the time:
/// a key computes a 64-bit digest of its name once, when it is made, and hashes and compares
/// that first. It also carries
/// its name's number in `PackedKeyTable`, by which packed attributes refer to it.
public struct AttributeKey: DigestHashable, Comparable, Sendable, RawRepresentable {
    public let rawValue: String
    private let digest: UInt64
    /// The name's number in `PackedKeyTable`, 0 when it has none: numbers are small and
    /// never reused, so a module can index a table by them.
    @usableFromInline package let packedNumber: UInt32

    public init(rawValue: String) {
        let digest = fnv1a(rawValue)
        self.init(
            rawValue: rawValue, digest: digest, packedNumber: PackedKeyTable.number(for: rawValue, digest: digest))
    }

    init(rawValue: String, digest: UInt64, packedNumber: UInt32) {
        self.rawValue = rawValue
        self.digest = digest
        self.packedNumber = packedNumber
    }

    /// Creates an attribute key with the given name.
    public init(_ name: String) {
        self.init(rawValue: name)
    }

    public static func == (lhs: AttributeKey, rhs: AttributeKey) -> Bool {
        guard lhs.digest == rhs.digest else { return false }
        if lhs.packedNumber != 0 || rhs.packedNumber != 0 { return lhs.packedNumber == rhs.packedNumber }
        return lhs.rawValue == rhs.rawValue
    }

    /// The digest of the name, made once (``DigestHashable``).
    public var hashDigest: UInt64 { digest }

    // `RawRepresentable` also hashes by the raw value: the key names ``DigestHashable``'s.
    public func hash(into hasher: inout Hasher) { hashDigest(into: &hasher) }
    public func _rawHashValue(seed: Int) -> Int { rawHashValueOfDigest(seed: seed) }

    public static func < (lhs: AttributeKey, rhs: AttributeKey) -> Bool {
        lhs.rawValue.precedesInUTF8Order(rhs.rawValue)
    }

    /// The names of the keys made so far in this process (the first 4,096 of up to 64
    /// bytes), in the order they were first made: the attributes the input carried, and those
    /// the ports stamp. For "did you mean …?".
    package static var namesSeen: [String] { PackedKeyTable.names }
}

/// FNV-1a 64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3) of `bytes`, or its
/// continuation from an earlier digest. Its values are fixed by its definition, so they may be
/// kept in files (a state file's input digests) and compared across versions.
@inlinable
package func fnv1a64(_ bytes: UnsafeRawBufferPointer, continuing start: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
    var digest = start
    for byte in bytes { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return digest
}

/// FNV-1a over a text's UTF-8 bytes: the digest attribute keys, actions and packed key names
/// keep and compare first, and the hash of attribute keys (`seededHash(_:seed:)`). Keys
/// whose digest is not kept hash with `wordDigest(_:continuing:)` instead.
package func fnv1a(_ text: String) -> UInt64 {
    var digest: UInt64 = 0xcbf2_9ce4_8422_2325
    let hashed: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
        for byte in bytes { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
    if hashed == nil {
        for byte in text.utf8 { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
    return digest
}

/// A digest of a text's UTF-8 bytes taken eight at a time, from `start`: the hash of keys
/// whose digest is not kept, that dictionaries look up for every record or metric point
/// (session keys, aggregate rows), where FNV-1a's multiplication per byte was most of the
/// look-up's hashing. Only for hashing in memory: it is not stable from one version to the
/// next, so nothing written keeps it.
@inlinable
package func wordDigest(_ text: String, continuing start: UInt64) -> UInt64 {
    if let digest = text.utf8.withContiguousStorageIfAvailable({
        wordDigest(UnsafeRawBufferPointer($0), continuing: start)
    }) {
        return digest
    }
    return Array(text.utf8).withUnsafeBytes { wordDigest($0, continuing: start) }
}

/// ``wordDigest(_:continuing:)`` of bytes: each 8-byte word (the last one overlapping the one
/// before, or the bytes zero-padded when there are fewer than eight) mixed in with a
/// multiplication, then the count.
@inlinable
package func wordDigest(_ bytes: UnsafeRawBufferPointer, continuing start: UInt64) -> UInt64 {
    @inline(__always) func mix(_ digest: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = (digest ^ word) &* 0x9e37_79b9_7f4a_7c15
        return mixed ^ (mixed >> 29)
    }
    var digest = start
    let count = bytes.count
    if count < 8 {
        var word: UInt64 = 0
        for index in 0..<count { word |= UInt64(bytes[index]) << (8 * UInt64(index)) }
        digest = mix(digest, word)
    } else {
        var offset = 0
        while offset + 8 < count {
            digest = mix(digest, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        digest = mix(digest, bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
    }
    return mix(digest, UInt64(count))
}

extension AttributeKey: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }
}

extension AttributeKey: CustomStringConvertible {
    public var description: String { rawValue }
}

/// An event's attributes.
public typealias Attributes = [AttributeKey: AttributeValue]

// The attributes OpenAVT defines (`OAVTAttribute`).
extension AttributeKey {
    public static let trackerTarget: AttributeKey = "trackerTarget"
    public static let streamId: AttributeKey = "streamId"
    public static let playbackId: AttributeKey = "playbackId"
    public static let senderId: AttributeKey = "senderId"
    public static let countErrors: AttributeKey = "countErrors"
    public static let countStarts: AttributeKey = "countStarts"
    public static let accumPauseTime: AttributeKey = "accumPauseTime"
    public static let accumBufferTime: AttributeKey = "accumBufferTime"
    public static let accumSeekTime: AttributeKey = "accumSeekTime"
    public static let accumPlayTime: AttributeKey = "accumPlayTime"
    public static let deltaPlayTime: AttributeKey = "deltaPlayTime"
    public static let inPauseBlock: AttributeKey = "inPauseBlock"
    public static let inSeekBlock: AttributeKey = "inSeekBlock"
    public static let inBufferBlock: AttributeKey = "inBufferBlock"
    public static let inPlaybackBlock: AttributeKey = "inPlaybackBlock"
    public static let errorDescription: AttributeKey = "errorDescription"
    public static let position: AttributeKey = "position"
    public static let duration: AttributeKey = "duration"
    public static let resolutionHeight: AttributeKey = "resolutionHeight"
    public static let resolutionWidth: AttributeKey = "resolutionWidth"
    public static let isMuted: AttributeKey = "isMuted"
    public static let volume: AttributeKey = "volume"
    public static let fps: AttributeKey = "fps"
    public static let source: AttributeKey = "source"
    public static let bitrate: AttributeKey = "bitrate"
    public static let language: AttributeKey = "language"
    public static let subtitles: AttributeKey = "subtitles"
    public static let title: AttributeKey = "title"
    public static let isAdsTracker: AttributeKey = "isAdsTracker"
    public static let countAds: AttributeKey = "countAds"
    public static let inAdBreakBlock: AttributeKey = "inAdBreakBlock"
    public static let inAdBlock: AttributeKey = "inAdBlock"
    public static let adPosition: AttributeKey = "adPosition"
    public static let adDuration: AttributeKey = "adDuration"
    public static let adBufferedTime: AttributeKey = "adBufferedTime"
    public static let adVolume: AttributeKey = "adVolume"
    public static let adRoll: AttributeKey = "adRoll"
    public static let adDescription: AttributeKey = "adDescription"
    public static let adId: AttributeKey = "adId"
    public static let adTitle: AttributeKey = "adTitle"
    public static let adAdvertiserName: AttributeKey = "adAdvertiserName"
    public static let adCreativeId: AttributeKey = "adCreativeId"
    public static let adBitrate: AttributeKey = "adBitrate"
    public static let adResolutionHeight: AttributeKey = "adResolutionHeight"
    public static let adResolutionWidth: AttributeKey = "adResolutionWidth"
    public static let adSystem: AttributeKey = "adSystem"
}
