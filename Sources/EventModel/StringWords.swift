/// A string's two words as stored, to tell shared strings apart quickly.
///
/// Equal words are equal strings: the same small string, or the same storage. Different
/// words may still be equal strings, made apart. Where a string is usually shared (a name the
/// decoder makes once, a metric name written in code), comparing words first avoids comparing
/// characters. The words say nothing once the string is gone: keep the string alongside.
package struct StringWords: Hashable, Sendable {
    @usableFromInline let low: UInt64
    @usableFromInline let high: UInt64

    /// The words of `string`.
    @inlinable
    package init(_ string: String) {
        (low, high) = unsafeBitCast(string, to: (UInt64, UInt64).self)
    }

    /// The two words mixed into one, for a cache indexed by some of its bits.
    @inlinable
    package var mixed: UInt64 { (low ^ (high &* 0x9e37_79b9_7f4a_7c15)) &* 0xbf58_476d_1ce4_e5b9 }

    @inlinable
    package static func == (lhs: StringWords, rhs: StringWords) -> Bool {
        lhs.low == rhs.low && lhs.high == rhs.high
    }

    @inlinable
    package func hash(into hasher: inout Hasher) {
        hasher.combine(low)
        hasher.combine(high)
    }
}
