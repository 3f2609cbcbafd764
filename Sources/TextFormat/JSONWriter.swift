/// Writes compact, deterministic JSON (RFC 8259) into a byte buffer, token by token.
///
/// The writer adds the commas and colons; the caller gives keys and values in the order
/// they are to appear (sorting them first where the output must not depend on the order
/// they were gathered in). There is no whitespace. One JSON Lines record:
///
/// ```swift
/// var json = JSONWriter()
/// var bytes: [UInt8] = []
/// json.beginObject(into: &bytes)
/// json.key("ts", into: &bytes); json.int(1763622903225, into: &bytes)
/// json.key("attrs", into: &bytes); json.attributes(record.attributes, into: &bytes)
/// json.endObject(into: &bytes)
/// json.endLine(into: &bytes)   // {"ts":1763622903225,"attrs":{...}}\n
/// ```
///
/// - Strings: `"` and `\` are escaped, control characters use `\b`, `\f`, `\n`, `\r`,
///   `\t` or `\u00xx` (lowercase hex); everything else, non-ASCII UTF-8 included, is
///   written unchanged.
/// - Numbers: integers in decimal; doubles in their shortest round-trip form, which
///   always has a fraction or an exponent (`100.0`, `1e-05`, `1e+21`, `-0.0`), so a
///   reader that types numbers as the event log does reads a double back as a double.
///   NaN and infinities, which JSON cannot hold, are written `null`.
///
/// A call out of place (a value in an object without a key, an `end` without a
/// `begin`) is not checked; ``isBalanced`` tells whether every container was closed.
package struct JSONWriter: Sendable {
    /// For each open container, whether something was written in it already.
    @usableFromInline var hasElement: [Bool] = []
    /// Whether a key was just written, so the next value follows its colon.
    @usableFromInline var afterKey = false

    /// Creates a writer at the top level.
    package init() {
        hasElement.reserveCapacity(8)
    }

    /// Whether every object and array begun was ended.
    package var isBalanced: Bool { hasElement.isEmpty && !afterKey }

    /// Opens an object: `{`.
    @inlinable
    package mutating func beginObject(into buffer: inout [UInt8]) {
        beforeValue(into: &buffer)
        buffer.append(UInt8(ascii: "{"))
        hasElement.append(false)
    }

    /// Closes the innermost object: `}`.
    @inlinable
    package mutating func endObject(into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "}"))
        _ = hasElement.popLast()
    }

    /// Opens an array: `[`.
    @inlinable
    package mutating func beginArray(into buffer: inout [UInt8]) {
        beforeValue(into: &buffer)
        buffer.append(UInt8(ascii: "["))
        hasElement.append(false)
    }

    /// Closes the innermost array: `]`.
    @inlinable
    package mutating func endArray(into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "]"))
        _ = hasElement.popLast()
    }

    /// Writes an object member's key and its colon; the next call writes its value.
    @inlinable
    package mutating func key(_ name: String, into buffer: inout [UInt8]) {
        separate(into: &buffer)
        Self.appendQuoted(name, into: &buffer)
        buffer.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Writes a string value.
    @inlinable
    package mutating func string(_ value: String, into buffer: inout [UInt8]) {
        beforeValue(into: &buffer)
        Self.appendQuoted(value, into: &buffer)
    }

    /// Writes an integer value.
    @inlinable
    package mutating func int(_ value: Int64, into buffer: inout [UInt8]) {
        beforeValue(into: &buffer)
        DecimalFormatting.appendInt64(value, into: &buffer)
    }

    /// Writes a double value in its shortest round-trip form, or `null` when it is NaN
    /// or infinite.
    @inlinable
    package mutating func double(_ value: Double, into buffer: inout [UInt8]) {
        beforeValue(into: &buffer)
        Self.appendDouble(value, into: &buffer)
    }

    /// Writes `true` or `false`.
    @inlinable
    package mutating func bool(_ value: Bool, into buffer: inout [UInt8]) {
        beforeValue(into: &buffer)
        buffer.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    /// Writes `null`.
    @inlinable
    package mutating func null(into buffer: inout [UInt8]) {
        beforeValue(into: &buffer)
        buffer.append(contentsOf: "null".utf8)
    }

    /// Writes `text`, the JSON text of a value made elsewhere (a nested attribute value in its
    /// canonical form, ``CanonicalJSON``), as it is.
    @inlinable
    package mutating func raw(_ text: String, into buffer: inout [UInt8]) {
        beforeValue(into: &buffer)
        buffer.append(contentsOf: text.utf8)
    }

    /// Ends a JSON Lines record with `"\n"` and resets the writer to the top level.
    package mutating func endLine(into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\n"))
        hasElement.removeAll(keepingCapacity: true)
        afterKey = false
    }

    /// Appends `value` as a quoted JSON string: `"` and `\` escaped, control characters as `\b`,
    /// `\f`, `\n`, `\r`, `\t` or `\u00xx` (lowercase hex), everything else, non-ASCII UTF-8
    /// included, unchanged.
    package static func appendQuoted(_ value: String, into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        let utf8 = value.utf8
        var clean = true
        for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            clean = false
            break
        }
        if clean {
            buffer.append(contentsOf: utf8)
        } else {
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\\")); buffer.append(byte)
                case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\")); buffer.append(byte)
                case 0x08: buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "b"))
                case 0x09: buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "t"))
                case 0x0A: buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "n"))
                case 0x0C: buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "f"))
                case 0x0D: buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "r"))
                case 0x00..<0x20:
                    buffer.append(contentsOf: "\\u00".utf8)
                    buffer.append(hexDigit(byte >> 4))
                    buffer.append(hexDigit(byte & 0x0F))
                default:
                    buffer.append(byte)
                }
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? nibble &+ 0x30 : nibble &+ 0x57
    }

    /// Appends a double in its shortest round-trip form, or `null` for NaN or an infinity.
    @inlinable
    package static func appendDouble(_ value: Double, into buffer: inout [UInt8]) {
        if value.isFinite {
            DecimalFormatting.appendShortest(value, into: &buffer)
        } else {
            buffer.append(contentsOf: "null".utf8)
        }
    }

    /// Writes the comma that separates this element from the previous one, if any.
    @inlinable @inline(__always)
    mutating func separate(into buffer: inout [UInt8]) {
        guard let last = hasElement.indices.last else { return }
        if hasElement[last] { buffer.append(UInt8(ascii: ",")) }
        hasElement[last] = true
    }

    @inlinable @inline(__always)
    mutating func beforeValue(into buffer: inout [UInt8]) {
        if afterKey {
            afterKey = false
        } else {
            separate(into: &buffer)
        }
    }
}
