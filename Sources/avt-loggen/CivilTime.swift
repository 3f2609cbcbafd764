import EventModel

/// UTC hour stamps for file names.
enum CivilTime {
    /// `YYYYMMDDHH` of an epoch-milliseconds time (UTC, rounded down to the hour).
    static func hourStamp(_ milliseconds: Int64) -> String {
        let hours = milliseconds >= 0 ? milliseconds / 3_600_000 : (milliseconds - 3_599_999) / 3_600_000
        let dayNumber = hours >= 0 ? hours / 24 : (hours - 23) / 24
        let hour = hours - dayNumber * 24
        let (year, month, day) = CivilDate.date(days: dayNumber)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(year, 4) + pad(month, 2) + pad(day, 2) + pad(hour, 2)
    }
}
