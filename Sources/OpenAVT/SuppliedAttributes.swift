import EventModel

/// Attributes a tracker supplies all at once for the events it emits next, in place of one
/// getter each: a replayed record's packed attributes (see ``Tracker/suppliedAttributes``).
///
/// An event holds them as they were packed and reads one when asked, rather than having each
/// copied into its dictionary.
public struct SuppliedAttributes: Sendable {
    private var packed: PackedAttributes
    /// Attributes removed from this copy (an event's attribute set to `nil`).
    private var hidden: [AttributeKey] = []

    /// No attributes.
    public init() {
        packed = PackedAttributes()
    }

    /// The attributes of a record.
    package init(_ packed: PackedAttributes) {
        self.packed = packed
    }

    /// Makes these the attributes of a record's packed bytes
    /// (`withPackedBytes(_:)`), in the memory of the ones they
    /// replace when no event holds those any more.
    package mutating func replace(withPackedBytes bytes: UnsafeRawBufferPointer) {
        hidden = []
        packed.replace(withPackedBytes: bytes)
    }

    /// The value of an attribute, or `nil` when it is not supplied.
    public subscript(key: AttributeKey) -> AttributeValue? {
        if !hidden.isEmpty, hidden.contains(key) { return nil }
        return packed[key]
    }

    /// Whether these are `other` itself, the same record's attributes with none hidden: then
    /// each reads the same, without a look-up.
    @inline(__always)
    func isSame(as other: SuppliedAttributes) -> Bool {
        hidden.isEmpty && other.hidden.isEmpty && packed.sharesBytes(with: other.packed)
    }

    /// Every attribute supplied.
    public var all: Attributes {
        var attributes = packed.unpacked()
        for key in hidden { attributes[key] = nil }
        return attributes
    }

    /// Hides an attribute from this copy.
    mutating func remove(_ key: AttributeKey) {
        if packed[key] != nil, !hidden.contains(key) { hidden.append(key) }
    }
}
