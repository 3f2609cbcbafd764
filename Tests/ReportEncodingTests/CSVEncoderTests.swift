import Testing

@testable import ReportEncoding

@Suite("CSV encoding")
struct CSVEncoderTests {
    private func row(_ build: (inout CSVEncoder, inout [UInt8]) -> Void) -> String {
        var csv = CSVEncoder()
        var bytes: [UInt8] = []
        build(&csv, &bytes)
        csv.endRow(into: &bytes)
        return text(bytes)
    }

    @Test func plainFieldsAreNotQuoted() {
        #expect(
            row { csv, b in
                csv.appendString("ios-7f3a9c", into: &b)
                csv.appendString("Episode 42", into: &b)
                csv.appendString("", into: &b)
            } == "ios-7f3a9c,Episode 42,\n")
    }

    /// OWASP's CSV injection: a text a spreadsheet would run gets a `'` before it; numbers
    /// and texts that only contain those characters later stay as they are.
    @Test(arguments: [
        ("=HYPERLINK(\"http://x.example\")", "\"'=HYPERLINK(\"\"http://x.example\"\")\""),
        ("=1+2", "'=1+2"),
        ("+1 555 0100", "'+1 555 0100"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tcmd", "'\tcmd"),
        ("\rcmd", "\"'\rcmd\""),
        ("=a,b", "\"'=a,b\""),
        ("-12", "-12"),
        ("+3.5", "+3.5"),
        ("-.5", "-.5"),
        ("-", "'-"),
        ("a=b", "a=b"),
        ("x-@+", "x-@+"),
        ("'=already", "'=already"),
    ])
    func formulasAreGuarded(input: String, expected: String) {
        #expect(row { csv, b in csv.appendString(input, into: &b) } == expected + "\n")
    }

    @Test(arguments: [
        ("a,b", "\"a,b\""),
        (",", "\",\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("\"", "\"\"\"\""),
        ("\"start", "\"\"\"start\""),
        ("end\"", "\"end\"\"\""),
        ("a\"\"b", "\"a\"\"\"\"b\""),
        ("line1\nline2", "\"line1\nline2\""),
        ("cr\r", "\"cr\r\""),
        ("\r\n", "\"'\r\n\""),
        ("tab\tok", "tab\tok"),
        (" padded ", " padded "),
        ("ünïcödé,", "\"ünïcödé,\""),
    ])
    func quoting(input: String, expected: String) {
        #expect(row { csv, b in csv.appendString(input, into: &b) } == expected + "\n")
        #expect(
            row { csv, b in
                csv.appendInt(1, into: &b)
                csv.appendString(input, into: &b)
                csv.appendInt(2, into: &b)
            } == "1," + expected + ",2\n")
    }

    @Test func integersBooleansAndEmptyCells() {
        #expect(
            row { csv, b in
                csv.appendInt(Int64.min, into: &b)
                csv.appendInt(Int64.max, into: &b)
                csv.appendInt(0, into: &b)
                csv.appendInt(-7, into: &b)
                csv.appendInt(nil as Int64?, into: &b)
                csv.appendInt(Int64(10) as Int64?, into: &b)
                csv.appendBool(true, into: &b)
                csv.appendBool(false, into: &b)
                csv.appendString(nil as String?, into: &b)
                csv.appendEmpty(into: &b)
            } == "-9223372036854775808,9223372036854775807,0,-7,,10,true,false,,\n")
    }

    @Test func integersOfEveryLengthAsSwiftWritesThem() {
        var values: [Int64] = [9, 10, 11, 99, 100, 101, 999, 1_000, 1_763_596_817_835_000_000]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 7, -power]
        }
        for value in values {
            #expect(row { csv, b in csv.appendInt(value, into: &b) } == "\(value)\n")
        }
    }

    @Test func headerAndRows() {
        var csv = CSVEncoder()
        var bytes: [UInt8] = []
        csv.appendHeader(["bucket", "views", "rebuffer_pct"], into: &bytes)
        #expect(csv.isAtRowStart)
        csv.appendString("all", into: &bytes)
        csv.appendInt(3, into: &bytes)
        #expect(!csv.isAtRowStart)
        csv.appendPercentage(1, of: 3, into: &bytes)
        csv.endRow(into: &bytes)
        #expect(text(bytes) == "bucket,views,rebuffer_pct\nall,3,33.33\n")
    }

    @Test(arguments: [
        (Int64(1), Int64(3), "33.33"),
        (2, 3, "66.67"),
        (1, 8, "12.50"),
        (1, 16, "6.25"),
        (1, 1600, "0.06"),  // 0.0625 → 0.06
        (1, 800, "0.13"),  // 0.125 → 0.13, half away from zero
        (1, 80_000, "0.00"),  // 0.00125
        (1, 40_000, "0.00"),  // 0.0025 → 0.00
        (1, 20_000, "0.01"),  // 0.005 → 0.01
        (-1, 800, "-0.13"),
        (-1, 80_000, "0.00"),  // never -0.00
        (0, 5, "0.00"),
        (5, 5, "100.00"),
        (7, 2, "350.00"),
        (Int64.max, 1, "922337203685477580700.00"),
        (Int64.min, 1, "-922337203685477580800.00"),
        (Int64.max, Int64.max, "100.00"),
    ])
    func percentages(part: Int64, whole: Int64, expected: String) {
        #expect(row { csv, b in csv.appendPercentage(part, of: whole, into: &b) } == expected + "\n")
    }

    @Test func undefinedPercentageIsEmpty() {
        #expect(
            row { csv, b in
                csv.appendInt(0, into: &b)
                csv.appendPercentage(3, of: 0, into: &b)
                csv.appendRatio(3, multiplier: 60_000, over: 0, into: &b)
                csv.appendFixed2(nil, into: &b)
                csv.appendFixed2(.nan, into: &b)
                csv.appendFixed2(.infinity, into: &b)
            } == "0,,,,,\n")
    }

    @Test func ratios() {
        // 3 rebuffers in 90 s of watch time: 2 per minute.
        #expect(row { csv, b in csv.appendRatio(3, multiplier: 60_000, over: 90_000, into: &b) } == "2.00\n")
        #expect(row { csv, b in csv.appendRatio(1, multiplier: 60_000, over: 7_000, into: &b) } == "8.57\n")
        #expect(row { csv, b in csv.appendRatio(5, over: 2, into: &b) } == "2.50\n")
        #expect(row { csv, b in csv.appendRatio(5, over: -2, into: &b) } == "-2.50\n")
    }

    @Test(arguments: [
        (1.005, "1.01"),
        (2.675, "2.68"),
        (12.345, "12.35"),
        (0.125, "0.13"),
        (-0.125, "-0.13"),
        (-0.001, "0.00"),
        (-0.0, "0.00"),
        (0.0, "0.00"),
        (0.005, "0.01"),
        (0.0049999, "0.00"),
        (0.995, "1.00"),
        (9.999, "10.00"),
        (99.995, "100.00"),
        (1e-05, "0.00"),
        (5e-3, "0.01"),
        (100.0, "100.00"),
        (33.333333333333336, "33.33"),
        (1e21, "1000000000000000000000.00"),
        (1.5e16, "15000000000000000.00"),
        (123456.789, "123456.79"),
    ])
    func fixedTwoDecimals(value: Double, expected: String) {
        #expect(row { csv, b in csv.appendFixed2(value, into: &b) } == expected + "\n")
    }
}
