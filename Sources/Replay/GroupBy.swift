import EventModel
import Marconi

/// The dimensions of `--group-by`: keys whose values split the rows of `summary.csv` and
/// `aggregates.csv`, one value per key for each playback, value-proposition session and
/// Marconi item.
///
/// A key is a derived field or an attribute:
/// - `system`: `openavt`, `vp` or `marconi`, for every row;
/// - a playback's `instrument`, and `source_host` (the host of its `source`, see
///   `host(ofURL:)`); otherwise the first value of that attribute on the playback's
///   accepted non-ad events (the moment `title` and `source` are taken);
/// - a value-proposition session's `app` and `name`; otherwise that attribute of the value
///   proposition's identifying attributes;
/// - a Marconi item's `player`; otherwise that key of the item's meta.
///
/// A value missing for a row is the empty string. Numbers and Booleans are written in their
/// usual form (`42`, `1.5`, `true`). Derived fields win over attributes of the same name.
public struct GroupBy: Hashable, Sendable {
    /// The keys, in the order their columns are written.
    public let keys: [String]
    /// The keys read from attributes of a playback's events, captured as they replay.
    let playbackAttributes: [AttributeKey]

    /// No dimension: one row group.
    public static let none = GroupBy([])

    /// Dimensions with these keys, in this order.
    public init(_ keys: [String]) {
        self.keys = keys
        playbackAttributes = keys.filter { !Self.playbackFields.contains($0) }.map { AttributeKey($0) }
    }

    /// The keys that are fields of a row rather than attributes.
    package static let derivedKeys = ["system", "instrument", "source_host", "app", "name", "player"]

    /// Keys that are not attributes of a playback's events.
    private static let playbackFields: Set<String> = ["system", "instrument", "source_host"]

    /// The values of a playback.
    public func values(of playback: PlaybackSummary) -> [String] {
        keys.map { key in
            switch key {
            case "system": return MetricSystem.openavt.rawValue
            case "instrument": return playback.instrument
            case "source_host": return playback.source.map(Self.host(ofURL:)) ?? ""
            default: return playback.groupAttributes[AttributeKey(key)]?.description ?? ""
            }
        }
    }

    /// The values of a value-proposition session.
    public func values(of session: VPSessionSummary) -> [String] {
        keys.map { key in
            switch key {
            case "system": return MetricSystem.vp.rawValue
            case "app": return session.app
            case "name": return session.name
            default: return session.attributes[AttributeKey(key)]?.description ?? ""
            }
        }
    }

    /// The values of a Marconi item.
    public func values(of item: MarconiItemSummary) -> [String] {
        keys.map { key in
            switch key {
            case "system": return MetricSystem.marconi.rawValue
            case "player": return item.player
            default: return item.meta[AttributeKey(key)]?.description ?? ""
            }
        }
    }

    /// The values of a metric that belongs to no row (an OpenAVT metric on an event without
    /// a `playbackId`): its system and source, every other value empty.
    func values(ofUnownedPointFrom system: MetricSystem, source: String) -> [String] {
        keys.map { key in
            switch (key, system) {
            case ("system", _): return system.rawValue
            case ("instrument", .openavt), ("app", .vp), ("player", .marconi): return source
            default: return ""
            }
        }
    }

    /// The host of a URL, in lower case, without user information or port
    /// (`https://user@CDN.example:8443/v/42.m3u8` → `cdn.example`, `http://[::1]:80/` → `::1`);
    /// the empty string when `url` has no `scheme://`.
    package static func host(ofURL url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return "" }
        var authority = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.first == "[" {
            // An IPv6 literal: the host is between the brackets.
            authority = authority.dropFirst().prefix { $0 != "]" }
        } else if let colon = authority.lastIndex(of: ":") {
            authority = authority[..<colon]
        }
        return authority.lowercased()
    }

    /// Compares two rows' values byte-wise, key by key: the order of grouped rows.
    package static func precedes(_ lhs: [String], _ rhs: [String]) -> Bool {
        lhs.lexicographicallyPrecedes(rhs) { $0.precedesInUTF8Order($1) }
    }

    /// The name of a key's column or tag in an output whose own names are `reserved`: the key,
    /// or `group_<key>` when the output already has a column or tag of that name
    /// (`--group-by system` is `group_system` in `aggregates.csv`, beside its `system`).
    package static func columnName(_ key: String, reserved: [String]) -> String {
        reserved.contains(key) ? "group_" + key : key
    }

    /// A CSV header with a column per key after its first column (`bucket`).
    package func header(_ columns: [String]) -> [String] {
        Array(columns.prefix(1)) + keys.map { Self.columnName($0, reserved: columns) } + columns.dropFirst()
    }
}
