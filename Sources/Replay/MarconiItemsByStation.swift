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
        for row in try decoder.singleValueContainer().decode([Row].self) {
            byStation[row.station, default: Row(station: row.station)].add(row)
        }
    }

    /// Encodes the ``rows``, in their order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rows)
    }
}
