/// UTC calendar arithmetic in integers (Howard Hinnant's `days_from_civil` and
/// `civil_from_days`), so that file names never depend on a locale or time zone database.
enum CivilTime {
    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day number (days since 1970-01-01).
    static func date(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SSZ` (or `YYYY-MM-DDTHH:MM:SS.sssZ`) into epoch milliseconds.
    static func parseUTC(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int64? {
            guard from + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[from..<(from + count)] {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            return value
        }
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes.last == UInt8(ascii: "Z") || bytes.last == UInt8(ascii: "z"),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var millis: Int64 = 0
        if bytes.count > 20 {
            guard bytes[19] == UInt8(ascii: "."), bytes.count <= 24, let fraction = number(20, bytes.count - 21) else {
                return nil
            }
            millis = fraction
            for _ in 0..<(3 - (bytes.count - 21)) { millis *= 10 }
        }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return seconds * 1000 + millis
    }

    /// `YYYYMMDDHH` of an epoch-milliseconds time (UTC, rounded down to the hour).
    static func hourStamp(_ milliseconds: Int64) -> String {
        let hours = milliseconds >= 0 ? milliseconds / 3_600_000 : (milliseconds - 3_599_999) / 3_600_000
        let dayNumber = hours >= 0 ? hours / 24 : (hours - 23) / 24
        let hour = hours - dayNumber * 24
        let (year, month, day) = date(days: dayNumber)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(year, 4) + pad(month, 2) + pad(day, 2) + pad(hour, 2)
    }
}
