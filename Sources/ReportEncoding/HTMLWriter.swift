/// Appends HTML (and inline SVG) to a byte buffer: markup as given, text escaped, numbers
/// without locale (``DecimalFormatting``).
struct HTMLWriter {
    /// What was written.
    private(set) var bytes: [UInt8] = []

    /// Appends markup the caller wrote, unescaped: never text from the logs.
    mutating func markup(_ markup: String) {
        bytes.append(contentsOf: markup.utf8)
    }

    /// Appends text, escaped for element content and quoted attribute values.
    mutating func text(_ text: String) {
        Self.appendEscaped(text, into: &bytes)
    }

    /// Appends an integer.
    mutating func int(_ value: Int64) {
        DecimalFormatting.appendInt64(value, into: &bytes)
    }

    /// Appends a finite number with two decimals (a non-finite one as `0.00`, which callers avoid).
    mutating func fixed2(_ value: Double) {
        if !DecimalFormatting.appendFixed2(value, into: &bytes) { markup("0.00") }
    }

    /// Appends `numerator × multiplier / denominator` with two decimals and then `unit`, or only `–`
    /// when the denominator is zero.
    mutating func ratio(_ numerator: Int64, over denominator: Int64, times multiplier: Int64 = 1, unit: String = "") {
        ratio(Int128(numerator) * Int128(multiplier), over: Int128(denominator), unit: unit)
    }

    /// Appends `numerator / denominator` with two decimals and then `unit`, or only `–` when the
    /// denominator is zero.
    mutating func ratio(_ numerator: Int128, over denominator: Int128, unit: String = "") {
        let defined = DecimalFormatting.appendFixed2(numerator: numerator, denominator: denominator, into: &bytes)
        markup(defined ? unit : "–")
    }

    /// Appends `text` with `&`, `<`, `>`, `"` and `'` as character references, and control
    /// characters other than tab, line feed and carriage return (which HTML forbids) as U+FFFD.
    static func appendEscaped(_ text: String, into buffer: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): buffer.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): buffer.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): buffer.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): buffer.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): buffer.append(contentsOf: "&#39;".utf8)
            case 0x09, 0x0A, 0x0D: buffer.append(byte)
            case 0x00..<0x20, 0x7F: buffer.append(contentsOf: [0xEF, 0xBF, 0xBD])
            default: buffer.append(byte)
            }
        }
    }
}
