/// Comparing two versions of `rejects.jsonl`, lines matched by file and line number.
enum RejectsComparison {
    /// The rejects only in one version, and those whose reason or excerpt changed (values as
    /// written, strings quoted); nil when a line is not a JSON object, to be compared line by
    /// line instead.
    static func differences(before: [UInt8], after: [UInt8]) -> [ReportDifference]? {
        guard let old = rows(before), let new = rows(after) else { return nil }
        var fields: [String] = []
        for name in (old + new).flatMap(\.names) where !fields.contains(name) { fields.append(name) }
        return KeyedRows.differences(before: old.map(\.row), after: new.map(\.row), columns: fields) { cells in
            let file = JSONText.text(cells["file"] ?? "").plain
            let line = cells["line"] ?? "null"
            return "reject of \(file)" + (line == "null" ? " (the whole file)" : ":\(line)")
        }
    }

    /// Each line's values by name, keyed by file and line, with the names in order.
    private static func rows(_ bytes: [UInt8]) -> [(row: KeyedRow, names: [String])]? {
        var rows: [(row: KeyedRow, names: [String])] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let members = try? JSONText.members(of: line) else { return nil }
            var cells: [String: String] = [:]
            for member in members where cells[member.key] == nil {
                switch member.value {
                case .text(let text): cells[member.key] = text
                case .object: cells[member.key] = "{…}"
                }
            }
            rows.append(
                (KeyedRow(key: [cells["file"] ?? "", cells["line"] ?? "null"], cells: cells), members.map(\.key)))
        }
        return rows
    }
}
