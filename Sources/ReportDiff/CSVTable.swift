/// Reading CSV (RFC 4180) back into rows of cells, as ``ReportEncoding``'s encoder writes it.
enum CSVTable {
    struct ParseError: Error {
        var line: Int
    }

    /// The rows of `bytes`, each a list of cells, unquoted. Rows end with LF or CRLF; a last
    /// row without one counts too. A quoted cell may hold commas, doubled quotes and line breaks.
    ///
    /// - Throws: ``ParseError`` for a quote that is never closed, or text after a closing quote.
    static func rows(_ bytes: [UInt8]) throws(ParseError) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var cell: [UInt8] = []
        var index = 0
        var line = 1
        var isQuoted = false
        var cellStarted = false
        func endCell() {
            row.append(String(decoding: cell, as: UTF8.self))
            cell.removeAll(keepingCapacity: true)
            cellStarted = false
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if isQuoted {
                if byte == quote {
                    if index < bytes.count && bytes[index] == quote {
                        cell.append(quote)
                        index += 1
                    } else {
                        isQuoted = false
                        if index < bytes.count && ![comma, lineFeed, carriageReturn].contains(bytes[index]) {
                            throw ParseError(line: line)
                        }
                    }
                } else {
                    if byte == lineFeed { line += 1 }
                    cell.append(byte)
                }
                continue
            }
            switch byte {
            case comma:
                endCell()
                cellStarted = true
            case lineFeed:
                endCell()
                rows.append(row)
                row = []
                line += 1
            case carriageReturn where index < bytes.count && bytes[index] == lineFeed:
                break
            case quote where cell.isEmpty:
                isQuoted = true
                cellStarted = true
            default:
                cell.append(byte)
                cellStarted = true
            }
        }
        if isQuoted { throw ParseError(line: line) }
        if cellStarted || !cell.isEmpty || !row.isEmpty {
            endCell()
            rows.append(row)
        }
        return rows
    }

    private static let comma = UInt8(ascii: ",")
    private static let quote = UInt8(ascii: "\"")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
}
