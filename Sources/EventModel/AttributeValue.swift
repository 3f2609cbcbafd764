import TextFormat

/// A typed attribute value: what a tracker getter, a hub or a record can put on an event.
///
/// JSON numbers written without a fraction or exponent are ``int(_:)``; all others are ``double(_:)``.
public enum AttributeValue: Hashable, Sendable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    /// A JSON object or array (a value-proposition attribute may nest), as its canonical
    /// compact text (`CanonicalJSON.canonical(_:)`): equal JSON values have equal texts.
    case json(String)

    /// The value as an integer, if it is one.
    public var int: Int64? {
        if case .int(let value) = self { return value }
        return nil
    }

    /// The value as a floating-point number, if it is a number.
    public var double: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The value as a Boolean, if it is one.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The value as a string, if it is one.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}

extension AttributeValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension AttributeValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .int(value) }
}

extension AttributeValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension AttributeValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension AttributeValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .string(let value): return value
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .bool(let value): return String(value)
        case .json(let text): return text
        }
    }
}

extension AttributeValue {
    /// The value as a JSON value compares: a number that is whole and fits in 64 bits as an
    /// integer (`123.0` is `123`), anything else as it is.
    package var jsonCanonical: AttributeValue {
        guard case .double(let number) = self, let integer = CanonicalJSON.wholeInteger(number) else { return self }
        return .int(integer)
    }
}

extension Dictionary where Key == AttributeKey, Value == AttributeValue {
    /// Whether both have the same keys with the same values compared as JSON values
    /// (``AttributeValue/jsonCanonical``: `180` and `180.0` are the same).
    package func hasSameJSONValues(as other: Self) -> Bool {
        guard count == other.count else { return false }
        for (key, value) in self {
            guard let otherValue = other[key], otherValue.jsonCanonical == value.jsonCanonical else { return false }
        }
        return true
    }
}
