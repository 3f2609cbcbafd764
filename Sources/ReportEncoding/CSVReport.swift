/// A CSV report: a header, then one row per value, so that rows can be written as they come.
public protocol CSVReport {
    /// What one row describes.
    associatedtype Row
    /// The header, in column order.
    static var columns: [String] { get }
    /// Appends one row's cells (the caller ends the row).
    static func appendCells(of row: Row, to csv: inout CSVEncoder, into buffer: inout [UInt8])
}

extension CSVReport {
    /// The header line.
    public static func header() -> [UInt8] {
        var buffer: [UInt8] = []
        var csv = CSVEncoder()
        csv.appendHeader(columns, into: &buffer)
        return buffer
    }

    /// Appends rows, each ending in a line feed.
    public static func appendRows(_ rows: some Sequence<Row>, into buffer: inout [UInt8]) {
        var csv = CSVEncoder()
        for row in rows {
            appendCells(of: row, to: &csv, into: &buffer)
            csv.endRow(into: &buffer)
        }
    }

    /// A whole file: the header and the rows.
    public static func encode(_ rows: some Sequence<Row>) -> [UInt8] {
        var buffer = header()
        appendRows(rows, into: &buffer)
        return buffer
    }
}
