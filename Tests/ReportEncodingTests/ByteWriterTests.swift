import Testing
import TextFormat

@testable import ReportEncoding

@Suite("Byte writer")
struct ByteWriterTests {
    /// Every number at a change of digit count or of bit length, and the extremes.
    private static let boundaryNumbers: [UInt64] = {
        var numbers: [UInt64] = [0, 1, 9, UInt64.max, UInt64.max - 1]
        var power: UInt64 = 10
        for _ in 1...19 {
            numbers += [power - 1, power, power + 1]
            if power > UInt64.max / 10 { break }
            power *= 10
        }
        for bit in 1..<64 {
            let value = UInt64(1) << bit
            numbers += [value - 1, value, value + 1]
        }
        return numbers
    }()

    @Test func unsignedNumbersAreWrittenInDecimal() {
        for value in Self.boundaryNumbers {
            var writer = ByteWriter(capacity: 1)
            writer.appendDecimal(value)
            let written = writer.finish()
            #expect(String(decoding: written, as: UTF8.self) == String(value), "\(value)")
            var array: [UInt8] = [UInt8(ascii: "x")]
            DecimalFormatting.appendUInt64(value, into: &array)
            #expect(String(decoding: array, as: UTF8.self) == "x" + String(value), "\(value)")
            #expect(DecimalFormatting.decimalDigits(value) == String(value).count, "\(value)")
        }
    }

    @Test(arguments: [Int64.min, Int64.min + 1, -1_763_596_809_441_000_001, -10, -1, 0, 7, 1_763_596_809, Int64.max])
    func signedNumbersAreWrittenInDecimal(value: Int64) {
        var writer = ByteWriter()
        writer.appendDecimal(value)
        #expect(String(decoding: writer.finish(), as: UTF8.self) == String(value))
    }

    @Test func writesPastItsCapacityAndTruncates() {
        var writer = ByteWriter(capacity: 1)
        let text = String(repeating: "line of text ", count: 100)
        for _ in 0..<10 { writer.append(utf8: text) }
        #expect(writer.count == 10 * text.utf8.count)
        let start = writer.count
        writer.append(Array("dropped".utf8))
        writer.append(UInt8(ascii: "!"))
        writer.truncate(to: start)
        writer.append(UInt8(ascii: "."))
        let kept = writer.withBytes(from: start) { Array($0) }
        #expect(kept == [UInt8(ascii: ".")])
        #expect(String(decoding: writer.finish(), as: UTF8.self) == String(repeating: text, count: 10) + ".")
    }
}
