import EventModel
import Testing

@Suite struct ByteComparisonTests {
    @Test func bytesThatDifferInAnyOneByteAreNotTheSame() {
        for count in 0...80 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
            bytes.withUnsafeBytes { original in
                let copy = Array(original)
                copy.withUnsafeBytes { #expect(sameBytes(original, $0), "\(count) bytes") }
            }
            for changed in 0..<count {
                var variant = bytes
                variant[changed] ^= 0x20
                bytes.withUnsafeBytes { original in
                    variant.withUnsafeBytes { #expect(!sameBytes(original, $0), "\(count) bytes, byte \(changed)") }
                }
            }
        }
    }

    @Test func buffersOfDifferentLengthsAreNotTheSame() {
        let long: [UInt8] = Array("abcdefghij".utf8)
        let short: [UInt8] = Array("abcdefghi".utf8)
        long.withUnsafeBytes { left in short.withUnsafeBytes { #expect(!sameBytes(left, $0)) } }
        let empty: [UInt8] = []
        empty.withUnsafeBytes { left in empty.withUnsafeBytes { #expect(sameBytes(left, $0)) } }
    }
}
