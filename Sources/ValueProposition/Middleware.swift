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

    /// Capitalises every attribute key as Foundation's `capitalized` does
    /// (`capitalised(_:)`: `valuePropositionSessionId` → `Valuepropositionsessionid`,
    /// `started_1` → `Started_1`).
    ///
    /// Keys that capitalise alike (`title` and `Title`) leave one attribute: that of the key
    /// last in UTF-8 byte order (`title`). Tentacles assigns them in its dictionary's order,
    /// which changes from run to run; a fixed order keeps the reports byte-identical.
    public static let capitalisedAttributeKeys = Middleware { event in
        var changed = event
        var capitalisedAttributes = Attributes(minimumCapacity: event.attributes.count)
        for key in event.attributes.keys.sorted() {
            capitalisedAttributes[AttributeKey(capitalised(key.rawValue))] = event.attributes[key]
        }
        changed.attributes = capitalisedAttributes
        return changed
    }

    /// Adds `duration<From><To>` (e.g. `durationOpenedCompleted`), the milliseconds between the
    /// first time the session reached `from` and the first time it reached `to`, to the events
    /// of a value-proposition category (`valueProposition`, or `domainActivity` in later Tentacles)
    /// that have both status timestamps.
    public static func duration(from: SessionStatus, to: SessionStatus) -> Middleware {
        let key = AttributeKey("duration" + capitalised(from.rawValue) + capitalised(to.rawValue))
        let (fromKey, toKey) = (AttributeKey(from.rawValue), AttributeKey(to.rawValue))
        return Middleware { event in
            guard TentaclesVersion.isValuePropositionCategory(event.attribute(.category)),
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
    package static func isDurationKey(_ key: AttributeKey) -> Bool {
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

    /// The lengths of the names ``isDurationKey(_:)`` accepts: `duration` and two statuses,
    /// from `durationopenedopened` (20 bytes) to `durationcompletedcompleted` (26). A literal:
    /// made from the statuses, it was a global, and reading it a call, on every attribute of
    /// every value-proposition event (`DurationKeyTests` checks both ends).
    private static var durationKeyLengths: ClosedRange<Int> { 20...26 }

    /// Skips events whose `category` attribute is `category`.
    public static func skipCategory(_ category: String) -> Middleware {
        Middleware { event in event.attribute(.category) == .string(category) ? nil : event }
    }

    /// Skips events with one of these names.
    public static func skipNames(_ names: Set<String>) -> Middleware {
        Middleware { event in names.contains(event.name) ? nil : event }
    }

    /// `text` capitalised as Foundation's `capitalized` does, scalar by scalar:
    /// - a cased letter (general category Lu, Ll or Lt) that starts a word takes its titlecase
    ///   form if it is lower-case (`ß` → `Ss`, `ǆ` → `ǅ`) and stays as it is otherwise (`Ǆ`);
    ///   inside a word it takes its lower-case form (`ÉCOLE` → `École`); a cased letter
    ///   continues the word;
    /// - marks, format characters, modifier letters and symbols (Mn, Me, Cf, Lm, Sk) and the
    ///   apostrophes `'` and `’` stay as they are and neither start nor end a word
    ///   (`o'neill` → `O'neill`);
    /// - anything else (digits, other letters, punctuation, spaces) stays as it is and ends the
    ///   word (`a1b` → `A1B`, `a.b` → `A.B`).
    ///
    /// Checked against Foundation on every assigned scalar of the Basic Multilingual Plane
    /// between letters and at the start (`MiddlewareTests`).
    package static func capitalised(_ text: String) -> String {
        var result = ""
        var inWord = false
        for scalar in text.unicodeScalars {
            let category = scalar.properties.generalCategory
            switch category {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter:
                if inWord {
                    result += scalar.properties.lowercaseMapping
                } else if category == .lowercaseLetter {
                    result += scalar.properties.titlecaseMapping
                } else {
                    result.unicodeScalars.append(scalar)
                }
                inWord = true
            case .nonspacingMark, .enclosingMark, .format, .modifierLetter, .modifierSymbol:
                result.unicodeScalars.append(scalar)
            default:
                result.unicodeScalars.append(scalar)
                if scalar != "'" && scalar != "\u{2019}" { inWord = false }
            }
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
