import EventModel
import Marconi

/// `marconi_items.csv`: one row per played item of a Marconi player, in the order given
/// (the caller orders them by player id, then by the order the items started).
///
/// `title`, `artist`, `station` and `kind` are the item's meta values as text, empty when
/// absent; `first_ts`/`last_ts` are epoch milliseconds; `buffering_ms` and `playing_ms` are
/// integer milliseconds; `max_progress_s` is the largest accepted progress in seconds, in
/// the shortest form that reads back as the same `Double` (`12.5`, `100.0`, and for
/// extreme values an exponent, `1e-05`), the form `metrics.influx` uses for floats, and an
/// empty cell when no progress was accepted; `track_changes` and `errors` are counts.
public enum MarconiItemsReport: CSVReport {
    /// The header, in column order.
    public static let columns = [
        "player", "title", "artist", "station", "kind", "first_ts", "last_ts", "buffering_ms", "playing_ms",
        "max_progress_s", "track_changes", "errors",
    ]

    public static func appendCells(of item: MarconiItemSummary, to csv: inout CSVEncoder, into buffer: inout [UInt8]) {
        csv.appendString(item.player, into: &buffer)
        csv.appendString(item.title, into: &buffer)
        csv.appendString(item.artist, into: &buffer)
        csv.appendString(item.station, into: &buffer)
        csv.appendString(item.kind, into: &buffer)
        csv.appendInt(item.firstTimestamp.milliseconds, into: &buffer)
        csv.appendInt(item.lastTimestamp.milliseconds, into: &buffer)
        csv.appendInt(item.bufferingTime, into: &buffer)
        csv.appendInt(item.playingTime, into: &buffer)
        if let progress = item.maxProgress, progress.isFinite {
            // `description` is the shortest round-trip form; it never needs quoting.
            csv.appendString(progress.description, into: &buffer)
        } else {
            csv.appendEmpty(into: &buffer)
        }
        csv.appendInt(item.trackChanges, into: &buffer)
        csv.appendInt(item.errors, into: &buffer)
    }
}
