import EventModel

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
    private var hasElement: [Bool] = []
    /// Whether a key was just written, so the next value follows its colon.
    private var afterKey = false

    /// Creates a writer at the top level.
    package init() {
        hasElement.reserveCapacity(8)
    }

    /// Whether every object and array begun was ended.
    package var isBalanced: Bool { hasElement.isEmpty && !afterKey }

    /// Opens an object: `{`.
    package mutating func beginObject(into buffer: inout [UInt8]) {
        beforeValue(into: &buffer)
        buffer.append(UInt8(ascii: "{"))
        hasElement.append(false)
    }

    /// Closes the innermost object: `}`.
    package mutating func endObject(into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "}"))
        _ = hasElement.popLast()
    }

    /// Opens an array: `[`.
    package mutating func beginArray(into buffer: inout [UInt8]) {
        beforeValue(into: &buffer)
        buffer.append(UInt8(ascii: "["))
        hasElement.append(false)
    }

    /// Closes the innermost array: `]`.
    package mutating func endArray(into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "]"))
        _ = hasElement.popLast()
    }

    /// Writes an object member's key and its colon; the next call writes its value.
    package mutating func key(_ name: String, into buffer: inout [UInt8]) {
        separate(into: &buffer)
        Self.appendQuoted(name, into: &buffer)
        buffer.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Writes a string value.
    package mutating func string(_ value: String, into buffer: inout [UInt8]) {
        beforeValue(into: &buffer)
        Self.appendQuoted(value, into: &buffer)
    }

    /// Writes an integer value.
    package mutating func int(_ value: Int64, into buffer: inout [UInt8]) {
        beforeValue(into: &buffer)
        DecimalFormatting.appendInt64(value, into: &buffer)
    }

    /// Writes a double value in its shortest round-trip form, or `null` when it is NaN
    /// or infinite.
    package mutating func double(_ value: Double, into buffer: inout [UInt8]) {
        beforeValue(into: &buffer)
        Self.appendDouble(value, into: &buffer)
    }

    /// Writes `true` or `false`.
    package mutating func bool(_ value: Bool, into buffer: inout [UInt8]) {
        beforeValue(into: &buffer)
        buffer.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    /// Writes `null`.
    package mutating func null(into buffer: inout [UInt8]) {
        beforeValue(into: &buffer)
        buffer.append(contentsOf: "null".utf8)
    }

    /// Writes an attribute value as the JSON value of its case.
    package mutating func attributeValue(_ value: AttributeValue, into buffer: inout [UInt8]) {
        switch value {
        case .string(let text): string(text, into: &buffer)
        case .int(let number): int(number, into: &buffer)
        case .double(let number): double(number, into: &buffer)
        case .bool(let flag): bool(flag, into: &buffer)
        case .json(let text):
            beforeValue(into: &buffer)
            buffer.append(contentsOf: text.utf8)
        }
    }

    /// Writes attributes as an object whose keys are sorted in UTF-8 byte order, so the
    /// output never depends on the dictionary's iteration order.
    package mutating func attributes(_ attributes: Attributes, into buffer: inout [UInt8]) {
        beginObject(into: &buffer)
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) {
            key(name.rawValue, into: &buffer)
            attributeValue(value, into: &buffer)
        }
        endObject(into: &buffer)
    }

    /// Ends a JSON Lines record with `"\n"` and resets the writer to the top level.
    package mutating func endLine(into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\n"))
        hasElement.removeAll(keepingCapacity: true)
        afterKey = false
    }

    /// Appends `value` as a quoted, escaped JSON string (`appendQuoted(_:into:)`).
    package static func appendQuoted(_ value: String, into buffer: inout [UInt8]) {
        JSONText.appendQuoted(value, into: &buffer)
    }

    /// Appends a double in its shortest round-trip form, or `null` for NaN or an infinity.
    package static func appendDouble(_ value: Double, into buffer: inout [UInt8]) {
        if value.isFinite {
            DecimalFormatting.appendShortest(value, into: &buffer)
        } else {
            buffer.append(contentsOf: "null".utf8)
        }
    }

    /// Writes the comma that separates this element from the previous one, if any.
    @inline(__always)
    private mutating func separate(into buffer: inout [UInt8]) {
        guard let last = hasElement.indices.last else { return }
        if hasElement[last] { buffer.append(UInt8(ascii: ",")) }
        hasElement[last] = true
    }

    @inline(__always)
    private mutating func beforeValue(into buffer: inout [UInt8]) {
        if afterKey {
            afterKey = false
        } else {
            separate(into: &buffer)
        }
    }
}
