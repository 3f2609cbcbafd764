import EventModel
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
        let state: SummaryState
        do {
            state = try JSONDecoder().decode(SummaryState.self, from: data)
        } catch {
            throw Failure(description: "\(path): \(decodingProblem(error))")
        }
        try state.check(path: path)
        return state
    }

    /// Refuses what no shard writes: a shard outside 1 to N, a time outside years 0 to 9999,
    /// a count outside ``StoredRange/counts``, summaries and aggregates their
    /// `init(state:)` refuses (``KPISummary/init(state:)``, ``MetricAggregates/init(state:)``),
    /// naming the field.
    private func check(path: String) throws(Failure) {
        func refusal(_ field: String, _ problem: String) -> Failure {
            Failure(description: "\(path): field \(field): \(problem)")
        }
        guard StoredRange.shardCounts.contains(shards) else {
            throw refusal("shards", "\(shards) is not a number of shards (1 to 1,000,000)")
        }
        guard Shard(shard, of: shards) != nil else {
            throw refusal("shard", "\(shard) of \(shards) is not a shard K of N (1 ≤ K ≤ N)")
        }
        if let openFrom, !StoredRange.times.contains(openFrom) {
            throw refusal("openFrom", "the time \(openFrom) ms is not within years 0 to 9999")
        }
        var summaries = [("summary", summary), ("page", page)]
        for (index, breakdown) in breakdowns.enumerated() { summaries.append(("breakdowns[\(index)]", breakdown)) }
        for case let (name, state?) in summaries {
            do {
                _ = try KPISummary(state: state)
            } catch {
                throw Failure(description: "\(path): field \(name).\(error)")
            }
        }
        do {
            _ = try MetricAggregates(state: aggregates)
        } catch {
            throw Failure(description: "\(path): field aggregates.\(error)")
        }
    }

    /// Refuses shards whose counts and sums, added up as `merge` adds them, overflow or pass
    /// 2⁶⁰ (checked arithmetic): each shard's were checked when read, and what `merge` adds up
    /// of several is bounded by the sums of their magnitudes, added up here. Names the file
    /// that makes them pass, and the field.
    static func checkSums(of shards: [(path: String, state: SummaryState)]) throws(Failure) {
        var summary = KPIs()
        var page = KPIs()
        var breakdowns: [KPIs] = []
        var values: Int64 = 0
        var valuePropositions = VPSessionsByName()
        var stations = MarconiItemsByStation()
        var provenance: [String: Int64] = [:]
        for (path, state) in shards {
            func add(_ field: String, _ value: Int64) throws(Failure) {
                guard let sum = StoredRange.add(provenance[field, default: 0], value) else {
                    throw Failure(
                        description: "\(path): field \(field): added up with the shards before it, more than 2^60")
                }
                provenance[field] = sum
            }
            do {
                try summary.addMagnitudes(checking: try state.summary.magnitudes())
                if let state = state.page { try page.addMagnitudes(checking: try state.magnitudes()) }
                for (index, breakdown) in state.breakdowns.enumerated() {
                    if breakdowns.count <= index { breakdowns.append(KPIs()) }
                    try breakdowns[index].addMagnitudes(checking: try breakdown.magnitudes())
                }
                guard let sum = StoredRange.add(values, try state.aggregates.countOfValues()) else {
                    throw StateError("aggregates.rows: the counts, added up with the shards before it, pass 2^60")
                }
                values = sum
                try valuePropositions.merge(checking: state.valuePropositions)
                try stations.merge(checking: state.stations)
            } catch {
                throw Failure(description: "\(path): added up with the shards before it: \(error)")
            }
            for (index, input) in state.provenance.inputs.enumerated() {
                try add("provenance.inputs[\(index)].lines", input.lines)
                try add("provenance.inputs[\(index)].rejected", input.rejected)
                try add("provenance.inputs[\(index)].late", input.late)
            }
            try add("provenance.rejectedLines", state.provenance.rejectedLines)
            try add("provenance.lateRecords", state.provenance.lateRecords)
            try add("provenance.lateRejected", state.provenance.lateRejected)
            if let carried = state.provenance.carried {
                try add("provenance.carried.instruments", carried.instruments)
                try add("provenance.carried.openPlaybacks", carried.openPlaybacks)
                try add("provenance.carried.appSessions", carried.appSessions)
                try add("provenance.carried.openSessions", carried.openSessions)
                try add("provenance.carried.players", carried.players)
                try add("provenance.carried.openItems", carried.openItems)
            }
        }
    }
}

extension SummaryState {
    private enum CodingKeys: String, CodingKey {
        case format, version, shard, shards, options, prefix, aggregate, graphiteAggregate, trace, summary
        case aggregates, page, breakdowns, worst, valuePropositions, stations, provenance, openFrom, state
    }

    /// Decodes what the synthesized `encode(to:)` writes; its integers must be 64-bit
    /// integers, and the provenance's counts within ``StoredRange/counts`` (refused at their
    /// key); ``check(path:)`` checks the rest.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        version = try container.decode(Int.self, forKey: .version)
        shard = Int(try container.decodeStored(.shard, in: 1...Int64(Int32.max)))
        shards = Int(try container.decodeStored(.shards, in: 1...Int64(Int32.max)))
        options = try container.decode([String].self, forKey: .options)
        prefix = try container.decode(String.self, forKey: .prefix)
        aggregate = try container.decode(Bool.self, forKey: .aggregate)
        graphiteAggregate = try container.decode(Bool.self, forKey: .graphiteAggregate)
        trace = try container.decode(Bool.self, forKey: .trace)
        summary = try container.decode(KPISummary.State.self, forKey: .summary)
        aggregates = try container.decode(MetricAggregates.State.self, forKey: .aggregates)
        page = try container.decodeIfPresent(KPISummary.State.self, forKey: .page)
        breakdowns = try container.decode([KPISummary.State].self, forKey: .breakdowns)
        worst = try container.decode([WorstPlaybacks.Entry].self, forKey: .worst)
        valuePropositions = try container.decode(VPSessionsByName.self, forKey: .valuePropositions)
        stations = try container.decode(MarconiItemsByStation.self, forKey: .stations)
        _ = try container.decode(ProvenanceCounts.self, forKey: .provenance)
        provenance = try container.decode(HTMLReport.Provenance.self, forKey: .provenance)
        openFrom = try container.decodeStoredIfPresent(.openFrom, in: StoredRange.sums)
        state = try container.decodeIfPresent(String.self, forKey: .state)
    }

    /// The counts of the page's provenance, each refused at its key outside
    /// ``StoredRange/counts``: what `merge` adds up over the shards.
    private struct ProvenanceCounts: Decodable {
        private enum CodingKeys: String, CodingKey {
            case inputs, rejectedLines, lateRecords, lateRejected, carried
        }

        private struct Input: Decodable {
            private enum CodingKeys: String, CodingKey {
                case size, lines, rejected, late
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                _ = try container.decodeStoredIfPresent(.size, in: StoredRange.counts)
                for key in [CodingKeys.lines, .rejected, .late] {
                    _ = try container.decodeStored(key, in: StoredRange.counts)
                }
            }
        }

        private struct Carried: Decodable {
            private enum CodingKeys: String, CodingKey {
                case instruments, openPlaybacks, appSessions, openSessions, players, openItems
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                for key in [CodingKeys.instruments, .openPlaybacks, .appSessions, .openSessions, .players, .openItems] {
                    _ = try container.decodeStored(key, in: StoredRange.counts)
                }
            }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _ = try container.decode([Input].self, forKey: .inputs)
            for key in [CodingKeys.rejectedLines, .lateRecords, .lateRejected] {
                _ = try container.decodeStored(key, in: StoredRange.counts)
            }
            _ = try container.decodeIfPresent(Carried.self, forKey: .carried)
        }
    }
}
