import EventModel

/// Attributes a tracker supplies all at once for the events it emits next, in place of one
/// getter each: a replayed record's attributes (see ``Tracker/suppliedAttributes``).
///
/// A record has some ten attributes, so a look-up walks them, comparing the keys' digests
/// first; an event holds them by reference rather than copying each into its dictionary
/// (measured: registering, calling and copying one getter per attribute was a sixth of a
/// replay's instructions).
public struct SuppliedAttributes: Sendable {
    /// The attributes, keys unique, in the order they were added.
    public private(set) var entries: [(key: AttributeKey, value: AttributeValue)] = []

    /// No attributes.
    public init() {}

    /// The value of an attribute, or `nil` when it is not supplied.
    public subscript(key: AttributeKey) -> AttributeValue? {
        for entry in entries where entry.key == key {
            return entry.value
        }
        return nil
    }

    /// Whether there are none.
    public var isEmpty: Bool { entries.isEmpty }

    /// Adds an attribute; the caller keeps keys unique.
    public mutating func append(_ key: AttributeKey, _ value: AttributeValue) {
        entries.append((key, value))
    }

    /// Removes every attribute, keeping the storage when no event holds it any more.
    public mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
    }

    /// Removes an attribute, if supplied.
    mutating func remove(_ key: AttributeKey) {
        guard let position = entries.firstIndex(where: { $0.key == key }) else { return }
        entries.remove(at: position)
    }
}
