/// How the model's values are kept in a `--state` file (`Codable`), so that the state machines
/// built on them can be saved at the end of a night and restored the next.
///
/// Every encoding here is deterministic: the same value always gives the same bytes (a
/// dictionary is written as its entries sorted by key, never in its table's order, which
/// changes from process to process).

extension Timestamp: Codable {
    /// Milliseconds since the epoch, as a bare number; one outside `StoredRange/times` (years
    /// 0 to 9999, a day either side) is refused (`dataCorrupted`): no record has such a time.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let milliseconds = try container.decode(Int64.self)
        guard StoredRange.times.contains(milliseconds) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "the time \(milliseconds) ms is not within years 0 to 9999")
        }
        self.init(milliseconds: milliseconds)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(milliseconds)
    }
}

extension AttributeKey: Codable {
    /// The name, as a string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension AttributeValue: Codable {
    /// One key naming the type, so that `1` and `1.0` stay an integer and a double: `s`
    /// (string), `i` (integer), `d` (double), `b` (Boolean), `j` (JSON text).
    private enum CodingKeys: String, CodingKey {
        case s, i, d, b, j
    }

    /// A record's value: its integer is not limited (`decodingInputValues(_:_:)`).
    public init(from decoder: any Decoder) throws {
        self = try decodingInputValues(decoder) { try Self.decoded(from: decoder) }
    }

    private static func decoded(from decoder: any Decoder) throws -> AttributeValue {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let keys = container.allKeys
        guard let key = keys.first, keys.count == 1 else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "an attribute value needs one of s, i, d, b, j")
            )
        }
        switch key {
        case .s: return .string(try container.decode(String.self, forKey: key))
        case .i: return .int(try container.decode(Int64.self, forKey: key))
        case .d: return .double(try container.decode(Double.self, forKey: key))
        case .b: return .bool(try container.decode(Bool.self, forKey: key))
        case .j: return .json(try container.decode(String.self, forKey: key))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .string(let value): try container.encode(value, forKey: .s)
        case .int(let value): try container.encode(value, forKey: .i)
        case .double(let value): try container.encode(value, forKey: .d)
        case .bool(let value): try container.encode(value, forKey: .b)
        case .json(let value): try container.encode(value, forKey: .j)
        }
    }
}

/// Attributes as a state file keeps them: their entries sorted by name, `[[name, value], …]`.
public struct SortedAttributes: Codable, Sendable {
    public var attributes: Attributes

    public init(_ attributes: Attributes) {
        self.attributes = attributes
    }

    private struct Entry: Codable {
        var key: AttributeKey
        var value: AttributeValue

        init(key: AttributeKey, value: AttributeValue) {
            self.key = key
            self.value = value
        }

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            key = try container.decode(AttributeKey.self)
            value = try container.decode(AttributeValue.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(key)
            try container.encode(value)
        }
    }

    public init(from decoder: any Decoder) throws {
        var attributes = Attributes()
        for entry in try [Entry](from: decoder) {
            attributes[entry.key] = entry.value
        }
        self.attributes = attributes
    }

    public func encode(to encoder: any Encoder) throws {
        try attributes.sorted { $0.key < $1.key }.map { Entry(key: $0.key, value: $0.value) }.encode(to: encoder)
    }
}

extension PackedAttributes: Codable {
    /// As their unpacked attributes (``SortedAttributes``): packed bytes number keys by the
    /// process's key table, which another process numbers otherwise. Packed again from the
    /// dictionary on decoding, keys in UTF-8 byte order.
    @usableFromInline package init(from decoder: any Decoder) throws {
        self.init(try SortedAttributes(from: decoder).attributes)
    }

    @usableFromInline package func encode(to encoder: any Encoder) throws {
        try SortedAttributes(unpacked()).encode(to: encoder)
    }
}
