import EventLog
import Testing

@Suite struct RFC3339Tests {
    @Test(arguments: [
        ("2025-11-20T07:15:02.125Z", Int64(1_763_622_902_125)),
        ("2025-11-20t07:15:02.125z", 1_763_622_902_125),
        ("2025-11-20T09:15:02.125+02:00", 1_763_622_902_125),
        ("2025-11-20T01:45:02.125-05:30", 1_763_622_902_125),
        ("2025-11-20T07:15:02.125-00:00", 1_763_622_902_125),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59.999Z", -1),
        ("2024-02-29T00:00:00Z", 1_709_164_800_000),
        ("2000-02-29T12:00:00Z", 951_825_600_000),
        ("0000-01-01T00:00:00Z", -62_167_219_200_000),
        ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
    ])
    func validTimes(text: String, milliseconds: Int64) {
        #expect(RFC3339.milliseconds(text) == .success(milliseconds))
    }

    @Test func fractionsOfAnyLengthAreTruncatedToMilliseconds() {
        let base: Int64 = 1_763_622_902_000
        let cases: [(String, Int64)] = [
            ("", 0), (".1", 100), (".12", 120), (".125", 125), (".1259", 125), (".12599", 125),
            (".125999", 125), (".1259999", 125), (".12599999", 125), (".125999999", 125),
            (".9999999999999999999999", 999), (".000", 0), (".007", 7),
        ]
        for (fraction, milliseconds) in cases {
            #expect(
                RFC3339.milliseconds("2025-11-20T07:15:02\(fraction)Z") == .success(base + milliseconds), "\(fraction)")
        }
    }

    @Test func fractionsBeforeTheEpochCountForward() {
        // 1969-12-31T23:59:58.5Z is 1.5 s before the epoch.
        #expect(RFC3339.milliseconds("1969-12-31T23:59:58.5Z") == .success(-1_500))
    }

    @Test(arguments: [
        ("2025-02-29T00:00:00Z", RFC3339.ParseError.day(29, month: 2, year: 2025)),
        ("1900-02-29T00:00:00Z", .day(29, month: 2, year: 1900)),
        ("2025-02-30T00:00:00Z", .day(30, month: 2, year: 2025)),
        ("2025-04-31T00:00:00Z", .day(31, month: 4, year: 2025)),
        ("2025-01-00T00:00:00Z", .day(0, month: 1, year: 2025)),
        ("2025-13-01T00:00:00Z", .month(13)),
        ("2025-00-01T00:00:00Z", .month(0)),
        ("2025-01-01T24:00:00Z", .hour(24)),
        ("2025-01-01T23:60:00Z", .minute(60)),
        ("2025-01-01T23:59:60Z", .leapSecond),
        ("2025-01-01T23:59:61Z", .second(61)),
        ("2025-01-01T00:00:00+24:00", .offset),
        ("2025-01-01T00:00:00+01:60", .offset),
    ])
    func invalidDates(text: String, error: RFC3339.ParseError) {
        #expect(RFC3339.milliseconds(text) == .failure(error))
    }

    @Test(arguments: [
        "", "2025-11-20", "2025-11-20T07:15:02", "2025-11-20 07:15:02Z", "2025-11-20T07:15:02.Z",
        "2025-11-20T07:15Z", "2025-11-20T07:15:02ZZ", "2025-11-20T07:15:02+0200", "2025-11-20T07:15:02+02",
        "25-11-20T07:15:02Z", "2025/11/20T07:15:02Z", "+2025-11-20T07:15:02Z", "2025-11-20T07:15:02.1x5Z",
        " 2025-11-20T07:15:02Z", "2025-11-20T07:15:02Z ", "2025-1a-20T07:15:02Z", "2025-11-20X07:15:02Z",
    ])
    func malformedText(text: String) {
        #expect(RFC3339.milliseconds(text) == .failure(.syntax))
    }

    @Test func errorsDescribeTheProblem() {
        #expect(RFC3339.ParseError.day(30, month: 2, year: 2025).description == "day 30 does not exist in 2025-02")
        #expect(RFC3339.ParseError.leapSecond.description == "leap seconds (second 60) are not supported")
    }

    @Test func everyDayOfFourCenturiesMatchesACountedCalendar() {
        // Walk day by day from 1900-01-01 and compare with the parser's arithmetic.
        var days: Int64 = -25_567  // 1900-01-01 is 25567 days before 1970-01-01.
        for year in 1900..<2300 {
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            for (monthIndex, length) in lengths.enumerated() {
                for day in [1, length] {
                    let text =
                        "\(year)-\(monthIndex < 9 ? "0" : "")\(monthIndex + 1)-\(day < 10 ? "0" : "")\(day)T00:00:00Z"
                    let expected = (days + Int64(day - 1)) * 86_400_000
                    #expect(RFC3339.milliseconds(text) == .success(expected), "\(text)")
                }
                days += Int64(length)
            }
        }
    }
}
