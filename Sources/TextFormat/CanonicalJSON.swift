/// The canonical form of a JSON object or array: what a nested attribute value is kept and
/// compared as.
package enum CanonicalJSON {
    /// The canonical compact text of one JSON object or array (an attribute value of the event log's `json` kind), or
    /// `nil` when the bytes are not exactly one valid object or array (whitespace around it
    /// allowed).
    ///
    /// Canonical: no whitespace; an object's keys in UTF-8 byte order, a repeated key's last
    /// value kept; strings escaped as ``JSONWriter/appendQuoted(_:into:)``; a number written without a
    /// fraction or exponent that fits in 64 bits as that integer, any other number as a double
    /// that is whole and fits in 64 bits as an integer too (`123.0` is `123`), else in its
    /// shortest round-trip form. So two texts are equal exactly when their JSON values are:
    /// key order never matters, `123 == 123.0`, arrays compare in order.
    package static func canonical(_ bytes: UnsafeRawBufferPointer) -> String? {
        var parser = Parser(bytes: bytes)
        parser.skipWhitespace()
        guard let first = parser.peek(), first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
            let value = parser.value(depth: 0)
        else { return nil }
        parser.skipWhitespace()
        guard parser.atEnd else { return nil }
        var out: [UInt8] = []
        var writer = JSONWriter()
        value.write(with: &writer, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A parsed JSON value, canonical: objects' members sorted and unique, numbers as
    /// JSON values compare (``wholeInteger(_:)``).
    private indirect enum Value {
        case object([(key: String, value: Value)])
        case array([Value])
        case string(String)
        case int(Int64)
        case double(Double)
        case bool(Bool)
        case null

        func write(with writer: inout JSONWriter, into out: inout [UInt8]) {
            switch self {
            case .object(let members):
                writer.beginObject(into: &out)
                for member in members {
                    writer.key(member.key, into: &out)
                    member.value.write(with: &writer, into: &out)
                }
                writer.endObject(into: &out)
            case .array(let elements):
                writer.beginArray(into: &out)
                for element in elements { element.write(with: &writer, into: &out) }
                writer.endArray(into: &out)
            case .string(let text): writer.string(text, into: &out)
            case .int(let number): writer.int(number, into: &out)
            case .double(let number): writer.double(number, into: &out)
            case .bool(let flag): writer.bool(flag, into: &out)
            case .null: writer.null(into: &out)
            }
        }
    }

    /// `number` as an integer when it is whole and fits in 64 bits (`123.0` is `123`): how a
    /// double compares with an integer as a JSON value.
    package static func wholeInteger(_ number: Double) -> Int64? {
        guard number.rounded(.towardZero) == number, number >= -9.223_372_036_854_775_808e18,
            number < 9.223_372_036_854_775_808e18
        else { return nil }
        return Int64(number)
    }

    /// A recursive-descent reader of RFC 8259 JSON.
    private struct Parser {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        /// Deeper nesting is refused rather than followed (no record needs it).
        static let maxDepth = 64

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        var atEnd: Bool { offset == bytes.count }

        func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func skipWhitespace() {
            while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard peek() == byte else { return false }
            offset += 1
            return true
        }

        mutating func literal(_ text: String) -> Bool {
            for byte in text.utf8 {
                guard consume(byte) else { return false }
            }
            return true
        }

        mutating func value(depth: Int) -> Value? {
            guard depth < Self.maxDepth else { return nil }
            skipWhitespace()
            guard let byte = peek() else { return nil }
            switch byte {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return number()
            }
        }

        mutating func object(depth: Int) -> Value? {
            offset += 1
            var members: [String: Value] = [:]
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return .object([]) }
            while true {
                skipWhitespace()
                guard let key = string() else { return nil }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")), let value = value(depth: depth + 1) else { return nil }
                members[key] = value
                skipWhitespace()
                if consume(UInt8(ascii: ",")) { continue }
                guard consume(UInt8(ascii: "}")) else { return nil }
                let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                return .object(sorted.map { (key: $0.key, value: $0.value) })
            }
        }

        mutating func array(depth: Int) -> Value? {
            offset += 1
            var elements: [Value] = []
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return .array([]) }
            while true {
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                skipWhitespace()
                if consume(UInt8(ascii: ",")) { continue }
                return consume(UInt8(ascii: "]")) ? .array(elements) : nil
            }
        }

        mutating func string() -> String? {
            guard consume(UInt8(ascii: "\"")) else { return nil }
            var utf8: [UInt8] = []
            while let byte = peek() {
                offset += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(validating: utf8, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let escaped = peek() else { return nil }
                    offset += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                    case UInt8(ascii: "b"): utf8.append(0x08)
                    case UInt8(ascii: "f"): utf8.append(0x0C)
                    case UInt8(ascii: "n"): utf8.append(0x0A)
                    case UInt8(ascii: "r"): utf8.append(0x0D)
                    case UInt8(ascii: "t"): utf8.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = unicodeEscape() else { return nil }
                        utf8.append(contentsOf: String(Character(scalar)).utf8)
                    default: return nil
                    }
                case 0x00..<0x20:
                    return nil
                default:
                    utf8.append(byte)
                }
            }
            return nil
        }

        /// The scalar of `\uXXXX` (after the `u`), a surrogate pair's second half included.
        mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let first = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(first) {
                guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")), let second = hex4(),
                    (0xDC00..<0xE000).contains(second)
                else { return nil }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
            }
            return Unicode.Scalar(first)
        }

        mutating func hex4() -> UInt32? {
            guard offset + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[offset]
                offset += 1
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: return nil
                }
                value = value << 4 | digit
            }
            return value
        }

        /// A number token (RFC 8259 grammar), as an integer when it has no fraction or exponent
        /// and fits, else as a double made canonical.
        mutating func number() -> Value? {
            let start = offset
            _ = consume(UInt8(ascii: "-"))
            guard let first = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return nil }
            if first == UInt8(ascii: "0") {
                offset += 1
            } else {
                skipDigits()
            }
            var isInteger = true
            if consume(UInt8(ascii: ".")) {
                isInteger = false
                guard skipDigits() > 0 else { return nil }
            }
            if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
                isInteger = false
                if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
                guard skipDigits() > 0 else { return nil }
            }
            let token = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
            if isInteger, let integer = Int64(token) { return .int(integer) }
            guard let double = Double(token), double.isFinite else { return nil }
            return wholeInteger(double).map(Value.int) ?? .double(double)
        }

        @discardableResult
        mutating func skipDigits() -> Int {
            var count = 0
            while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                offset += 1
                count += 1
            }
            return count
        }
    }
}
