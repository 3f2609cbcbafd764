/// The differences found in one report file.
package struct FileDifferences: Sendable, Hashable {
    /// The file's name, `playbacks.csv` for example.
    package var file: String
    /// Every difference, in the order of the file.
    package var differences: [ReportDifference]

    package init(file: String, differences: [ReportDifference]) {
        self.file = file
        self.differences = differences
    }

    /// `3 differences`; for the metric files `2 lines removed, 1 added`.
    package var summary: String {
        if ReportFile(name: file)?.layout == .lines,
            differences.allSatisfy({ $0.change == .new || $0.change == .missing })
        {
            let removed = differences.count { $0.change == .missing }
            return "\(count(removed, "line")) removed, \(differences.count - removed) added"
        }
        return count(differences.count, "difference")
    }
}

func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
}
