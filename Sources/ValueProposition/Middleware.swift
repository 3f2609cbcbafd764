import EventModel

/// Transforms or skips value-proposition events on their way to an output (Tentacles' `Middleware`).
///
/// A chain applies in order; an event skipped by one middleware reaches none after it.
/// Non-fatal errors do not pass through middlewares, as in Tentacles.
public struct Middleware: Sendable {
    private let transform: @Sendable (ValuePropositionEvent) -> ValuePropositionEvent?

    /// A middleware from a closure that returns the (possibly changed) event, or `nil` to skip it.
    public init(_ transform: @escaping @Sendable (ValuePropositionEvent) -> ValuePropositionEvent?) {
        self.transform = transform
    }

    /// The event after this middleware, or `nil` when it is skipped.
    public func apply(to event: ValuePropositionEvent) -> ValuePropositionEvent? {
        transform(event)
    }

    /// Capitalises every attribute key as Foundation's `capitalized` does: each letter that
    /// follows a non-letter (or starts the key) is upper-cased, every other letter lower-cased
    /// (`valuePropositionSessionId` → `Valuepropositionsessionid`, `started_1` → `Started_1`).
    public static let capitalisedAttributeKeys = Middleware { event in
        var changed = event
        changed.attributes = Attributes(
            event.attributes.map { (AttributeKey(capitalised($0.key.rawValue)), $0.value) },
            uniquingKeysWith: { first, _ in first })
        return changed
    }

    /// Adds `duration<From><To>` (e.g. `durationOpenedCompleted`), the milliseconds between the
    /// first time the session reached `from` and the first time it reached `to`, to the events
    /// of category `valueProposition` that have both status timestamps.
    public static func duration(from: SessionStatus, to: SessionStatus) -> Middleware {
        let key = AttributeKey("duration" + capitalised(from.rawValue) + capitalised(to.rawValue))
        let (fromKey, toKey) = (AttributeKey(from.rawValue), AttributeKey(to.rawValue))
        return Middleware { event in
            guard event.attribute(.category) == .string(ValuePropositionEvent.category),
                let start = event.attribute(fromKey)?.double,
                let end = event.attribute(toKey)?.double
            else { return event }
            var changed = event
            let difference = end - start
            changed.attributes[key] =
                difference.rounded() == difference && abs(difference) < 9e15
                ? .int(Int64(difference)) : .double(difference)
            return changed
        }
    }

    /// Whether `key` is one a ``duration(from:to:)`` middleware adds (`durationOpenedCompleted`),
    /// in any case, so that capitalised keys (`Durationopenedcompleted`) count too.
    public static func isDurationKey(_ key: AttributeKey) -> Bool {
        // Every event's attributes are asked about: most are ruled out by their length, without
        // a lowercased copy. A name that matches is ASCII (the only non-ASCII character that
        // lowercases to ASCII is the Kelvin sign, and no status has a k), so it has as many
        // bytes as `duration` and two statuses: from 20 (`durationopenedopened`) to 26.
        guard Self.durationKeyLengths.contains(key.rawValue.utf8.count), let first = key.rawValue.utf8.first,
            first | 0x20 == UInt8(ascii: "d")
        else { return false }
        let name = key.rawValue.lowercased()
        guard name.hasPrefix("duration") else { return false }
        let statuses = name.dropFirst("duration".count)
        return SessionStatus.allCases.contains { first in
            statuses.hasPrefix(first.rawValue)
                && SessionStatus(rawValue: String(statuses.dropFirst(first.rawValue.count))) != nil
        }
    }

    /// The lengths of the names ``isDurationKey(_:)`` accepts.
    private static let durationKeyLengths: ClosedRange<Int> = {
        let lengths = SessionStatus.allCases.map(\.rawValue.utf8.count)
        let prefix = "duration".utf8.count
        return (prefix + 2 * (lengths.min() ?? 0))...(prefix + 2 * (lengths.max() ?? 0))
    }()

    /// Skips events whose `category` attribute is `category`.
    public static func skipCategory(_ category: String) -> Middleware {
        Middleware { event in event.attribute(.category) == .string(category) ? nil : event }
    }

    /// Skips events with one of these names.
    public static func skipNames(_ names: Set<String>) -> Middleware {
        Middleware { event in names.contains(event.name) ? nil : event }
    }

    /// `text` capitalised as Foundation's `capitalized` does.
    static func capitalised(_ text: String) -> String {
        var result = ""
        var previousIsLetter = false
        for character in text {
            result += previousIsLetter ? character.lowercased() : character.uppercased()
            previousIsLetter = character.isLetter
        }
        return result
    }
}

extension Array where Element == Middleware {
    /// The event after every middleware in order, or `nil` when one skips it.
    public func apply(to event: ValuePropositionEvent) -> ValuePropositionEvent? {
        var current = event
        for middleware in self {
            guard let next = middleware.apply(to: current) else { return nil }
            current = next
        }
        return current
    }
}
