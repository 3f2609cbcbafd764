import EventLog
import EventModel
import Foundation
import Replay
import Synchronization

/// `avt-replay partition`: one pass over the inputs that splits their lines among the `N`
/// shards of a sharded run, so that each shard reads only its own (docs/sharding.md).
///
/// The folder it writes:
/// - `partition.json` (``PartitionManifest``), written last: the shards, the options the pass
///   depends on, the inputs (path, size, lines) in replay order, the time the input ends, and
///   the problems with whole files.
/// - `K/NNNNN.part` for each shard `K` and each input of rank `NNNNN` (from 00000, in replay
///   order): the lines of that input whose key hashes to shard `K` (the hash of ``Shard``), in
///   their order, and in shard 1 the lines no key owns (lines that are not a record). Each line
///   is `LINE<TAB>TEXT`: its line number in the input, then the line as read; `LINE:TIME<TAB>TEXT`
///   for a record that came late (its place's time, see `EventTimeMerge`), `LINE!<TAB>PREFIX`
///   for a line longer than the limit (its first bytes). Plain text, not compressed: written
///   and read once, soon after.
///
/// A record's place in the merged stream depends only on the lines before it in its own file
/// (docs/time.md), so the pass reads each input on its own, on as many threads as it is given.
package enum Partition {
    /// The manifest's file name.
    package static let manifestName = "partition.json"

    /// The name of the part file of the input of `rank`.
    package static func partName(rank: Int) -> String {
        let digits = String(rank)
        return String(repeating: "0", count: max(0, 5 - digits.count)) + digits + ".part"
    }

    /// Splits `paths` (in replay order) into `out`, which must not exist yet or be an earlier
    /// partition's folder (then it is replaced whole, once the new one is complete).
    package static func run(
        paths: [String], shards: Int, out: String, maxLateness: Int64,
        timestampUnit: RecordDecoder.TimestampUnit?, threads: Int
    ) throws -> PartitionManifest {
        let fileManager = FileManager.default
        let parent = (out as NSString).deletingLastPathComponent
        let staging = (parent.isEmpty ? "." : parent) + "/.\((out as NSString).lastPathComponent).partitioning"
        try? fileManager.removeItem(atPath: staging)
        // An interrupted partition leaves no part of itself.
        let removal = Interruption.register { try? FileManager.default.removeItem(atPath: staging) }
        defer { Interruption.unregister(removal) }
        for shard in 1...shards {
            try fileManager.createDirectory(atPath: "\(staging)/\(shard)", withIntermediateDirectories: true)
        }
        let work = SplitWork(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, paths.count))) { _ in
            while let rank = work.next() {
                let result = split(
                    path: paths[rank], rank: rank, shards: shards, into: staging, maxLateness: maxLateness,
                    timestampUnit: timestampUnit)
                work.finish(rank, result)
            }
        }
        let results = work.results
        var manifest = PartitionManifest(
            shards: shards, maxLateness: maxLateness, timestampUnit: timestampUnit?.rawValue ?? "ms")
        for (rank, path) in paths.enumerated() {
            guard let result = results[rank] else { continue }
            if let failure = result.writeFailure {
                try? fileManager.removeItem(atPath: staging)
                throw AtomicFile.WriteError(path: failure.path, reason: failure.reason)
            }
            manifest.inputs.append(
                .init(path: path, size: InputReader.regularFileSize(path), lines: result.lines))
            if let clock = result.clock?.milliseconds { manifest.end = max(manifest.end ?? clock, clock) }
            if let earliest = result.earliest?.milliseconds {
                manifest.start = min(manifest.start ?? earliest, earliest)
            }
            if let problem = result.problem {
                manifest.problems.append(.init(file: problem.file, message: problem.message))
            }
        }
        try AtomicFile.write(try manifest.encoded(), to: "\(staging)/\(manifestName)")
        let previous = out + ".replaced"
        // From here on the new partition is on its way in: an interruption leaves it be.
        Interruption.unregister(removal)
        if fileManager.fileExists(atPath: out) {
            guard fileManager.fileExists(atPath: "\(out)/\(manifestName)") else {
                try? fileManager.removeItem(atPath: staging)
                throw AtomicFile.WriteError(path: out, reason: "it exists and is not a partition's folder")
            }
            try? fileManager.removeItem(atPath: previous)
            try fileManager.moveItem(atPath: out, toPath: previous)
        }
        try fileManager.moveItem(atPath: staging, toPath: out)
        try? fileManager.removeItem(atPath: previous)
        return manifest
    }

    /// What splitting one input gave.
    fileprivate struct InputResult: Sendable {
        var lines = 0
        /// Its clock at the end (``FileClock``): the latest time its records agree on.
        var clock: Timestamp?
        /// The earliest time among its records.
        var earliest: Timestamp?
        var problem: (file: String, message: String)?
        var writeFailure: (path: String, reason: String)?
    }

    /// Splits one input into its part files, one per shard.
    private static func split(
        path: String, rank: Int, shards: Int, into folder: String, maxLateness: Int64,
        timestampUnit: RecordDecoder.TimestampUnit?
    ) -> InputResult {
        var result = InputResult()
        let writers = (1...shards).map { PartWriter(path: "\(folder)/\($0)/\(partName(rank: rank))") }
        defer {
            for writer in writers where result.writeFailure == nil {
                if let reason = writer.close() { result.writeFailure = (writer.path, reason) }
            }
        }
        if let problem = InputReader.precheck(path) {
            result.problem = (LineReader.displayName(for: path), problem)
            return result
        }
        let decoder = RecordDecoder()
        decoder.timestampUnit = timestampUnit ?? .milliseconds
        var clock = FileClock()
        do {
            let reader = try LineReader(path: path, configuration: InputReader.sourceConfiguration)
            try reader.forEachLine { event in
                result.lines += 1
                switch event {
                case .line(let line):
                    switch decoder.decode(line) {
                    case .record(let record):
                        result.earliest = min(result.earliest ?? record.timestamp, record.timestamp)
                        let keyDigest = EventTimeMerge.keyDigest(of: record)
                        let (time, isJump) = clock.place(
                            of: record.timestamp, keyDigest: keyDigest, maxLateness: maxLateness)
                        let mark =
                            isJump ? PartLine.Mark.jump : time == record.timestamp ? .inOrder : .late(time)
                        let shard = Shard.shard(ofKeyDigest: keyDigest, count: shards)
                        writers[shard - 1].append(line: line.number, mark: mark, text: line.bytes)
                    case .rejected:
                        writers[0].append(line: line.number, mark: .inOrder, text: line.bytes)
                    }
                case .tooLong(let number, let prefix):
                    writers[0].append(line: number, mark: .tooLong, text: prefix)
                }
            }
        } catch let error as EventLogError {
            result.problem = (error.file, error.message)
        } catch {
            result.problem = (LineReader.displayName(for: path), "\(error)")
        }
        result.clock = clock.time
        return result
    }
}

/// The part file of one input for one shard, written through a buffer.
private final class PartWriter {
    let path: String
    private var buffer: [UInt8] = []
    private var handle: FileHandle?
    private var failure: String?

    init(path: String) {
        self.path = path
        if FileManager.default.createFile(atPath: path, contents: nil) {
            handle = FileHandle(forWritingAtPath: path)
        }
        if handle == nil { failure = "cannot create the file" }
        buffer.reserveCapacity(Self.flushSize)
    }

    private static let flushSize = 256 << 10

    func append(line: Int, mark: PartLine.Mark, text: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: String(line).utf8)
        switch mark {
        case .inOrder: break
        case .late(let time):
            buffer.append(UInt8(ascii: ":"))
            buffer.append(contentsOf: String(time.milliseconds).utf8)
        case .jump: buffer.append(UInt8(ascii: "^"))
        case .tooLong: buffer.append(UInt8(ascii: "!"))
        }
        buffer.append(UInt8(ascii: "\t"))
        buffer.append(contentsOf: text)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= Self.flushSize { flush() }
    }

    private func flush() {
        guard let handle, failure == nil, !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            failure = "\(error)"
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered and closes the file; returns why it failed, if it did.
    func close() -> String? {
        flush()
        try? handle?.close()
        handle = nil
        return failure
    }
}

/// The inputs the threads of a partition pass take one at a time, and what each gave.
private final class SplitWork: Sendable {
    private let state: Mutex<(taken: Int, results: [Partition.InputResult?])>
    private let count: Int

    init(count: Int) {
        self.count = count
        state = Mutex((0, Array(repeating: nil, count: count)))
    }

    /// The rank of the next input to split, or `nil` when all are taken.
    func next() -> Int? {
        state.withLock { state in
            guard state.taken < count else { return nil }
            state.taken += 1
            return state.taken - 1
        }
    }

    func finish(_ rank: Int, _ result: Partition.InputResult) {
        state.withLock { $0.results[rank] = result }
    }

    /// What each input gave, by rank.
    var results: [Partition.InputResult?] { state.withLock { $0.results } }
}

/// `partition.json`: what the shards of a partition need to know of the whole input.
package struct PartitionManifest: Codable, Equatable, Sendable, JSONLineFile {
    package struct Input: Codable, Equatable, Sendable {
        /// The path as given to `partition`: what messages and `rejects.jsonl` name.
        package var path: String
        package var size: Int64?
        /// Its lines, blank ones aside.
        package var lines: Int

        init(path: String, size: Int64?, lines: Int) {
            self.path = path
            self.size = size
            self.lines = lines
        }

        private enum CodingKeys: String, CodingKey {
            case path, size, lines
        }

        /// Decodes what the synthesized `encode(to:)` writes, its integers as 64-bit integers.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            path = try container.decode(String.self, forKey: .path)
            size = try container.decodeStoredIfPresent(.size, in: StoredRange.sums)
            lines = Int(try container.decodeStored(.lines, in: StoredRange.sums))
        }
    }

    package struct Problem: Codable, Equatable, Sendable {
        package var file: String
        package var message: String
    }

    package var format = "avt-replay partition"
    package var version = 2
    package var shards: Int
    /// `--max-lateness`, in milliseconds, and `--ts-unit`: the places of late records and the
    /// times depend on them, so the shards must replay with the same.
    package var maxLateness: Int64
    package var timestampUnit: String
    /// The inputs, in replay order: the part files' ranks.
    package var inputs: [Input] = []
    /// The latest time of any record, in epoch milliseconds: where the clock of a run over all
    /// of them ends.
    package var end: Int64?
    /// The earliest time of any record, in epoch milliseconds: no row of the input starts
    /// earlier (what a shard of a nightly series keeps its open buckets from, docs/sharding.md).
    package var start: Int64?
    /// Files that could not be read whole.
    package var problems: [Problem] = []

    init(shards: Int, maxLateness: Int64, timestampUnit: String) {
        self.shards = shards
        self.maxLateness = maxLateness
        self.timestampUnit = timestampUnit
    }

    private enum CodingKeys: String, CodingKey {
        case format, version, shards, maxLateness, timestampUnit, inputs, end, start, problems
    }

    /// Decodes what the synthesized `encode(to:)` writes, its integers as 64-bit integers (one
    /// that is not is refused at its key); ``locate(_:)`` checks the rest.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        version = try container.decode(Int.self, forKey: .version)
        shards = Int(try container.decodeStored(.shards, in: Int64(Int32.min)...Int64(Int32.max)))
        maxLateness = try container.decodeStored(.maxLateness, in: StoredRange.sums)
        timestampUnit = try container.decode(String.self, forKey: .timestampUnit)
        inputs = try container.decode([Input].self, forKey: .inputs)
        end = try container.decodeStoredIfPresent(.end, in: StoredRange.sums)
        start = try container.decodeStoredIfPresent(.start, in: StoredRange.sums)
        problems = try container.decode([Problem].self, forKey: .problems)
    }

    /// What tells this partition from another: FNV-1a 64 of its manifest, in hex. Shards of
    /// one partition carry it, so that `merge` refuses shards of two.
    package var digest: String {
        hexDigits(of: Shard.fnv1a64((try? encoded()) ?? []))
    }

    /// The manifest of the partition whose shard folder holds every one of `paths` (its part
    /// files), with that folder's shard number; `nil` when they are not part files.
    package static func locate(_ paths: [String]) throws -> (manifest: PartitionManifest, shard: Int, folder: String)? {
        guard let first = paths.first, first.hasSuffix(".part") else { return nil }
        let folder = (first as NSString).deletingLastPathComponent
        let manifestPath = ((folder.isEmpty ? "." : folder) as NSString).deletingLastPathComponent
        let path = (manifestPath.isEmpty ? "." : manifestPath) + "/" + Partition.manifestName
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        struct Format: Decodable {
            var format: String
            var version: Int
        }
        guard let format = try? JSONDecoder().decode(Format.self, from: data), format.format == "avt-replay partition",
            format.version == 2
        else {
            throw Refusal(description: "\(path): not a partition of this version")
        }
        let manifest: PartitionManifest
        do {
            manifest = try JSONDecoder().decode(PartitionManifest.self, from: data)
        } catch {
            throw Refusal(description: "\(path): \(decodingProblem(error))")
        }
        try manifest.check(path: path)
        return (manifest, Int((folder as NSString).lastPathComponent) ?? 0, folder)
    }

    /// Why a `partition.json` is refused.
    package struct Refusal: Error, CustomStringConvertible {
        package var description: String
    }

    /// Refuses what no `partition` writes, naming the field: a number of shards below 1, a
    /// `--max-lateness` outside 0 to 1d, an unknown `--ts-unit`, a size or count of lines
    /// outside ``StoredRange/counts``, a time outside years 0 to 9999, a start after the end.
    private func check(path: String) throws(Refusal) {
        func refusal(_ field: String, _ problem: String) -> Refusal {
            Refusal(description: "\(path): field \(field): \(problem)")
        }
        guard StoredRange.shardCounts.contains(shards) else {
            throw refusal("shards", "\(shards) is not a number of shards (1 to 1,000,000)")
        }
        guard (0...86_400_000).contains(maxLateness) else {
            throw refusal("maxLateness", "\(maxLateness) ms is not a --max-lateness (0 to 1d)")
        }
        guard RecordDecoder.TimestampUnit(rawValue: timestampUnit) != nil else {
            throw refusal("timestampUnit", "\"\(timestampUnit)\" is not a --ts-unit")
        }
        for (index, input) in inputs.enumerated() {
            if let size = input.size, !StoredRange.counts.contains(size) {
                throw refusal("inputs[\(index)].size", "\(size) is not a size in bytes (0 to 2^60)")
            }
            guard StoredRange.counts.contains(Int64(input.lines)) else {
                throw refusal("inputs[\(index)].lines", "\(input.lines) is not a count of lines (0 to 2^60)")
            }
        }
        for (field, time) in [("start", start), ("end", end)] {
            if let time, !StoredRange.times.contains(time) {
                throw refusal(field, "the time \(time) ms is not within years 0 to 9999")
            }
        }
        if let start, let end, start > end { throw refusal("start", "\(start) is after the end, \(end)") }
    }
}
