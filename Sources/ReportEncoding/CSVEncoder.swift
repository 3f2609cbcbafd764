import TextFormat

/// Writes CSV rows (RFC 4180) into a byte buffer, one cell at a time.
///
/// A field is quoted only when it contains a comma, a double quote, CR or LF; a double
/// quote inside a quoted field is doubled. Cells are separated by `,` and every row,
/// the last one included, ends with a bare LF (`"\n"`): RFC 4180 prescribes CRLF, but
/// every CSV reader accepts LF and the reports are diffed and grepped on Unix, where
/// CRLF would show up as noise. Numbers are written without locale or grouping.
///
/// The encoder only remembers whether the current row has a cell yet, so one value can
/// write any number of files:
///
/// ```swift
/// var csv = CSVEncoder()
/// var bytes: [UInt8] = []
/// csv.appendHeader(["instrument", "plays"], into: &bytes)
/// csv.appendString("ios-7f3a9c", into: &bytes)
/// csv.appendInt(3, into: &bytes)
/// csv.endRow(into: &bytes)   // "instrument,plays\nios-7f3a9c,3\n"
/// ```
public struct CSVEncoder: Sendable {
    private var rowHasCell = false

    /// Creates an encoder positioned at the start of a row.
    public init() {}

    /// Whether the row being written has no cell yet.
    public var isAtRowStart: Bool { !rowHasCell }

    /// Appends a whole row of string cells, the header row for example, and ends it.
    public mutating func appendHeader(_ names: [String], into buffer: inout [UInt8]) {
        for name in names { appendString(name, into: &buffer) }
        endRow(into: &buffer)
    }

    /// Appends a text cell, quoted when it contains `,`, `"`, CR or LF; the bytes between
    /// quotes are appended a run at a time. A text that a spreadsheet would run as a formula
    /// (``isFormulaLike(_:)``) is written with a `'` before it (docs/reports.md, "Cells a
    /// spreadsheet would run").
    public mutating func appendString(_ value: String, into buffer: inout [UInt8]) {
        beginCell(into: &buffer)
        var value = value
        value.withUTF8 { bytes in
            let guarded = Self.isFormulaLike(bytes)
            guard bytes.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }) else {
                if guarded { buffer.append(Self.formulaGuard) }
                buffer.append(contentsOf: bytes)
                return
            }
            buffer.append(0x22)
            if guarded { buffer.append(Self.formulaGuard) }
            // Each quote ends a run and starts the next, so that it is written twice.
            var runStart = 0
            for index in bytes.indices where bytes[index] == 0x22 {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...index]))
                runStart = index
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            buffer.append(0x22)
        }
    }

    /// The character written before a text a spreadsheet would run: `'`, which Excel,
    /// LibreOffice and Google Sheets take as "text follows" (OWASP's advice on CSV injection).
    public static let formulaGuard = UInt8(ascii: "'")

    /// Whether a text cell would be run by a spreadsheet as a formula: it begins with `=`, `+`,
    /// `-`, `@`, a tab or a carriage return, and is not a plain number (`-12`, `+3.5`, which no
    /// spreadsheet runs and which stay as they are).
    public static func isFormulaLike(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first else { return false }
        switch first {
        case UInt8(ascii: "="), UInt8(ascii: "@"), 0x09, 0x0D: return true
        case UInt8(ascii: "+"), UInt8(ascii: "-"): return !isPlainNumber(bytes.dropFirst())
        default: return false
        }
    }

    /// Digits with at most one `.` among them, and at least one digit.
    private static func isPlainNumber(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var digits = 0
        var points = 0
        for byte in bytes {
            if (0x30...0x39).contains(byte) {
                digits += 1
            } else if byte == UInt8(ascii: "."), points == 0 {
                points += 1
            } else {
                return false
            }
        }
        return digits > 0
    }

    /// Appends a text cell, or an empty cell for `nil`.
    public mutating func appendString(_ value: String?, into buffer: inout [UInt8]) {
        if let value { appendString(value, into: &buffer) } else { appendEmpty(into: &buffer) }
    }

    /// Appends an integer cell (`-9223372036854775808` ... `9223372036854775807`).
    public mutating func appendInt(_ value: Int64, into buffer: inout [UInt8]) {
        beginCell(into: &buffer)
        DecimalFormatting.appendInt64(value, into: &buffer)
    }

    /// Appends an integer cell, or an empty cell for `nil`.
    public mutating func appendInt(_ value: Int64?, into buffer: inout [UInt8]) {
        if let value { appendInt(value, into: &buffer) } else { appendEmpty(into: &buffer) }
    }

    /// Appends `true` or `false`.
    public mutating func appendBool(_ value: Bool, into buffer: inout [UInt8]) {
        beginCell(into: &buffer)
        buffer.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    /// Appends an empty cell.
    public mutating func appendEmpty(into buffer: inout [UInt8]) {
        beginCell(into: &buffer)
    }

    /// Appends `100 × part / whole` with exactly two decimals, rounded half away from
    /// zero in exact integer arithmetic (`1` of `3` is `33.33`, `1` of `8` is `12.50`,
    /// `1` of `1600` is `0.06`); an empty cell when `whole` is zero (undefined).
    public mutating func appendPercentage(_ part: Int64, of whole: Int64, into buffer: inout [UInt8]) {
        appendRatio(numerator: Int128(part) * 100, denominator: Int128(whole), into: &buffer)
    }

    /// Appends `numerator × multiplier / denominator` with exactly two decimals, rounded
    /// half away from zero in exact integer arithmetic; an empty cell when `denominator`
    /// is zero. Rebuffers per minute of watch time is
    /// `appendRatio(rebuffers, multiplier: 60_000, over: watchMilliseconds, into: &bytes)`.
    public mutating func appendRatio(
        _ numerator: Int64, multiplier: Int64 = 1, over denominator: Int64, into buffer: inout [UInt8]
    ) {
        appendRatio(numerator: Int128(numerator) * Int128(multiplier), denominator: Int128(denominator), into: &buffer)
    }

    /// Appends `value` with exactly two decimals, rounded half away from zero on its
    /// shortest decimal form (`1.005` → `1.01`, `-0.125` → `-0.13`, `-0.001` → `0.00`);
    /// an empty cell for `nil`, NaN or an infinity.
    public mutating func appendFixed2(_ value: Double?, into buffer: inout [UInt8]) {
        beginCell(into: &buffer)
        if let value { _ = DecimalFormatting.appendFixed2(value, into: &buffer) }
    }

    /// Ends the current row with `"\n"`; the next cell starts a new row.
    ///
    /// A row of one empty cell is a blank line, which some readers skip: give every
    /// report at least one column that is never empty (the reports all have one).
    public mutating func endRow(into buffer: inout [UInt8]) {
        buffer.append(0x0A)
        rowHasCell = false
    }

    /// Appends `numerator / denominator` with exactly two decimals, rounded half away from
    /// zero in exact integer arithmetic; an empty cell when `denominator` is zero.
    public mutating func appendRatio(numerator: Int128, denominator: Int128, into buffer: inout [UInt8]) {
        beginCell(into: &buffer)
        _ = DecimalFormatting.appendFixed2(numerator: numerator, denominator: denominator, into: &buffer)
    }

    @inline(__always)
    private mutating func beginCell(into buffer: inout [UInt8]) {
        if rowHasCell { buffer.append(0x2C) }
        rowHasCell = true
    }
}
