import EventModel
import Marconi

/// The radio listening of `report.html`, counted by station as lives end.
///
/// Each station (the items' meta `station`; the empty string without one) keeps its items,
/// their listening (`playing_ms`) and buffering (`buffering_ms`) times and their errors;
/// memory grows with the stations, not the items. Merged (``merge(_:)``), the counts are
/// those of both sets of items.
public struct MarconiItemsByStation: Sendable, Equatable {
    /// One station's items.
    public struct Row: Codable, Sendable, Equatable {
        public var station: String
        public var items: Int64 = 0
        public var playingTime: Int64 = 0
        public var bufferingTime: Int64 = 0
        public var errors: Int64 = 0

        /// A station without items yet.
        public init(station: String) {
            self.station = station
        }

        mutating func add(_ other: Row) {
            items += other.items
            playingTime += other.playingTime
            bufferingTime += other.bufferingTime
            errors += other.errors
        }

        /// ``add(_:)`` with checked arithmetic, for rows read from a file: throws, naming the
        /// field, when a sum would pass 2⁶⁰, leaving the row as it was.
        package mutating func add(checking other: Row) throws(StateError) {
            func overflow(_ field: String) -> StateError {
                StateError("the station \"\(station)\": \(field): adds up to more than 2^60")
            }
            guard let items = StoredRange.add(items, other.items) else { throw overflow("items") }
            guard let playingTime = StoredRange.add(playingTime, other.playingTime) else {
                throw overflow("playingTime")
            }
            guard let bufferingTime = StoredRange.add(bufferingTime, other.bufferingTime) else {
                throw overflow("bufferingTime")
            }
            guard let errors = StoredRange.add(errors, other.errors) else { throw overflow("errors") }
            self.items = items
            self.playingTime = playingTime
            self.bufferingTime = bufferingTime
            self.errors = errors
        }

        /// Decodes what the synthesized `encode(to:)` writes; refuses (`dataCorrupted`) a
        /// count outside `StoredRange/counts`, a time outside `StoredRange/sums`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            station = try container.decode(String.self, forKey: .station)
            func count(_ key: CodingKeys, in range: ClosedRange<Int64> = StoredRange.counts) throws -> Int64 {
                try container.decodeStoredIfPresent(key, in: range) ?? 0
            }
            items = try count(.items)
            playingTime = try count(.playingTime, in: StoredRange.sums)
            bufferingTime = try count(.bufferingTime, in: StoredRange.sums)
            errors = try count(.errors)
        }

        private enum CodingKeys: String, CodingKey {
            case station, items, playingTime, bufferingTime, errors
        }
    }

    private var byStation: [String: Row] = [:]

    /// No item yet.
    public init() {}

    /// Counts the items of a closed player life.
    public mutating func add(_ report: SessionReport) {
        for item in report.marconiItems {
            let station = item.station ?? ""
            var row = Row(station: station)
            row.items = 1
            row.playingTime = item.playingTime
            row.bufferingTime = item.bufferingTime
            row.errors = item.errors
            byStation[station, default: Row(station: station)].add(row)
        }
    }

    /// Adds another count's rows.
    public mutating func merge(_ other: MarconiItemsByStation) {
        for (station, row) in other.byStation { byStation[station, default: Row(station: station)].add(row) }
    }

    /// The stations, most items first, then by station (byte-wise).
    public var rows: [Row] {
        byStation.values.sorted { lhs, rhs in
            lhs.items != rhs.items ? lhs.items > rhs.items : lhs.station.precedesInUTF8Order(rhs.station)
        }
    }
}

extension MarconiItemsByStation: Codable {
    /// Decodes the ``rows``, as ``encode(to:)`` writes them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        for row in try container.decode([Row].self) {
            do {
                try byStation[row.station, default: Row(station: row.station)].add(checking: row)
            } catch {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
            }
        }
    }

    /// ``merge(_:)`` with checked arithmetic, for counts read from files (throws as
    /// ``Row/add(checking:)`` does, leaving some rows merged).
    package mutating func merge(checking other: MarconiItemsByStation) throws(StateError) {
        for (station, row) in other.byStation {
            try byStation[station, default: Row(station: station)].add(checking: row)
        }
    }

    /// Encodes the ``rows``, in their order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rows)
    }
}
