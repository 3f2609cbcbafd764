/// Comparing two versions of a CSV report row by row, rows matched by the file's key columns.
enum TableComparison {
    /// The differences between two versions of `file`: its columns, then its rows (over the
    /// columns both versions have). Nil when either version is not CSV with the key columns,
    /// to be compared line by line instead.
    static func differences(_ file: ReportFile, before: [UInt8], after: [UInt8]) -> [ReportDifference]? {
        guard let old = try? CSVTable.rows(before), let new = try? CSVTable.rows(after) else { return nil }
        let oldColumns = old.first ?? []
        let newColumns = new.first ?? []
        let keys = file.keyColumns
        guard keys.allSatisfy({ oldColumns.contains($0) && newColumns.contains($0) }) else { return nil }
        var differences: [ReportDifference] = []
        for column in oldColumns where !newColumns.contains(column) {
            differences.append(ReportDifference(subject: "column \(column)", change: .missing))
        }
        for column in newColumns where !oldColumns.contains(column) {
            differences.append(ReportDifference(subject: "column \(column)", change: .new))
        }
        let shared = oldColumns.filter(newColumns.contains)
        differences += KeyedRows.differences(
            before: keyedRows(old, keys: keys), after: keyedRows(new, keys: keys), columns: shared,
            subject: file.subject(of:))
        return differences
    }

    private static func keyedRows(_ rows: [[String]], keys: [String]) -> [KeyedRow] {
        guard let header = rows.first else { return [] }
        return rows.dropFirst().map { cells in
            var byName: [String: String] = [:]
            for (name, value) in zip(header, cells) where byName[name] == nil { byName[name] = value }
            return KeyedRow(key: keys.map { byName[$0] ?? "" }, cells: byName)
        }
    }
}
