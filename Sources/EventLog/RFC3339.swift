import EventModel

/// A parser for RFC 3339 date-times (`2025-11-20T07:15:02.125Z`), to milliseconds since the epoch.
///
/// Accepted: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of one or more digits (truncated to
/// milliseconds), then `Z` or an offset `+HH:MM`/`-HH:MM`; `T` and `Z` may be lowercase.
/// Dates are checked against the Gregorian calendar (`2025-02-29` is rejected). Leap
/// seconds (`:60`) are not supported and rejected. A space instead of `T`, a missing
/// offset and other ISO 8601 forms are rejected. Written by hand: no Foundation, no locale.
public enum RFC3339 {
    /// Why a string is not an RFC 3339 date-time.
    public enum ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The text does not have the shape of an RFC 3339 date-time.
        case syntax
        /// The month is not 01 to 12.
        case month(Int)
        /// The day does not exist in that month of that year.
        case day(Int, month: Int, year: Int)
        /// The hour is not 00 to 23.
        case hour(Int)
        /// The minute is not 00 to 59.
        case minute(Int)
        /// The second is 60: leap seconds are not supported.
        case leapSecond
        /// The second is over 60.
        case second(Int)
        /// The offset's hours are over 23 or its minutes over 59.
        case offset

        /// The problem in words, e.g. `day 30 does not exist in 2025-02`.
        public var description: String {
            switch self {
            case .syntax:
                return "expected YYYY-MM-DDTHH:MM:SS, an optional fraction, then Z or an offset like +02:00"
            case .month(let month):
                return "month \(twoDigits(month)) does not exist"
            case .day(let day, let month, let year):
                return "day \(twoDigits(day)) does not exist in \(fourDigits(year))-\(twoDigits(month))"
            case .hour(let hour):
                return "hour \(twoDigits(hour)) does not exist"
            case .minute(let minute):
                return "minute \(twoDigits(minute)) does not exist"
            case .leapSecond:
                return "leap seconds (second 60) are not supported"
            case .second(let second):
                return "second \(twoDigits(second)) does not exist"
            case .offset:
                return "the offset must be from -23:59 to +23:59"
            }
        }
    }

    /// Parses UTF-8 text to milliseconds since 1970-01-01T00:00:00Z.
    public static func milliseconds(_ text: String) -> Result<Int64, ParseError> {
        var text = text
        return text.withUTF8 { milliseconds(UnsafeRawBufferPointer($0)) }
    }

    /// Parses UTF-8 bytes to milliseconds since 1970-01-01T00:00:00Z.
    public static func milliseconds(_ bytes: UnsafeRawBufferPointer) -> Result<Int64, ParseError> {
        let count = bytes.count
        // The shortest form is "YYYY-MM-DDTHH:MM:SSZ".
        guard count >= 20,
            let year = number(bytes, 0, 4), bytes[4] == UInt8(ascii: "-"),
            let month = number(bytes, 5, 2), bytes[7] == UInt8(ascii: "-"),
            let day = number(bytes, 8, 2), bytes[10] | 0x20 == UInt8(ascii: "t"),
            let hour = number(bytes, 11, 2), bytes[13] == UInt8(ascii: ":"),
            let minute = number(bytes, 14, 2), bytes[16] == UInt8(ascii: ":"),
            let second = number(bytes, 17, 2)
        else {
            return .failure(.syntax)
        }
        var index = 19
        var millisecond = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < count, let value = digit(bytes[index]) {
                if index - fractionStart < 3 {
                    millisecond = millisecond * 10 + value
                }
                index += 1
            }
            let digits = index - fractionStart
            guard digits > 0 else { return .failure(.syntax) }
            for _ in digits..<max(digits, 3) {
                millisecond *= 10
            }
        }
        guard index < count else { return .failure(.syntax) }
        var offsetMinutes = 0
        let designator = bytes[index]
        if designator | 0x20 == UInt8(ascii: "z") {
            index += 1
        } else if designator == UInt8(ascii: "+") || designator == UInt8(ascii: "-") {
            guard count - index >= 6,
                let offsetHour = number(bytes, index + 1, 2), bytes[index + 3] == UInt8(ascii: ":"),
                let offsetMinute = number(bytes, index + 4, 2)
            else {
                return .failure(.syntax)
            }
            guard offsetHour <= 23, offsetMinute <= 59 else { return .failure(.offset) }
            offsetMinutes = offsetHour * 60 + offsetMinute
            if designator == UInt8(ascii: "-") {
                offsetMinutes = -offsetMinutes
            }
            index += 6
        } else {
            return .failure(.syntax)
        }
        guard index == count else { return .failure(.syntax) }

        guard (1...12).contains(month) else { return .failure(.month(month)) }
        guard day >= 1, day <= CivilDate.daysInMonth(Int64(month), year: Int64(year)) else {
            return .failure(.day(day, month: month, year: year))
        }
        guard hour <= 23 else { return .failure(.hour(hour)) }
        guard minute <= 59 else { return .failure(.minute(minute)) }
        guard second <= 59 else { return .failure(second == 60 ? .leapSecond : .second(second)) }

        let days = CivilDate.days(year: Int64(year), month: Int64(month), day: Int64(day))
        let seconds = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        return .success(seconds * 1_000 + Int64(millisecond))
    }

    /// The value of a decimal digit.
    private static func digit(_ byte: UInt8) -> Int? {
        let value = Int(byte) &- 0x30
        return (0...9).contains(value) ? value : nil
    }

    /// The value of `length` decimal digits at `offset`, or nil if one is not a digit.
    private static func number(_ bytes: UnsafeRawBufferPointer, _ offset: Int, _ length: Int) -> Int? {
        var value = 0
        for index in offset..<(offset + length) {
            guard let digit = digit(bytes[index]) else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}

private func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
}

private func fourDigits(_ value: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, 4 - text.count)) + text
}
