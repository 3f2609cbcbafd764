import EventLog
import EventModel
import Testing

/// The prefixes of a partition's part lines (`LINE`, `LINE:TIME`, `LINE^`, `LINE!`), and what
/// is not one.
struct PartLineTests {
    private func parse(_ text: String) -> (line: Int, mark: PartLine.Mark, textStart: Int)? {
        Array(text.utf8).withUnsafeBytes { PartLine.parsePrefix($0) }
    }

    @Test func eachMarkIsRead() {
        #expect(parse("12\t{}")?.mark == .inOrder)
        #expect(parse("12:1763622300000\t{}")?.mark == .late(Timestamp(milliseconds: 1_763_622_300_000)))
        #expect(parse("12:-5\t{}")?.mark == .late(Timestamp(milliseconds: -5)))
        #expect(parse("12^\t{}")?.mark == .jump)
        #expect(parse("12!\t{}")?.mark == .tooLong)
        #expect(parse("12^\t{}")?.textStart == 4)
    }

    /// A place's time outside the times of records (years 0 to 9999) was not written by a
    /// partition: the line is not a part line.
    @Test func aPlaceOutsideTheTimesOfRecordsIsNotAPartLine() {
        #expect(parse("12:253402387199999\t{}") != nil)
        #expect(parse("12:253402387200000\t{}") == nil)
        #expect(parse("12:999999999999999999\t{}") == nil)
        #expect(parse("12:-62167305600001\t{}") == nil)
        #expect(parse("x\t{}") == nil)
    }
}
