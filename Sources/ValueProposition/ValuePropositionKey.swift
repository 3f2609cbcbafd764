import EventModel

/// What identifies a value proposition: its name and its attributes compared as JSON values.
///
/// Key order does not matter, `123` equals `123.0`, and a missing `attrs` is `{}`: numbers
/// that are whole and fit in 64 bits compare as integers.
public struct ValuePropositionKey: Hashable, Sendable {
    /// The value proposition's name.
    public let name: String
    private let canonicalAttributes: Attributes

    /// The key of a value proposition. When no value changes as a JSON value (no whole
    /// floating-point number), the key shares the attributes' memory: an open session keeps
    /// both its attributes and its key.
    public init(name: String, attributes: Attributes) {
        self.name = name
        canonicalAttributes =
            attributes.values.allSatisfy { $0.jsonCanonical == $0 } ? attributes : attributes.mapValues(\.jsonCanonical)
    }
}
