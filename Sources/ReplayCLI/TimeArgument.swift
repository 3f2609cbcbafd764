import ArgumentParser
import EventLog
import EventModel
import ReplayApp
import ReportEncoding

/// A time on the command line: a date (`2025-11-20`, its midnight UTC), an RFC 3339 time
/// (`2025-11-20T07:00:00Z`), or epoch seconds or milliseconds, told apart by magnitude: a
/// number under 100,000,000,000 is seconds (up to the year 5138), a larger one milliseconds
/// (from 1973 on).
struct TimeArgument {
    var timestamp: Timestamp
    /// How an epoch number was read, when the other reading is plausible too: a number of
    /// seconds after 2100, or of milliseconds before 2000.
    var ambiguity: String?
    /// The value as given.
    var argument: String

    /// The largest number read as seconds.
    static let largestSeconds: Int64 = 99_999_999_999

    private init?(reading argument: String) {
        self.argument = argument
        if let number = Int64(argument) {
            let isSeconds = number.magnitude <= Self.largestSeconds.magnitude
            let milliseconds = isSeconds ? number * 1_000 : number
            timestamp = Timestamp(milliseconds: milliseconds)
            let year2000: Int64 = 946_684_800_000
            let year2100: Int64 = 4_102_444_800_000
            if isSeconds ? milliseconds >= year2100 : milliseconds < year2000 {
                ambiguity =
                    "\(argument) is read as epoch \(isSeconds ? "seconds" : "milliseconds") "
                    + "(\(SummaryReport.rfc3339(timestamp))); give an RFC 3339 time to be sure"
            }
        } else if argument.utf8.count == 10, let milliseconds = try? RFC3339.milliseconds(argument + "T00:00:00Z").get()
        {
            timestamp = Timestamp(milliseconds: milliseconds)
        } else if let milliseconds = try? RFC3339.milliseconds(argument).get() {
            timestamp = Timestamp(milliseconds: milliseconds)
        } else {
            return nil
        }
    }
}

extension TimeArgument {
    /// `argument` as a time (the options' `transform`); the error says what is expected.
    init(parsing argument: String) throws(ValidationError) {
        guard let time = TimeArgument(reading: argument) else {
            throw ValidationError(
                "a time is a date (2025-11-20, midnight UTC), an RFC 3339 time (2025-11-20T07:00:00Z) "
                    + "or epoch seconds or milliseconds")
        }
        self = time
    }
}
