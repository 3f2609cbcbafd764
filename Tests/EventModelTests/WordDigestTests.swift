import EventModel
import Testing

@Suite struct WordDigestTests {
    @Test func equalTextsHaveEqualDigestsHoweverTheyAreStored() {
        for count in 0...40 {
            let text = String((0..<count).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            // Built again from its bytes, and as a substring's copy: other storage, same text.
            let rebuilt = String(decoding: Array(text.utf8), as: UTF8.self)
            let copied = String(("x" + text).dropFirst())
            #expect(wordDigest(text, continuing: 1) == wordDigest(rebuilt, continuing: 1), "\(count) bytes")
            #expect(wordDigest(text, continuing: 1) == wordDigest(copied, continuing: 1), "\(count) bytes")
            let fromBytes = Array(text.utf8).withUnsafeBytes { wordDigest($0, continuing: 1) }
            #expect(wordDigest(text, continuing: 1) == fromBytes, "\(count) bytes")
        }
    }

    @Test func textsThatDifferInAnyOneByteOrInLengthHaveDifferentDigests() {
        for count in 0...40 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
            let digest = bytes.withUnsafeBytes { wordDigest($0, continuing: 0) }
            for changed in 0..<count {
                var variant = bytes
                variant[changed] ^= 0x20
                #expect(variant.withUnsafeBytes { wordDigest($0, continuing: 0) } != digest, "\(count), \(changed)")
            }
            let longer = bytes + [0]
            #expect(longer.withUnsafeBytes { wordDigest($0, continuing: 0) } != digest, "\(count) and a zero")
        }
        #expect(wordDigest("web-1", continuing: 0) != wordDigest("web-1", continuing: 1))
    }
}
