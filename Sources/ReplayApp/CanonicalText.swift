import Foundation

/// A file of one JSON line with its keys sorted and slashes unescaped, so that the same value
/// always gives the same bytes (`summary.state`, `merge.state`, `partition.json`).
protocol JSONLineFile: Encodable {}

extension JSONLineFile {
    /// The file's bytes.
    func encoded() throws -> [UInt8] {
        Array(try JSONEncoder.stateFiles.encode(self)) + [UInt8(ascii: "\n")]
    }
}

extension JSONEncoder {
    /// Foundation's encoder as the state files write their Codable values: keys sorted, slashes
    /// unescaped, no whitespace. Every other JSON the tool writes goes through `JSONWriter`.
    static var stateFiles: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

/// A 64-bit digest as the files write it: 16 lowercase hex digits.
func hexDigits(of digest: UInt64) -> String {
    let hex = String(digest, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}
