import CZlib

/// The checksum of each part of a state file (``RunState``): CRC-32, zlib's (the polynomial of
/// gzip and PNG), which detects every flipped bit, every burst of up to 32 flipped bits, and
/// all but one in 2³² other damage. Its cost is in docs/time.md, "Measured".
enum StateChecksum {
    /// The CRC-32 of `bytes`, continuing `crc` (0 to begin).
    ///
    /// Invariant (CONTRIBUTING.md, "Where the unsafe code is"): the bytes are `UInt8`s (zlib's
    /// `Bytef`), valid for the call, and `crc32_z` reads `bytes.count` of them, only during it.
    static func of(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        return UInt32(truncatingIfNeeded: crc32_z(UInt(crc), base.assumingMemoryBound(to: Bytef.self), bytes.count))
    }

    /// The CRC-32 of `bytes`.
    static func of(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { of($0) }
    }

    /// A checksum as the text lines write it: 8 lowercase hex digits.
    static func text(_ crc: UInt32) -> String {
        let hex = String(crc, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// The end of a text line of the state (the header, the open buckets) after its JSON
    /// members: `,"crc32":"<8 hex>"}`, the checksum of the line's bytes before it.
    static func suffix(of body: [UInt8]) -> [UInt8] {
        Array(#","crc32":""#.utf8) + Array(text(of(body)).utf8) + Array(#""}"#.utf8)
    }

    /// The length of ``suffix(of:)``.
    static let suffixLength = #","crc32":""}"#.utf8.count + 8

    /// What a text line's checksum says of it: whether it has one (``suffix(of:)`` at its
    /// end), and whether it matches the bytes before it.
    enum Verdict {
        case missing
        case matches
        case differs
    }

    /// Checks the checksum at the end of `line` (a text line of the state, without its newline).
    static func verdict(of line: UnsafeRawBufferPointer) -> Verdict {
        let prefix = Array(#","crc32":""#.utf8)
        guard line.count >= suffixLength else { return .missing }
        let start = line.count - suffixLength
        let tail = UnsafeRawBufferPointer(rebasing: line[start...])
        guard tail.starts(with: prefix), tail.last == UInt8(ascii: "}"), tail[tail.count - 2] == UInt8(ascii: "\"")
        else { return .missing }
        let digits = String(decoding: tail[prefix.count..<prefix.count + 8], as: UTF8.self)
        guard digits.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
            let stored = UInt32(digits, radix: 16)
        else { return .differs }
        return stored == of(UnsafeRawBufferPointer(rebasing: line[..<start])) ? .matches : .differs
    }

    /// The bytes of a text line without its checksum, closed again: the JSON object it holds.
    static func body(of line: UnsafeRawBufferPointer) -> [UInt8] {
        Array(line[..<(line.count - suffixLength)]) + [UInt8(ascii: "}")]
    }
}
