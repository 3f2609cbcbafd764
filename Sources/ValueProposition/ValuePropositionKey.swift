import EventModel

/// What identifies a value proposition: its name and its attributes compared as JSON values.
///
/// Key order does not matter, `123` equals `123.0`, and a missing `attrs` is `{}`: numbers
/// that are whole and fit in 64 bits compare as integers.
public struct ValuePropositionKey: Hashable, Sendable {
    /// The value proposition's name.
    public let name: String
    private let canonicalAttributes: Attributes

    /// The key of a value proposition.
    public init(name: String, attributes: Attributes) {
        self.name = name
        self.canonicalAttributes = attributes.mapValues(\.jsonCanonical)
    }
}
