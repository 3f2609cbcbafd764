/// A JSON value as it is written, read back by `check` and `diff` (they write no JSON):
/// objects keep their members in order, any other value is its text, exactly (`5400.0` and
/// `5400` differ, strings keep their quotes and escapes).
///
/// Foundation's parser would give numbers back as values, so a report whose bytes changed
/// from `5400.0` to `5400` would compare equal; the comparison wants to see such a change and
/// to show the values as the file has them.
enum WrittenJSON: Equatable {
    case object([Member])
    case text(String)

    struct Member: Equatable {
        /// The key as written, without its quotes (escapes kept).
        var key: String
        var value: WrittenJSON
    }

    struct ParseError: Error {}

    /// The members of the JSON object `line` holds.
    ///
    /// - Parameters:
    ///   - line: The bytes of one line.
    ///   - nested: Whether objects inside the object are read into members too; when false
    ///     they are kept as their text, which is much quicker for a line with many attributes.
    /// - Throws: ``ParseError`` when the line is not one JSON object (surrounding white space
    ///   aside). Scalars and arrays (and, unless `nested`, inner objects) are only delimited,
    ///   not validated.
    static func members(of line: ArraySlice<UInt8>, nested: Bool = true) throws(ParseError) -> [Member] {
        var reader = Reader(bytes: Array(line), readsNested: nested)
        reader.skipWhitespace()
        guard reader.index < reader.bytes.count, reader.bytes[reader.index] == UInt8(ascii: "{") else {
            throw ParseError()
        }
        reader.depth = 1
        let members = try reader.objectMembers()
        reader.skipWhitespace()
        guard reader.isAtEnd else { throw ParseError() }
        return members
    }

    /// The member named `key`, if any.
    static func value(_ key: String, in members: [Member]) -> WrittenJSON? {
        members.first { $0.key == key }?.value
    }

    /// The text of a scalar; a string without its quotes when it has no escapes.
    var plain: String {
        switch self {
        case .object: return "{…}"
        case .text(let text):
            guard text.count >= 2, text.first == "\"", text.last == "\"", !text.contains("\\") else { return text }
            return String(text.dropFirst().dropLast())
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        /// Whether inner objects are read into members, or kept as text.
        let readsNested: Bool
        var index = 0
        /// Objects open around the current position; deeper nesting than `maxDepth` is refused.
        var depth = 0
        static let maxDepth = 64

        var isAtEnd: Bool { index == bytes.count }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value() throws(ParseError) -> WrittenJSON {
            guard index < bytes.count else { throw ParseError() }
            let start = index
            switch bytes[index] {
            case UInt8(ascii: "{") where !readsNested:
                try skipNested()
            case UInt8(ascii: "{"):
                guard depth < Self.maxDepth else { throw ParseError() }
                depth += 1
                defer { depth -= 1 }
                return .object(try objectMembers())
            case UInt8(ascii: "\""):
                try skipString()
            case UInt8(ascii: "["):
                try skipNested()
            default:
                while index < bytes.count, !Self.delimiters.contains(bytes[index]) { index += 1 }
                guard index > start else { throw ParseError() }
            }
            return .text(String(decoding: bytes[start..<index], as: UTF8.self))
        }

        private static let delimiters: Set<UInt8> = [
            UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D,
        ]

        /// Reads the members of the object whose `{` is at `index`.
        mutating func objectMembers() throws(ParseError) -> [Member] {
            index += 1
            var members: [Member] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return members
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw ParseError() }
                let keyStart = index + 1
                try skipString()
                let key = String(decoding: bytes[keyStart..<(index - 1)], as: UTF8.self)
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw ParseError() }
                index += 1
                skipWhitespace()
                members.append(Member(key: key, value: try value()))
                skipWhitespace()
                guard index < bytes.count else { throw ParseError() }
                let separator = bytes[index]
                index += 1
                if separator == UInt8(ascii: "}") { return members }
                guard separator == UInt8(ascii: ",") else { throw ParseError() }
            }
        }

        /// Moves past a string that starts at `index`.
        private mutating func skipString() throws(ParseError) {
            index += 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""):
                    index += 1
                    return
                default: index += 1
                }
            }
            throw ParseError()
        }

        /// Moves past an array or object that starts at `index`, nested ones and strings included.
        private mutating func skipNested() throws(ParseError) {
            var nesting = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    try skipString()
                    continue
                case UInt8(ascii: "["), UInt8(ascii: "{"): nesting += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    nesting -= 1
                    if nesting == 0 {
                        index += 1
                        return
                    }
                default: break
                }
                index += 1
            }
            throw ParseError()
        }
    }
}
