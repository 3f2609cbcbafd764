import EventModel
import Foundation
import HeapModule
import Replay
import ReportEncoding

/// Combines the report folders of the shards of a run (`--shard K/N`) into the reports one
/// unsharded run writes, byte for byte.
///
/// The sessions' rows, lines and points are copied from the shards' files in the order an
/// unsharded run writes them (their ``SessionOrder``, from each shard's `sessions.index`,
/// whose entries are already in that order: a k-way merge); `summary.csv` and
/// `aggregates.csv` (and the `--aggregate` points) are rebuilt from the shards' merged
/// `summary.state`; `rejects.jsonl` from the shards' lines, in its order (``RejectsOrder``).
package struct ShardMerger {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// One shard's folder, read.
    private struct ShardFolder {
        var folder: String
        var state: SummaryState
    }

    private let shards: [ShardFolder]

    /// The shards' common settings.
    package var prefix: String { shards[0].state.prefix }
    package var aggregate: Bool { shards[0].state.aggregate }
    package var graphiteAggregate: Bool { shards[0].state.graphiteAggregate }
    package var trace: Bool { shards[0].state.trace }
    package var bucket: Int64 { shards[0].state.summary.bucket }
    package var groupBy: GroupBy { GroupBy(shards[0].state.summary.groupBy) }
    /// K of each shard, and N.
    package var shardIndices: [Int] { shards.map(\.state.shard) }
    package var shardCount: Int { shards[0].state.shards }
    /// The shards' `--breakdown-min-views` (an option every shard has alike), or the default for
    /// shards written before it was one.
    package var breakdownMinimumViews: Int64 {
        let prefix = "breakdown-min-views="
        let option = shards[0].state.options.first { $0.hasPrefix(prefix) }
        return option.flatMap { Int64($0.dropFirst(prefix.count)) } ?? HTMLReport.Page.defaultBreakdownMinimumViews
    }
    /// What the next night's shards of a nightly series are given (`--previous-merge`): `nil`
    /// when the shards ran without `--state`.
    private var mergeState: MergeState? {
        guard shards.contains(where: { $0.state.state != nil }) else { return nil }
        var states: [String?] = Array(repeating: nil, count: shardCount)
        for shard in shards where states.indices.contains(shard.state.shard - 1) {
            states[shard.state.shard - 1] = shard.state.state
        }
        return MergeState(shards: shardCount, openFrom: shards.compactMap(\.state.openFrom).min(), states: states)
    }

    /// Writes `merge.state` into `folder` (the merged reports' staging folder) when the shards
    /// ran with `--state`.
    package func writeMergeState(into folder: String) throws(AtomicFile.WriteError) {
        guard let state = mergeState else { return }
        let path = (folder as NSString).appendingPathComponent(MergeState.fileName)
        let bytes: [UInt8]
        do {
            bytes = try state.encoded()
        } catch {
            throw AtomicFile.WriteError(path: path, reason: "\(error)")
        }
        try AtomicFile.write(bytes, to: path)
    }

    /// The foot of the page: the inputs and options of every shard, the counts of all of them
    /// added (each shard counts its own records; shard 1 the lines no key owns).
    package var provenance: HTMLReport.Provenance {
        var merged = shards[0].state.provenance
        for shard in shards.dropFirst() {
            let other = shard.state.provenance
            for index in merged.inputs.indices where other.inputs.indices.contains(index) {
                merged.inputs[index].lines += other.inputs[index].lines
                merged.inputs[index].rejected += other.inputs[index].rejected
                merged.inputs[index].late += other.inputs[index].late
            }
            merged.rejectedLines += other.rejectedLines
            merged.lateRecords += other.lateRecords
            merged.lateRejected += other.lateRejected
            if var carried = merged.carried, let more = other.carried {
                carried.instruments += more.instruments
                carried.openPlaybacks += more.openPlaybacks
                carried.appSessions += more.appSessions
                carried.openSessions += more.openSessions
                carried.players += more.players
                carried.openItems += more.openItems
                merged.carried = carried
            }
        }
        return merged
    }

    /// Reads the shards' `summary.state` and checks that they can be merged: shards of one
    /// run (the same N and options), each once.
    package init(folders: [String]) throws(Failure) {
        var shards: [ShardFolder] = []
        for folder in folders {
            do {
                let state = try SummaryState.read(from: Self.path(folder, ReportSet.stateName))
                shards.append(ShardFolder(folder: folder, state: state))
            } catch {
                throw Failure(description: error.description)
            }
        }
        guard let first = shards.first else { throw Failure(description: "no shard folder given") }
        for shard in shards.dropFirst() {
            if shard.state.shards != first.state.shards {
                throw Failure(
                    description:
                        "\(shard.folder) is shard \(shard.state.shard) of \(shard.state.shards), \(first.folder) of \(first.state.shards): merge the shards of one run"
                )
            }
            if let option = zip(shard.state.options, first.state.options).first(where: { $0 != $1 }) {
                throw Failure(
                    description:
                        "\(shard.folder) ran with \(option.0), \(first.folder) with \(option.1): merge the shards of one run"
                )
            }
            if shard.state.options != first.state.options || shard.state.prefix != first.state.prefix
                || shard.state.aggregate != first.state.aggregate
                || shard.state.graphiteAggregate != first.state.graphiteAggregate
                || shard.state.trace != first.state.trace
            {
                throw Failure(description: "\(shard.folder) and \(first.folder) ran with different options")
            }
        }
        var seen: [Int: String] = [:]
        for shard in shards {
            if let other = seen.updateValue(shard.folder, forKey: shard.state.shard) {
                throw Failure(description: "\(other) and \(shard.folder) are both shard \(shard.state.shard)")
            }
        }
        do {
            try SummaryState.checkSums(of: shards.map { (Self.path($0.folder, ReportSet.stateName), $0.state) })
        } catch {
            throw Failure(description: error.description)
        }
        self.shards = shards
    }

    /// Writes the merged reports into `reports` (not committed): the sessions' rows in order,
    /// the rejects, and the summary state. Returns the number of sessions and whether any
    /// input was rejected.
    package func merge(into reports: ReportSet) throws(Failure) -> (sessions: Int, hasRejects: Bool) {
        let rejects = try addShardRejects(to: reports)
        var sessions = 0
        do {
            sessions = try mergeSessions(into: reports)
        } catch {
            throw Failure(description: error.description)
        }
        for shard in shards {
            do {
                let state = shard.state
                let parts = ReportSet.PageParts(
                    page: try state.page.map { state throws(StateError) in try KPISummary(state: state) },
                    breakdowns: try state.breakdowns.map { state throws(StateError) in try KPISummary(state: state) },
                    worst: state.worst, valuePropositions: state.valuePropositions, stations: state.stations)
                try reports.merge(
                    summary: KPISummary(state: state.summary), aggregates: MetricAggregates(state: state.aggregates),
                    page: parts)
            } catch {
                throw Failure(description: "\(Self.path(shard.folder, ReportSet.stateName)): \(error)")
            }
        }
        // The buckets open in any shard (runs with --state) are open in the merged reports.
        if let openFrom = shards.compactMap(\.state.openFrom).min() {
            _ = reports.leaveOpen(from: Timestamp(milliseconds: openFrom))
        }
        return (sessions, rejects > 0)
    }

    /// Adds the lines of the shards' `rejects.jsonl` to `reports`, read a line at a time, each
    /// with its place: every shard writes the rejects of its own records, and shard 1 those of
    /// the lines no key owns; a problem with a whole file, which every shard notes, once.
    /// Returns how many lines were added.
    private func addShardRejects(to reports: ReportSet) throws(Failure) -> Int {
        struct Place: Decodable {
            var file: String
            var line: Int?
        }
        let decoder = JSONDecoder()
        var added = 0
        var fileProblems: Set<[UInt8]> = []
        for shard in shards {
            let path = Self.path(shard.folder, "rejects.jsonl")
            let reader: ShardFileReader
            do {
                reader = try ShardFileReader(path: path)
            } catch {
                throw Failure(description: "\(path): cannot be read")
            }
            var number = 0
            while true {
                let read: [UInt8]?
                do {
                    read = try reader.readLine()
                } catch {
                    throw Failure(description: error.description)
                }
                guard let line = read else { break }
                if line.isEmpty { continue }
                number += 1
                guard let place = try? decoder.decode(Place.self, from: Data(line)) else {
                    throw Failure(description: "\(path):\(number): not a line of rejects.jsonl")
                }
                let bytes = line + [UInt8(ascii: "\n")]
                if place.line == nil, !fileProblems.insert(bytes).inserted { continue }
                reports.appendReject(bytes, file: place.file, line: place.line)
                added += 1
            }
        }
        return added
    }

    /// The next session of one shard, for the k-way merge.
    private struct Next: Comparable {
        var entry: SessionsIndex.Entry
        var shard: Int
        /// Its line in the shard's index, for messages.
        var line: Int

        static func < (lhs: Next, rhs: Next) -> Bool {
            lhs.entry.order < rhs.entry.order
        }

        static func == (lhs: Next, rhs: Next) -> Bool {
            lhs.entry.order == rhs.entry.order
        }
    }

    /// Copies every session's bytes, in order; returns the number of sessions.
    private func mergeSessions(into reports: ReportSet) throws(ShardFileReader.Failure) -> Int {
        let files = SessionFile.allCases.filter { $0 != .trace || trace }
        var indexes: [ShardFileReader] = []
        var readers: [[SessionFile: ShardFileReader]] = []
        // The bytes of each file after its header that the index has not given yet: an entry
        // that gives more is refused before anything is read.
        var unread: [[SessionFile: Int64]] = []
        for shard in shards {
            let index = try ShardFileReader(path: Self.path(shard.folder, ReportSet.indexName))
            guard let header = try index.readLine(), SessionsIndex.isHeader(header) else {
                throw ShardFileReader.Failure(description: "\(index.path): not an index this avt-replay reads")
            }
            indexes.append(index)
            var shardReaders: [SessionFile: ShardFileReader] = [:]
            var sizes: [SessionFile: Int64] = [:]
            for file in files {
                let reader = try ShardFileReader(path: Self.path(shard.folder, file.name))
                if try reader.read(count: file.header.count) != file.header {
                    throw ShardFileReader.Failure(description: "\(reader.path): not the header this avt-replay writes")
                }
                shardReaders[file] = reader
                sizes[file] = (InputReader.regularFileSize(reader.path) ?? 0) - Int64(file.header.count)
            }
            readers.append(shardReaders)
            unread.append(sizes)
        }
        let decoder = JSONDecoder()
        var lines = [Int](repeating: 1, count: shards.count)
        func next(_ shard: Int) throws(ShardFileReader.Failure) -> Next? {
            guard let line = try indexes[shard].readLine() else { return nil }
            lines[shard] += 1
            do {
                return Next(entry: try SessionsIndex.entry(line, with: decoder), shard: shard, line: lines[shard])
            } catch {
                throw ShardFileReader.Failure(description: "\(indexes[shard].path):\(lines[shard]): \(error)")
            }
        }
        var heap = Heap<Next>()
        for shard in shards.indices {
            if let first = try next(shard) { heap.insert(first) }
        }
        var sessions = 0
        var previous: [SessionOrder?] = Array(repeating: nil, count: shards.count)
        while let smallest = heap.popMin() {
            let shard = smallest.shard
            if let last = previous[shard], !(last < smallest.entry.order) {
                throw ShardFileReader.Failure(description: "\(indexes[shard].path): the sessions are out of order")
            }
            previous[shard] = smallest.entry.order
            for file in files {
                guard let reader = readers[shard][file], let left = unread[shard][file] else { continue }
                let count = smallest.entry.bytes[file.rawValue]
                guard Int64(count) <= left else {
                    throw ShardFileReader.Failure(
                        description: "\(indexes[shard].path):\(smallest.line): field \(8 + file.rawValue) (bytes of "
                            + "\(file.name)): \(count) bytes, but \(reader.path) has \(left) left")
                }
                unread[shard][file] = left - Int64(count)
                reports.append(try reader.read(count: count), to: file)
            }
            sessions += 1
            if let following = try next(shard) { heap.insert(following) }
        }
        // What follows the sessions: nothing, but the --aggregate points of the metrics files,
        // which are rebuilt from the merged aggregates.
        for shardReaders in readers {
            for (file, reader) in shardReaders
            where !(aggregate && file == .influx) && !(graphiteAggregate && file == .graphite) {
                if try !reader.readRest().isEmpty {
                    throw ShardFileReader.Failure(description: "\(reader.path): has more than its index lists")
                }
            }
        }
        return sessions
    }

    private static func path(_ folder: String, _ name: String) -> String {
        (folder as NSString).appendingPathComponent(name)
    }
}
