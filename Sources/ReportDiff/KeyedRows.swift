/// Rows matched by their key, as the CSV reports and `rejects.jsonl` are compared.
struct KeyedRow {
    /// The values that identify the row.
    var key: [String]
    /// Every value of the row by name, as written.
    var cells: [String: String]
}

enum KeyedRows {
    /// The rows only in `before` (missing), only in `after` (new), and in both with other
    /// values in `columns`: first the missing and changed ones in the order of `before`, then
    /// the new ones in the order of `after`. A key that repeats is told apart by its
    /// occurrence (the second row with the same key matches the second one).
    static func differences(
        before: [KeyedRow], after: [KeyedRow], columns: [String], subject: ([String: String]) -> String
    ) -> [ReportDifference] {
        let beforeKeys = occurrenceKeys(before)
        let afterKeys = occurrenceKeys(after)
        var afterIndex: [[String]: Int] = [:]
        for (index, key) in afterKeys.enumerated() { afterIndex[key] = index }
        func describe(_ row: KeyedRow, _ key: [String]) -> String {
            let occurrence = key.last.flatMap { Int($0) } ?? 1
            return subject(row.cells) + (occurrence > 1 ? " (occurrence \(occurrence))" : "")
        }
        var differences: [ReportDifference] = []
        var matched = Set<Int>()
        for (row, key) in zip(before, beforeKeys) {
            guard let index = afterIndex[key] else {
                differences.append(ReportDifference(subject: describe(row, key), change: .missing))
                continue
            }
            matched.insert(index)
            let other = after[index]
            let changes = columns.compactMap { column -> ValueChange? in
                let old = row.cells[column]
                let new = other.cells[column]
                return old == new ? nil : ValueChange(name: column, before: old, after: new)
            }
            if !changes.isEmpty {
                differences.append(ReportDifference(subject: describe(row, key), change: .changed(changes)))
            }
        }
        for (index, (row, key)) in zip(after, afterKeys).enumerated() where !matched.contains(index) {
            differences.append(ReportDifference(subject: describe(row, key), change: .new))
        }
        return differences
    }

    /// Each row's key followed by its occurrence among the rows with that key (from 1).
    private static func occurrenceKeys(_ rows: [KeyedRow]) -> [[String]] {
        var seen: [[String]: Int] = [:]
        return rows.map { row in
            let occurrence = (seen[row.key] ?? 0) + 1
            seen[row.key] = occurrence
            return row.key + [String(occurrence)]
        }
    }
}
