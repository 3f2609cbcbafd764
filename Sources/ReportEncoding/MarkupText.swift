/// Text in HTML and XML markup: what `report.html` and `check --junit` write from the logs.
package enum MarkupText {
    /// Appends `text` with `&`, `<`, `>`, `"` and `'` as character references, and control
    /// characters other than tab, line feed and carriage return (which HTML and XML forbid) as U+FFFD.
    package static func appendEscaped(_ text: String, into buffer: inout [UInt8]) {
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
