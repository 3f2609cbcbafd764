import ReportDiff
import ReportEncoding

/// `check --junit FILE`: the outcome of a check as JUnit XML, which CI systems read: one test
/// suite, a test case per report file compared (a `failure` with the file's differences when
/// it differs), or one test case in error when the replay itself failed. No times, so the same
/// check writes the same bytes.
package enum JUnitReport {
    /// A check that compared the reports.
    package static func comparison(_ comparison: ReportComparison, expect: String) -> [UInt8] {
        let failed = Dictionary(uniqueKeysWithValues: comparison.files.map { ($0.file, $0) })
        var cases = ""
        for file in comparison.comparedFiles {
            cases += "    <testcase classname=\"avt-replay.check\" name=\"\(escaped(file))\""
            guard let differences = failed[file] else {
                cases += "/>\n"
                continue
            }
            let details = differences.differences.map(\.description).joined(separator: "\n")
            cases += ">\n      <failure message=\"\(escaped(differences.summary))\">\(escaped(details))</failure>\n"
            cases += "    </testcase>\n"
        }
        return document(
            expect: expect, tests: comparison.comparedFiles.count, failures: comparison.files.count, errors: 0,
            cases: cases)
    }

    /// A check that compared nothing: its replay failed, or could not run.
    package static func failedReplay(expect: String, reason: String) -> [UInt8] {
        let cases =
            "    <testcase classname=\"avt-replay.check\" name=\"replay\">\n"
            + "      <error message=\"\(escaped(reason))\"/>\n"
            + "    </testcase>\n"
        return document(expect: expect, tests: 1, failures: 0, errors: 1, cases: cases)
    }

    private static func document(expect: String, tests: Int, failures: Int, errors: Int, cases: String) -> [UInt8] {
        let counts = "tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\""
        let text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"avt-replay check\" \(counts)>\n"
            + "  <testsuite name=\"avt-replay check against \(escaped(expect))\" \(counts)>\n"
            + cases
            + "  </testsuite>\n</testsuites>\n"
        return Array(text.utf8)
    }

    /// Text for XML content and attribute values (``MarkupText/appendEscaped(_:into:)``).
    private static func escaped(_ text: String) -> String {
        var bytes: [UInt8] = []
        MarkupText.appendEscaped(text, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
