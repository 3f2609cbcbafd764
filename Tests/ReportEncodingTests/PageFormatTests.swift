import Testing

@testable import ReportEncoding

/// report.html's numbers for people: one rule per kind of figure (docs/reports.md, "Units and formats").
struct PageFormatTests {
    @Test(arguments: [
        (0 as Int64, "0"), (999, "999"), (1000, "1,000"), (40959, "40,959"), (1_234_567, "1,234,567"),
        (-1234, "-1,234"), (Int64.max, "9,223,372,036,854,775,807"), (Int64.min, "-9,223,372,036,854,775,808"),
    ])
    func countsAreThousandsSeparated(value: Int64, expected: String) {
        #expect(PageFormat.grouped(value) == expected)
    }

    @Test func ratesHaveTwoDecimalsRoundedHalfAwayFromZeroAndSeparators() {
        #expect(PageFormat.fixed2(1, over: 8) == "0.13")
        #expect(PageFormat.fixed2(-1, over: 8) == "-0.13")
        #expect(PageFormat.fixed2(123_456_789, over: 100) == "1,234,567.89")
        #expect(PageFormat.fixed2(5, over: 1000) == "0.01")
        #expect(PageFormat.fixed2(1, over: 0) == nil)
        #expect(PageFormat.seconds(40_959) == "40.96")
        #expect(PageFormat.seconds(850) == "0.85")
        #expect(PageFormat.seconds(1_234_500) == "1,234.50")
    }

    @Test(arguments: [
        (85_050 as Int128, "851 bit/s"), (99_949, "999 bit/s"), (99_950, "1 kbit/s"), (85_000_000, "850 kbit/s"),
        (99_949_999, "999 kbit/s"), (99_950_000, "1.00 Mbit/s"), (355_235_811, "3.55 Mbit/s"),
        (123_456_789_012, "1,234.57 Mbit/s"), (0, "0 bit/s"),
    ])
    func bitRatesAreInBitKilobitOrMegabitPerSecond(hundredths: Int128, expected: String) {
        #expect(PageFormat.bitrate(hundredths: hundredths) == expected)
    }

    @Test(arguments: [
        (0 as Int64, "0 ms"), (850, "850 ms"), (999, "999 ms"), (1000, "1 s"), (4_500, "4.5 s"), (4_549, "4.5 s"),
        (4_550, "4.6 s"), (9_949, "9.9 s"), (9_950, "10 s"), (45_000, "45 s"), (59_499, "59 s"), (59_500, "1 min"),
        (725_000, "12 min 5 s"), (720_000, "12 min"), (3_599_499, "59 min 59 s"), (3_599_500, "1 h"),
        (4_980_000, "1 h 23 min"), (43_200_000, "12 h"), (86_369_999, "23 h 59 min"), (86_370_000, "1 d"),
        (183_600_000, "2 d 3 h"), (259_200_000, "3 d"), (-850, "-850 ms"),
    ])
    func timesSpentAreDurationsAsPeopleSayThem(milliseconds: Int64, expected: String) {
        #expect(PageFormat.duration(milliseconds) == expected)
    }

    @Test func optionsAreShownAsACommandLineGivesThem() {
        #expect(PageFormat.option("idle-gap=43200000") == "idle-gap=12h")
        #expect(PageFormat.option("bucket=300000") == "bucket=5m")
        #expect(PageFormat.option("max-lateness=5400000") == "max-lateness=1h30m")
        #expect(PageFormat.option("idle-gap=172800000") == "idle-gap=2d")
        #expect(PageFormat.option("max-lateness=1500") == "max-lateness=1s500ms")
        #expect(PageFormat.option("since=1763596800000") == "since=2025-11-20T00:00:00Z")
        #expect(PageFormat.option("until=1763596800001") == "until=1763596800001")
        #expect(PageFormat.option("since=") == "since=")
        #expect(PageFormat.option("hub=ads") == "hub=ads")
        #expect(PageFormat.option("prefix=1000") == "prefix=1000")
    }
}
