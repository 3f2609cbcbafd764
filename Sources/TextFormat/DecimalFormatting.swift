/// Locale-free number formatting shared by the encoders (JSON, CSV, HTML, line protocol): every routine appends ASCII bytes.
///
/// Integers are written digit by digit (no `String` is made); doubles use the shortest
/// decimal form that reads back as the same `Double` (Swift's `description`, which is
/// locale-independent: `0.1`, `100.0`, `1e-05`, `1e+21`, `-0.0`). Non-finite doubles are
/// the callers' business: each encoder documents what it does with them.
package enum DecimalFormatting {
    /// Appends `value` in decimal, with a leading `-` when negative (`Int64.min` included).
    @inlinable @inline(__always)
    package static func appendInt64(_ value: Int64, into buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        appendUInt64(value.magnitude, into: &buffer)
    }

    /// Appends `value` in decimal, through a stack buffer (``writeDigits(of:endingAt:)``).
    @inlinable
    package static func appendUInt64(_ value: UInt64, into buffer: inout [UInt8]) {
        // 20 digits hold UInt64.max.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let count = decimalDigits(value)
            guard let end = bytes.baseAddress.map({ $0 + bytes.count }) else { return }
            writeDigits(of: value, endingAt: end)
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(bytes.count - count)...]))
        }
    }

    /// Writes the decimal digits of `value` (as many as ``decimalDigits(_:)`` counts) just before
    /// `end`, two at a time from the last.
    @inlinable @inline(__always)
    package static func writeDigits(of value: UInt64, endingAt end: UnsafeMutablePointer<UInt8>) {
        var end = end
        var rest = value
        let pairs = digitPairs.utf8Start
        while rest >= 100 {
            let (quotient, pair) = rest.quotientAndRemainder(dividingBy: 100)
            end -= 2
            end[0] = pairs[Int(pair) &* 2]
            end[1] = pairs[Int(pair) &* 2 &+ 1]
            rest = quotient
        }
        if rest >= 10 {
            end -= 2
            end[0] = pairs[Int(rest) &* 2]
            end[1] = pairs[Int(rest) &* 2 &+ 1]
        } else {
            end -= 1
            end[0] = UInt8(truncatingIfNeeded: rest) &+ 0x30
        }
    }

    /// "00", "01", ... "99": the two digits of every number below 100.
    @usableFromInline static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// The number of decimal digits of `value` (1 for 0): from its bit length, which gives the
    /// count or one less, told apart by one comparison.
    @inlinable
    package static func decimalDigits(_ value: UInt64) -> Int {
        let bits = UInt64.bitWidth - (value | 1).leadingZeroBitCount
        // ⌊bits × log10(2)⌋ (exact with 1233/4096 up to 64 bits): the digits of a number of this
        // length, or one less.
        let guess = (bits &* 1_233) >> 12
        return Swift.max(1, guess &+ (value >= powersOfTen[guess] ? 1 : 0))
    }

    /// 10^0 through 10^19.
    @usableFromInline static let powersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
        1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000,
        10_000_000_000_000_000_000,
    ]

    /// Appends the shortest round-trip decimal form of a finite `value` (`description`).
    @inlinable @inline(__always)
    package static func appendShortest(_ value: Double, into buffer: inout [UInt8]) {
        buffer.append(contentsOf: value.description.utf8)
    }

    /// Appends `numerator / denominator` rounded to two decimals, half away from zero,
    /// computed exactly in integers; returns `false` (and appends nothing) when the
    /// denominator is zero.
    ///
    /// A result that rounds to zero is written `0.00`, never `-0.00`.
    package static func appendFixed2(numerator: Int128, denominator: Int128, into buffer: inout [UInt8]) -> Bool {
        if denominator == 0 { return false }
        let negative = (numerator < 0) != (denominator < 0)
        let num = numerator.magnitude
        let den = denominator.magnitude
        // Hundredths, rounded half away from zero on the magnitude.
        let (scaled, overflow) = num.multipliedReportingOverflow(by: 100)
        let hundredths: UInt128
        if overflow {
            // |numerator| > 2^121: divide first; the lost precision is far below 0.01.
            let (whole, remainder) = num.quotientAndRemainder(dividingBy: den)
            hundredths = whole &* 100 &+ (remainder &* 100 &+ den / 2) / den
        } else {
            let (quotient, remainder) = scaled.quotientAndRemainder(dividingBy: den)
            hundredths = remainder >= den - remainder ? quotient + 1 : quotient
        }
        appendHundredths(hundredths, negative: negative, into: &buffer)
        return true
    }

    /// Appends a finite `value` rounded to two decimals, half away from zero, applied to
    /// the shortest decimal form of `value` (so `1.005` gives `1.01` and `2.675` gives
    /// `2.68`, as a reader of the number expects); returns `false` and appends nothing
    /// for NaN or an infinity.
    ///
    /// A result that rounds to zero is written `0.00`, never `-0.00`.
    package static func appendFixed2(_ value: Double, into buffer: inout [UInt8]) -> Bool {
        guard value.isFinite else { return false }
        // Decompose the shortest form "[-]digits[.digits][e[+-]digits]".
        var digits: [UInt8] = []
        digits.reserveCapacity(24)
        var pointPosition: Int? = nil
        var exponent = 0
        var exponentSign = 1
        var inExponent = false
        var negative = false
        for byte in value.description.utf8 {
            switch byte {
            case UInt8(ascii: "-"):
                if inExponent { exponentSign = -1 } else { negative = true }
            case UInt8(ascii: "+"):
                break
            case UInt8(ascii: "."):
                pointPosition = digits.count
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                inExponent = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inExponent {
                    exponent = exponent * 10 + Int(byte &- 0x30)
                } else {
                    digits.append(byte &- 0x30)
                }
            default:
                return false
            }
        }
        // value = 0.d1d2d3... × 10^integerDigits
        let integerDigits = (pointPosition ?? digits.count) + exponentSign * exponent
        // Keep the digits up to the hundredths; `kept` digits of the expansion survive.
        let kept = integerDigits + 2
        var result: [UInt8] = []
        if kept >= 0 {
            result.reserveCapacity(kept + 1)
            for index in 0..<kept {
                result.append(index < digits.count ? digits[index] : 0)
            }
            let roundDigit = kept < digits.count ? digits[kept] : 0
            if roundDigit >= 5 {
                var index = result.count - 1
                var carry = true
                while carry && index >= 0 {
                    if result[index] == 9 {
                        result[index] = 0
                        index -= 1
                    } else {
                        result[index] += 1
                        carry = false
                    }
                }
                if carry { result.insert(1, at: 0) }
            }
        }
        // Strip leading zeros but keep at least three digits ("0.01").
        var start = 0
        while start < result.count - 3 && result[start] == 0 { start += 1 }
        var isZero = true
        for digit in result[start...] where digit != 0 { isZero = false; break }
        if result.count < 3 {
            result.insert(contentsOf: repeatElement(UInt8(0), count: 3 - result.count), at: 0)
            start = 0
        }
        if negative && !isZero { buffer.append(UInt8(ascii: "-")) }
        let pointIndex = result.count - 2
        for index in start..<result.count {
            if index == pointIndex { buffer.append(UInt8(ascii: ".")) }
            buffer.append(result[index] &+ 0x30)
        }
        return true
    }

    /// Appends `hundredths / 100` with exactly two decimals.
    private static func appendHundredths(_ hundredths: UInt128, negative: Bool, into buffer: inout [UInt8]) {
        let (whole, fraction) = hundredths.quotientAndRemainder(dividingBy: 100)
        if negative && hundredths != 0 { buffer.append(UInt8(ascii: "-")) }
        if whole <= UInt128(UInt64.max) {
            appendUInt64(UInt64(whole), into: &buffer)
        } else {
            buffer.append(contentsOf: String(whole).utf8)
        }
        buffer.append(UInt8(ascii: "."))
        buffer.append(UInt8(truncatingIfNeeded: fraction / 10) &+ 0x30)
        buffer.append(UInt8(truncatingIfNeeded: fraction % 10) &+ 0x30)
    }
}
