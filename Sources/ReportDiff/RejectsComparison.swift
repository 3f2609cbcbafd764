/// Comparing two versions of `rejects.jsonl`, lines matched by file and line number.
package enum RejectsComparison {
    /// The rejects only in one version, and those whose reason or excerpt changed (values as
    /// written, strings quoted); nil when a line is not a JSON object, to be compared line by
    /// line instead.
    ///
    /// `renaming` maps inputs as `after` names them to the names `before` has for them
    /// (``renamedInputs(before:after:)``): their rejects are matched under `before`'s name.
    static func differences(before: [UInt8], after: [UInt8], renaming: [String: String] = [:])
        -> [ReportDifference]?
    {
        guard let old = rows(before), let new = rows(after, renaming: renaming) else { return nil }
        var fields: [String] = []
        for name in (old + new).flatMap(\.names) where !fields.contains(name) { fields.append(name) }
        return KeyedRows.differences(before: old.map(\.row), after: new.map(\.row), columns: fields) { cells in
            let file = WrittenJSON.text(cells["file"] ?? "").plain
            let line = cells["line"] ?? "null"
            return "reject of \(file)" + (line == "null" ? " (the whole file)" : ":\(line)")
        }
    }

    /// The inputs the rejects name (their `file`), each once, in order; `nil` when a line is
    /// not a JSON object.
    package static func inputs(_ bytes: [UInt8]) -> [String]? {
        guard let rows = rows(bytes) else { return nil }
        var seen: Set<String> = []
        return rows.compactMap { row in
            let name = WrittenJSON.text(row.row.cells["file"] ?? "").plain
            return seen.insert(name).inserted ? name : nil
        }
    }

    /// The inputs that `after` names by another path than `before` (a check run from another
    /// folder, or given `./logs/a.jsonl` for `logs/a.jsonl`): each path only `after` has, to the
    /// one path only `before` has with the same file name, when no other path only `after` has
    /// that name. Paths with quotes or escapes are left alone.
    package static func renamedInputs(before: [String], after: [String]) -> [String: String] {
        func fileName(_ path: String) -> Substring { path.split(separator: "/").last ?? Substring(path) }
        let onlyBefore = before.filter { !after.contains($0) && !$0.contains("\"") && !$0.contains("\\") }
        let onlyAfter = after.filter { !before.contains($0) }
        var renamed: [String: String] = [:]
        for path in onlyAfter {
            let matches = onlyBefore.filter { fileName($0) == fileName(path) }
            if matches.count == 1, onlyAfter.count(where: { fileName($0) == fileName(path) }) == 1 {
                renamed[path] = matches[0]
            }
        }
        return renamed
    }

    /// Each line's values by name, keyed by file and line, with the names in order.
    private static func rows(_ bytes: [UInt8], renaming: [String: String] = [:]) -> [(row: KeyedRow, names: [String])]?
    {
        var rows: [(row: KeyedRow, names: [String])] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let members = try? WrittenJSON.members(of: line) else { return nil }
            var cells: [String: String] = [:]
            for member in members where cells[member.key] == nil {
                switch member.value {
                case .text(let text): cells[member.key] = text
                case .object: cells[member.key] = "{…}"
                }
            }
            if let file = cells["file"], let name = renaming[WrittenJSON.text(file).plain] {
                cells["file"] = "\"" + name + "\""
            }
            rows.append(
                (KeyedRow(key: [cells["file"] ?? "", cells["line"] ?? "null"], cells: cells), members.map(\.key)))
        }
        return rows
    }
}
