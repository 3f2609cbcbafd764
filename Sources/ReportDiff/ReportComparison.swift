/// What differs between two report sets, file by file, in words a developer can act on.
///
/// Every report file present in either set is compared (``ReportFile``); a file in only one
/// set is a difference. Files whose bytes are the same are not read further. Otherwise:
/// - CSV reports: rows matched by their key columns (`keyColumns`), then
///   compared cell by cell: `playback P of instrument I: start_time_ms 1100 → 1250`, `new
///   playback ...`, `missing playback ...`; columns added or removed;
/// - `events.jsonl`: events matched by instrument and tracker and their place in that
///   sequence, then compared by attribute, metric and field;
/// - `rejects.jsonl`: rejects matched by file and line;
/// - `metrics.influx`, `metrics.graphite`: the lines removed and added;
/// - `report.html`: the values it marks as data (`PageComparison`); its layout is not compared.
///
/// When nothing is found in this way but the bytes differ (rows in another order, values
/// written differently), the first line that differs is the difference.
///
/// ```swift
/// let comparison = ReportComparison(before: try ReportFiles(folder: "reports"), after: try ReportFiles(folder: "new"))
/// if !comparison.isEmpty { print(comparison.text(maxDifferencesPerFile: 5)) }
/// ```
package struct ReportComparison: Sendable {
    /// The files compared (present in either set), in ``ReportFile`` order.
    package let comparedFiles: [String]
    /// The files that differ, in the same order, each with its differences.
    package let files: [FileDifferences]

    /// Compares two report sets: `before` (the expected one) with `after`. `renamedInputs`
    /// maps inputs as `after`'s rejects name them to `before`'s names for them
    /// (``RejectsComparison/renamedInputs(before:after:)``).
    package init(before: ReportFiles, after: ReportFiles, renamedInputs: [String: String] = [:]) {
        var compared: [String] = []
        var files: [FileDifferences] = []
        for file in ReportFile.allCases {
            let old = before[file]
            let new = after[file]
            guard old != nil || new != nil else { continue }
            compared.append(file.name)
            let differences: [ReportDifference]
            if let old, let new {
                guard old != new else { continue }
                differences = Self.differences(file, before: old, after: new, renamedInputs: renamedInputs)
                // A page whose data is the same differs only in layout.
                if differences.isEmpty { continue }
            } else {
                differences = [ReportDifference(subject: "file", change: old == nil ? .new : .missing)]
            }
            files.append(FileDifferences(file: file.name, differences: differences))
        }
        comparedFiles = compared
        self.files = files
    }

    /// Whether the two sets are the same.
    package var isEmpty: Bool { files.isEmpty }

    /// How many differences there are in all.
    package var differenceCount: Int { files.reduce(0) { $0 + $1.differences.count } }

    private static func differences(
        _ file: ReportFile, before: [UInt8], after: [UInt8], renamedInputs: [String: String]
    ) -> [ReportDifference] {
        let found: [ReportDifference]?
        switch file.layout {
        case .table: found = TableComparison.differences(file, before: before, after: after)
        case .rejects: found = RejectsComparison.differences(before: before, after: after, renaming: renamedInputs)
        case .trace: found = TraceComparison.differences(before: before, after: after)
        case .lines: found = nil
        case .page: return PageComparison.differences(before: before, after: after)
        }
        // Rejects the same once their inputs' other names are matched are the same.
        if file.layout == .rejects, !renamedInputs.isEmpty, found?.isEmpty == true { return [] }
        let differences = found ?? LineComparison.differences(before: before, after: after)
        return differences.isEmpty ? [firstDifferentLine(before, after)] : differences
    }

    /// The first line that differs, for bytes that differ while their rows do not.
    private static func firstDifferentLine(_ before: [UInt8], _ after: [UInt8]) -> ReportDifference {
        let old = LineComparison.lines(before)
        let new = LineComparison.lines(after)
        var index = 0
        while index < old.count && index < new.count && old[index] == new[index] { index += 1 }
        let change = ReportDifference.Change.rewritten(
            line: index + 1, before: index < old.count ? LineComparison.text(old[index]) : nil,
            after: index < new.count ? LineComparison.text(new[index]) : nil)
        return ReportDifference(subject: "the same rows, in another order or written differently", change: change)
    }
}
