/// Comparing two versions of a file line by line, as multisets: the metric files, and any
/// file that cannot be read as its kind.
enum LineComparison {
    /// The lines only in `before` (missing, in its order), then those only in `after` (new, in
    /// its order); a line that occurs more often on one side counts that many times.
    static func differences(before: [UInt8], after: [UInt8]) -> [ReportDifference] {
        let old = lines(before)
        let new = lines(after)
        var differences: [ReportDifference] = []
        var available = counts(new)
        for line in old {
            if let count = available[line], count > 0 {
                available[line] = count - 1
            } else {
                differences.append(ReportDifference(subject: "line: \(text(line))", change: .missing))
            }
        }
        available = counts(old)
        for line in new {
            if let count = available[line], count > 0 {
                available[line] = count - 1
            } else {
                differences.append(ReportDifference(subject: "line: \(text(line))", change: .new))
            }
        }
        return differences
    }

    /// The lines of `bytes`, without their line feeds (and no empty last line after the last one).
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        Array(
            bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                .dropLast(bytes.last == UInt8(ascii: "\n") ? 1 : 0))
    }

    static func text(_ line: ArraySlice<UInt8>) -> String {
        String(decoding: line, as: UTF8.self)
    }

    private static func counts(_ lines: [ArraySlice<UInt8>]) -> [ArraySlice<UInt8>: Int] {
        var counts: [ArraySlice<UInt8>: Int] = [:]
        for line in lines { counts[line, default: 0] += 1 }
        return counts
    }
}
