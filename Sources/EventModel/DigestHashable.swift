/// Hashing by a 64-bit digest the value computes, rather than by running a `Hasher` over its
/// bytes: the values dictionaries look up once or more per record (attribute keys, session
/// keys, aggregate rows) hash with it.
///
/// This is the one place the project implements the standard library's underscored
/// `_rawHashValue(seed:)`, the hook `Dictionary` and `Set` call instead of `hash(into:)`.
/// Invariant: equal values have equal ``hashDigest``s (values that differ may share one; they
/// then only share a bucket). `hash(into:)` and `_rawHashValue(seed:)` both come from the
/// digest, so every way of hashing a value agrees (`DigestHashableTests`).
public protocol DigestHashable: Hashable {
    /// A digest of the value, equal for equal values.
    var hashDigest: UInt64 { get }
}

extension DigestHashable {
    public func hash(into hasher: inout Hasher) {
        hashDigest(into: &hasher)
    }

    /// The digest, mixed with the dictionary's seed.
    public func _rawHashValue(seed: Int) -> Int {
        rawHashValueOfDigest(seed: seed)
    }

    /// `hash(into:)` by the digest, for a type that also gets another one (a
    /// `RawRepresentable` type gets one by its raw value) and must name this one.
    public func hashDigest(into hasher: inout Hasher) {
        hasher.combine(hashDigest)
    }

    /// `_rawHashValue(seed:)` by the digest, for a type that also gets another one.
    package func rawHashValueOfDigest(seed: Int) -> Int {
        seededHash(hashDigest, seed: seed)
    }
}

/// A digest mixed with a dictionary's seed (SplitMix64's finaliser), for
/// ``DigestHashable``.
package func seededHash(_ digest: UInt64, seed: Int) -> Int {
    var mixed = digest ^ UInt64(UInt(bitPattern: seed))
    mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
    return Int(truncatingIfNeeded: mixed ^ (mixed >> 31))
}
