extension ReportComparison {
    /// The differences as text, file by file: a line per file with its count
    /// (``FileDifferences/summary``), the first `maxDifferencesPerFile` differences in full,
    /// indented, then how many more the file has.
    ///
    /// ```
    /// playbacks.csv: 1 difference
    ///   playback ios-7f3a9c:1763622300000:p1 of instrument ios-7f3a9c: start_time_ms 16150 → 16250
    /// events.jsonl: 7 differences
    ///   event 5 (Start at 1763622316150) of instrument ios-7f3a9c, tracker 0: metric StartTime 16150 → 16250
    ///   ...
    ///   ... and 2 more differences in events.jsonl
    /// ```
    package func text(maxDifferencesPerFile: Int) -> String {
        var lines: [String] = []
        for file in files {
            lines.append("\(file.file): \(file.summary)")
            for difference in file.differences.prefix(max(0, maxDifferencesPerFile)) {
                lines.append("  \(difference)")
            }
            let rest = file.differences.count - max(0, maxDifferencesPerFile)
            if rest > 0 {
                lines.append("  ... and \(rest) more \(rest == 1 ? "difference" : "differences") in \(file.file)")
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }
}
