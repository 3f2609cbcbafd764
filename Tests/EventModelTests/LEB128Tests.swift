import EventModel
import Testing

/// Varints round-trip at every length, and take the bytes `size(of:)` says.
struct LEB128Tests {
    private let values: [UInt] =
        [0, 1, 0x7F, 0x80, 0x3FFF, 0x4000, 300, 1 << 35, UInt(Int.max), UInt.max, UInt(bitPattern: -1)]

    @Test func valuesRoundTripInTheBytesTheirSizeSays() {
        var buffer = [UInt8](repeating: 0xAA, count: values.count * LEB128.maxSize)
        var written: [Int] = []
        buffer.withUnsafeMutableBytes { buffer in
            var offset = 0
            for value in values {
                let start = offset
                LEB128.write(value, into: buffer, at: &offset)
                written.append(offset - start)
            }
        }
        #expect(written == values.map { LEB128.size(of: $0) })
        #expect(written.prefix(6) == [1, 1, 1, 2, 2, 3])
        #expect(LEB128.size(of: .max) == LEB128.maxSize)
        buffer.withUnsafeBytes { buffer in
            var offset = 0
            let read = values.map { _ in LEB128.read(buffer, at: &offset) }
            #expect(read == values)
            #expect(offset == written.reduce(0, +))
        }
        // 300 is 0b10_0101100: its low seven bits first, with the high bit set.
        #expect([UInt8](buffer[2...2]) == [0x7F])
        #expect([UInt8](buffer[3...4]) == [0x80, 0x01])
    }
}
