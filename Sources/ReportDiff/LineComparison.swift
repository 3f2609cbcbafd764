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
                differences.append(ReportDifference(subject: "line: \(line)", change: .missing))
            }
        }
        available = counts(old)
        for line in new {
            if let count = available[line], count > 0 {
                available[line] = count - 1
            } else {
                differences.append(ReportDifference(subject: "line: \(line)", change: .new))
            }
        }
        return differences
    }

    static func lines(_ bytes: [UInt8]) -> [Substring] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast(bytes.last == UInt8(ascii: "\n") ? 1 : 0)
    }

    private static func counts(_ lines: [Substring]) -> [Substring: Int] {
        var counts: [Substring: Int] = [:]
        for line in lines { counts[line, default: 0] += 1 }
        return counts
    }
}
