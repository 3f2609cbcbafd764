import EventModel
import TextFormat

extension JSONWriter {
    /// Writes an attribute value as the JSON value of its case.
    package mutating func attributeValue(_ value: AttributeValue, into buffer: inout [UInt8]) {
        switch value {
        case .string(let text): string(text, into: &buffer)
        case .int(let number): int(number, into: &buffer)
        case .double(let number): double(number, into: &buffer)
        case .bool(let flag): bool(flag, into: &buffer)
        case .json(let text): raw(text, into: &buffer)
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
}
