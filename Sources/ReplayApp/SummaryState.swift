import Foundation
import Replay
import ReportEncoding

/// `summary.state`, written by a sharded run (`--shard`): what `merge` needs to rebuild
/// `summary.csv` and `aggregates.csv` (and the `--aggregate` points) for all shards together,
/// and the options the shard ran with, which every shard merged must share.
///
/// One JSON object on one line, keys sorted:
/// `{"aggregate":false,"aggregates":{…},"breakdowns":[…],"format":"avt-replay summary.state","graphiteAggregate":true,"openFrom":<ms>,"options":[…],"page":…,"prefix":"avt","provenance":{…},"shard":1,"shards":3,"state":"<16 hex>","stations":[…],"summary":{…},"trace":true,"valuePropositions":[…],"version":4,"worst":[…]}`.
/// `summary` is the ``KPISummary/State`` (per group of `--group-by` values: the `all` KPIs,
/// every playback's first and last time for `concurrent_peak`, and each bucket's KPIs, with
/// the startup-time sketches as their bucket counts), `aggregates` the
/// ``MetricAggregates/State`` (each row's count, minimum, maximum, and its sums as exact
/// partial sums), `page`, `breakdowns`, `worst`, `valuePropositions`, `stations` and
/// `provenance` what `report.html` needs besides (the KPIs of all groups together with
/// `--group-by` and those of each key alone, the ten worst playbacks, the sessions by name and
/// items by station, and the inputs and options). The same run always writes the
/// same bytes.
struct SummaryState: Codable, JSONLineFile {
    static let formatName = "avt-replay summary.state"
    /// The format version; `merge` reads only this one.
    static let currentVersion = 4

    var format = Self.formatName
    var version = Self.currentVersion
    /// K and N of `--shard K/N`.
    var shard: Int
    var shards: Int
    /// The options that shape the reports (``ReplayCommand/reportOptions``).
    var options: [String]
    /// `--prefix`, whether the aggregates end `metrics.influx` and `metrics.graphite`
    /// (`--aggregate`, `--metrics`), and whether `events.jsonl` was written (`--trace`).
    var prefix: String
    var aggregate: Bool
    var graphiteAggregate: Bool
    var trace: Bool
    var summary: KPISummary.State
    var aggregates: MetricAggregates.State
    /// `report.html`'s: the KPIs of all playbacks together when `--group-by` splits `summary`
    /// (`nil` otherwise), and the worst playbacks kept.
    var page: KPISummary.State?
    /// One summary per `--group-by` key, split by that key alone.
    var breakdowns: [KPISummary.State]
    var worst: [WorstPlaybacks.Entry]
    /// The value-proposition sessions by name and radio items by station.
    var valuePropositions: VPSessionsByName
    var stations: MarconiItemsByStation
    /// The page's provenance: the inputs and options, the same in every shard, and what the
    /// shard counted of them.
    var provenance: HTMLReport.Provenance
    /// With `--state`, the time from which the buckets are still open (epoch milliseconds):
    /// the earliest of the shard's open rows and the end of the input.
    var openFrom: Int64?
    /// With `--state`, the identity of the state the shard left (``RunState/identity(ofHeaderLine:)``),
    /// which `merge` writes into `merge.state` for the next night's shards to check.
    var state: String?

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads a state file.
    static func read(from path: String) throws(Failure) -> SummaryState {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "\(path): cannot be read (not a shard's report folder?)")
        }
        struct Header: Decodable {
            var format: String
            var version: Int
        }
        guard let header = try? JSONDecoder().decode(Header.self, from: data), header.format == formatName else {
            throw Failure(description: "\(path): not an avt-replay summary.state file")
        }
        guard header.version == currentVersion else {
            throw Failure(
                description:
                    "\(path): version \(header.version) of summary.state; this avt-replay reads version \(currentVersion)"
            )
        }
        do {
            return try JSONDecoder().decode(SummaryState.self, from: data)
        } catch {
            throw Failure(description: "\(path): \(error)")
        }
    }
}
