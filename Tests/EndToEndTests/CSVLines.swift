import Foundation

/// Reads the CSV reports back in tests: cells of a line, and rows by column name.
enum CSVLines {
    /// The cells of one CSV line, unquoted (the reports' cells hold no line breaks).
    static func cells(_ line: Substring) -> [String] {
        var cells: [String] = []
        var cell = ""
        var isQuoted = false
        var previous: Character?
        for character in line {
            switch character {
            case "\"" where isQuoted:
                isQuoted = false
            case "\"":
                if previous == "\"" { cell.append("\"") }
                isQuoted = true
            case "," where !isQuoted:
                cells.append(cell)
                cell = ""
            default:
                cell.append(character)
            }
            previous = character
        }
        cells.append(cell)
        return cells
    }

    /// The rows of a CSV file, each by column name.
    static func rows(of file: URL) throws -> [[String: String]] {
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        guard let header = lines.first.map(cells) else { return [] }
        return lines.dropFirst().map { line in
            Dictionary(uniqueKeysWithValues: zip(header, cells(line)))
        }
    }
}
