import EventModel
import Testing

@testable import EventLog

/// The cache finds an entry by a digest of a text's length and first and last eight bytes,
/// then compares the bytes: texts that differ only in between share a slot and a digest, and
/// the comparison alone tells them apart.
@Suite struct TextCacheTests {
    /// A text of `length` letters, with `changed` (if any) a digit instead.
    private func text(length: Int, changed: Int? = nil) -> [UInt8] {
        (0..<length).map { $0 == changed ? UInt8(ascii: "0") : UInt8(ascii: "a") + UInt8($0 % 26) }
    }

    @Test func stringsThatDifferInOneByteStayApart() {
        let cache = TextCache()
        for length in 1...80 {
            let base = text(length: length)
            for changed in 0..<length {
                let variant = text(length: length, changed: changed)
                let first = base.withUnsafeBytes { cache.string($0) }
                let second = variant.withUnsafeBytes { cache.string($0) }
                #expect(Array(first.utf8) == base, "length \(length)")
                #expect(Array(second.utf8) == variant, "length \(length), byte \(changed)")
            }
        }
    }

    @Test func aStringFoundAgainIsTheSame() {
        let cache = TextCache()
        for length in [1, 7, 8, 9, 16, 17, 64, 65, 200] {
            let bytes = text(length: length)
            let first = bytes.withUnsafeBytes { cache.string($0) }
            let again = bytes.withUnsafeBytes { cache.string($0) }
            #expect(first == again)
            #expect(Array(again.utf8) == bytes)
        }
    }

    @Test func keyNamesThatDifferInOneByteGetTheirOwnNumbers() {
        let cache = TextCache()
        for length in [3, 8, 9, 16, 17, 31, 64] {
            for changed in [0, length / 2, length - 1] {
                let base = text(length: length)
                let variant = text(length: length, changed: changed)
                let baseNumber = base.withUnsafeBytes { cache.keyNumber($0) }
                let variantNumber = variant.withUnsafeBytes { cache.keyNumber($0) }
                #expect(baseNumber == base.withUnsafeBytes { PackedAttributes.keyNumber(ofName: $0) })
                #expect(variantNumber == variant.withUnsafeBytes { PackedAttributes.keyNumber(ofName: $0) })
                #expect(baseNumber != variantNumber, "length \(length), byte \(changed)")
            }
        }
    }
}
