import EventLog
import EventModel
import Foundation
import Replay
import ReportEncoding

/// Reads every input at once, merged by event time (``EventTimeMerge``), and hands what to
/// replay, in order, to a ``ReplayFeed/Item`` sink: every good record, and every problem.
///
/// The input with the lowest clock is read next, a block of lines at a time. An input is
/// opened to read its first record, then closed (*parked*) until the merge needs it: a parked
/// input costs its clock and its first record; an open one its ``EntrySource`` buffers
/// (``sourceConfiguration``). Standard input is never parked.
///
/// With several decode threads, the inputs read continuously (all but those read once, for
/// their first record) are decoded ahead of the merge on that many threads
/// (``BlockDecoding``), while the reading thread merges: it takes the same blocks, in the same
/// order, and hands over the same items.
struct InputReader {
    /// Lines read from an input at a time.
    static let blockLines = 1_024
    /// The buffers of each open input: small, since thousands may be open at once.
    static let sourceConfiguration = LineReaderConfiguration(readSize: 32 << 10, fillSize: 128 << 10)

    var merge: EventTimeMerge
    let rejectLimit: RejectLimit?
    /// What was read: files, bytes, records, late records.
    var counts = RunCounts()
    /// Files with more rejected lines than `rejectLimit` allows.
    var filesOverLimit: [String] = []
    /// Where the records to replay and the problems go, in order (set by ``run(_:)``).
    private var emit: (consuming ReplayFeed.Item) -> Void = { _ in }
    /// The progress line, on a terminal.
    var progress: ProgressLine?
    private var inputs: [Input]
    private let decoder = RecordDecoder()
    /// The partition whose part files are read, if they are.
    private let partition: PartitionManifest?
    /// How many threads decode blocks; 1: the reading thread itself.
    let decodeThreads: Int
    /// The decoding threads, while ``run(_:)`` runs with more than one.
    private var decoding: BlockDecoding?
    /// The input after whose last block the next one was streamed ahead.
    private var streamedAheadAfter: Int?
    /// Whether a `ts` number that looks like seconds is warned of (`--ts-unit` not given).
    private let checksTimestampUnit: Bool
    private var spelling = ActionSpelling()

    /// One input file and what was read of it.
    private struct Input {
        let path: String
        let name: String
        var source: EntrySource?
        /// Entries delivered so far: a parked input skips them when it is opened again.
        var entries = 0
        var lines = 0
        /// Of ``lines``, those of the shard's own: its records, and (shard 1) the lines no key owns.
        var ownLines = 0
        var rejected = 0
        /// Records more than the reorder window later than a record before them.
        var late = 0
        var bytesRead: Int64 = 0
        var ended = false
        /// Whether it was opened: it was read, if only in part.
        var opened = false
        /// Whether `decoding` has its blocks.
        var streamed = false
        /// Records whose `ts` looks like seconds, and whose action looks misspelt (the first
        /// example of each); the misspelt names and their suggestions, the first few.
        var secondsLike: RunWarning?
        /// Records whose time a metric server cannot store (the first example).
        var outsideMetricTimes: RunWarning?
        /// The record furthest behind its input's clock, of those that came late: its key,
        /// line, and how far behind.
        var furthestBehind: (key: SessionKey, line: Int)?
        var furthestBehindBy: Int64 = 0
        /// Records ahead of every input's clock (``EventTimeMerge/Released``): the first
        /// one's key and line, their keys, how many, and how far the furthest is.
        var firstAhead: (key: SessionKey, line: Int)?
        var aheadKeys: Set<SessionKey> = []
        var ahead = 0
        var aheadBy: Int64 = 0
        var misspelt: RunWarning?
        var misspeltNames: [(name: String, suggestion: String)] = []
    }

    /// A reader of `paths`, in the order given (their rank breaks ties between equal times),
    /// into `merge`, which has an input for each of them (and may have more after them).
    /// `timestampUnit` is `--ts-unit`: without it a `ts` number is milliseconds, and one that
    /// looks like seconds is warned of. `decodeThreads` threads decode the inputs (when more
    /// than one) while the reading thread merges.
    ///
    /// With a `partition`, `paths` are the part files of one of its shards (``PartLine``), by
    /// rank: they are read on the reading thread, named by the inputs they were split from,
    /// with the time the whole input ends and its problems with whole files.
    init(
        paths: [String], merge: EventTimeMerge, rejectLimit: RejectLimit?,
        timestampUnit: RecordDecoder.TimestampUnit? = nil, decodeThreads: Int = 1,
        partition: PartitionManifest? = nil
    ) {
        self.merge = merge
        self.rejectLimit = rejectLimit
        self.partition = partition
        self.decodeThreads = partition == nil ? decodeThreads : 1
        if let partition, let end = partition.end { self.merge.observeEnd(Timestamp(milliseconds: end)) }
        if let partition, let start = partition.start { self.merge.observeStart(Timestamp(milliseconds: start)) }
        inputs = paths.enumerated().map { index, path in
            let name = partition.map { $0.inputs[index].path } ?? path
            return Input(path: path, name: LineReader.displayName(for: name))
        }
        decoder.timestampUnit = timestampUnit ?? .milliseconds
        checksTimestampUnit = timestampUnit == nil
    }

    /// What looked wrong in each input, by rank, each kind once with its first example.
    var warningsByInput: [[RunWarning]] {
        inputs.map { input in
            var warnings = [input.secondsLike, input.outsideMetricTimes].compactMap { $0 }
            if let (key, line) = input.furthestBehind {
                warnings.append(
                    .clockBehind(file: input.name, line: line, key: key, by: input.furthestBehindBy, late: input.late))
            }
            if let (key, line) = input.firstAhead {
                warnings.append(
                    .clockAhead(
                        file: input.name, line: line, key: key, count: input.ahead, keys: input.aheadKeys.count,
                        by: input.aheadBy))
            }
            if var misspelt = input.misspelt, let first = input.misspeltNames.first {
                misspelt.fix = "did you mean \(first.suggestion)? Actions are case-sensitive"
                let others = input.misspeltNames.dropFirst().map { "\"\($0.name)\" for \($0.suggestion)" }
                if !others.isEmpty { misspelt.fix += " (also " + others.joined(separator: ", ") + ")" }
                warnings.append(misspelt)
            }
            return warnings
        }
    }

    /// The inputs' names, by rank.
    var names: [String] { inputs.map(\.name) }

    /// Each input's lines and rejected lines, by rank.
    var rejectedByInput: [Int] { inputs.map(\.rejected) }

    /// How many inputs could be opened (and read, if only in part).
    var inputsOpened: Int { inputs.count { $0.opened } }
    /// The records of each input more than the reorder window later than a record before them.
    var lateByInput: [Int] { inputs.map(\.late) }
    /// The lines of each input.
    var linesByInput: [Int] { inputs.map(\.lines) }
    /// The lines of each input that are the shard's own (all of them without a shard).
    var ownLinesByInput: [Int] { inputs.map(\.ownLines) }
    /// With `--shard`, the shard whose records are merged: a record of another shard only moves
    /// its input's clock, and only shard 1 notes the lines no key owns (rejected lines). What
    /// a shard counts and notes is its own: the shards' counts add up to one run's.
    var shard = Shard.all

    /// Reads every input to its end and hands its records to `emit` in event-time order, with
    /// the problems.
    mutating func run(_ emit: @escaping (consuming ReplayFeed.Item) -> Void) {
        self.emit = emit
        // A shard drops most records as soon as they are decoded: not with shared storage.
        decoder.sharesBlockStorage = shard == .all
        if decodeThreads > 1 {
            decoding = BlockDecoding(
                threads: decodeThreads, timestampUnit: decoder.timestampUnit,
                sharesBlockStorage: decoder.sharesBlockStorage)
        }
        defer {
            self.emit = { _ in }
            decoding?.finish()
            decoding = nil
        }
        counts.files = inputs.count
        for problem in partition?.problems ?? [] { note(.file(name: problem.file, message: problem.message)) }
        for index in inputs.indices {
            if let problem = Self.precheck(inputs[index].path) {
                note(.file(name: inputs[index].name, message: problem))
                inputs[index].ended = true
                merge.end(index)
            } else {
                counts.bytes += Self.fileSize(inputs[index].path)
            }
        }
        while let index = merge.inputToRead() {
            read(index)
            release()
        }
        release()
    }

    /// Hands the records the merge lets out on.
    private mutating func release() {
        while let (record, place, ahead) = merge.nextWithPlace() {
            if ahead {
                if counts.ahead == 0, let end = merge.endTime { emit(.advance(end)) }
                noteAhead(record, at: place)
            }
            // Moved into the item (without `consume`, the record was copied: a retain and a
            // release of each of its references).
            emit(.record(consume record, place, movesClock: !ahead))
        }
    }

    /// Reads the next block of `index`'s lines into the merge (its first record only, if the
    /// input was never read: then it is parked).
    private mutating func read(_ index: Int) {
        let isFirstRead = inputs[index].entries == 0 && inputs[index].source == nil
        if let decoding, !isFirstRead || inputs[index].path == "-" {
            readDecoded(index, from: decoding)
            return
        }
        guard let source = open(index) else { return }
        let limit = isFirstRead && inputs[index].path != "-" ? 1 : Self.blockLines
        var more = false
        do {
            more = try source.next(upTo: limit) { entry in
                inputs[index].entries += 1
                take(
                    entry, timestampWasNumber: decoder.lastTimestampWasNumber, from: index,
                    given: partition == nil ? nil : Self.givenPlace(of: source))
            }
        } catch {
            note(.file(name: error.file, message: error.message))
            more = false
        }
        let bytes = source.bytesRead
        counts.bytesRead += bytes - inputs[index].bytesRead
        inputs[index].bytesRead = bytes
        if !more {
            end(index)
        } else if isFirstRead && inputs[index].path != "-" {
            source.close()
            inputs[index].source = nil
        }
        updateProgress(index, limit: limit)
    }

    /// Reads the next block of `index`'s lines into the merge, as ``read(_:)`` does, decoded by
    /// `decoding`; the input is streamed from its first block on.
    private mutating func readDecoded(_ index: Int, from decoding: BlockDecoding) {
        if !inputs[index].streamed {
            guard let source = openBlocks(index) else { return }
            decoding.start(index, source: source)
            inputs[index].streamed = true
        }
        var block = decoding.take(index, decoder: decoder, spelling: &spelling)
        if streamedAheadAfter != index && !block.decoded.isLast && decoding.isCut(index) {
            streamedAheadAfter = index
            streamAhead(after: index, in: decoding)
        }
        var misspelt = block.misspelt.makeIterator()
        var nextMisspelt = misspelt.next()
        for position in block.decoded.entries.indices {
            guard let entry = block.decoded.entries[position].take() else { continue }
            inputs[index].entries += 1
            var misspelling: Misspelling?
            if let next = nextMisspelt, next.entry == position {
                misspelling = next.misspelling
                nextMisspelt = misspelt.next()
            }
            take(
                entry, timestampWasNumber: block.decoded.timestampWasNumber[position], from: index,
                known: (block.keyDigests[position], misspelling))
        }
        if let error = block.decoded.error {
            note(.file(name: error.file, message: error.message))
        }
        counts.bytesRead += block.decoded.bytesRead - inputs[index].bytesRead
        inputs[index].bytesRead = block.decoded.bytesRead
        if block.decoded.isLast {
            end(index)
        }
        updateProgress(index, limit: Self.blockLines)
    }

    /// Starts streaming the input the merge will need once `index` is read (parked, with the
    /// lowest clock of the others; ``BlockDecoding/startAhead(_:source:)``), as `index`'s last
    /// block is cut: what it streams is what ``readDecoded(_:from:)`` would stream later.
    private mutating func streamAhead(after index: Int, in decoding: BlockDecoding) {
        var next: (input: Int, clock: Timestamp)?
        for candidate in inputs.indices where candidate != index {
            let input = inputs[candidate]
            guard !input.ended, !input.streamed, input.path != "-", let clock = merge.clock(of: candidate) else {
                continue
            }
            if next.map({ clock < $0.clock }) ?? true { next = (candidate, clock) }
        }
        // An input that cannot be opened now is left to the merge, which opens it when it needs
        // it and reports the problem in its place.
        guard let next, let source = openBlocks(next.input, reportingProblems: false) else { return }
        decoding.startAhead(next.input, source: source)
        inputs[next.input].streamed = true
    }

    /// Updates the progress line when a block of at most `limit` records of `index` took the
    /// record count past a multiple of 1,024.
    private func updateProgress(_ index: Int, limit: Int) {
        if let progress, counts.records & ~0x3FF != (counts.records - limit) & ~0x3FF {
            progress.update(
                file: index + 1, name: inputs[index].name, bytesDone: counts.bytesRead, records: counts.records)
        }
    }

    /// The input's source, opened (again) where it was left.
    private mutating func open(_ index: Int) -> EntrySource? {
        if let source = inputs[index].source { return source }
        let source: EntrySource
        do {
            source = try EntrySource(
                path: inputs[index].path, configuration: Self.sourceConfiguration, decoder: decoder,
                isPart: partition != nil, displayName: inputs[index].name)
            let skip = inputs[index].entries
            if skip > 0 {
                // A parked input: its first entries are in the merge already.
                _ = try source.next(upTo: skip) { _ in }
                inputs[index].bytesRead = source.bytesRead
            }
        } catch {
            note(.file(name: error.file, message: error.message))
            end(index)
            return nil
        }
        inputs[index].source = source
        inputs[index].opened = true
        return source
    }

    /// The input's blocks, opened where its entries in the merge end, as ``open(_:)`` opens it.
    /// When it cannot be opened, the problem is noted and the input ended, unless
    /// `reportingProblems` is false: then nothing changes.
    private mutating func openBlocks(_ index: Int, reportingProblems: Bool = true) -> LineBlockSource? {
        let source: LineBlockSource
        do {
            source = try LineBlockSource(path: inputs[index].path, configuration: Self.sourceConfiguration)
            try source.skip(inputs[index].entries)
            inputs[index].bytesRead = source.bytesRead
        } catch {
            if reportingProblems {
                note(.file(name: error.file, message: error.message))
                end(index)
            }
            return nil
        }
        inputs[index].opened = true
        return source
    }

    private mutating func end(_ index: Int) {
        inputs[index].source?.close()
        inputs[index].source = nil
        if inputs[index].streamed {
            decoding?.end(index)
        }
        inputs[index].ended = true
        merge.end(index)
        if let rejectLimit, rejectLimit.isExceeded(rejected: inputs[index].rejected, of: inputs[index].lines) {
            filesOverLimit.append(inputs[index].name)
        }
    }

    /// Puts one entry of `index` into the merge, or notes it as rejected. `known`: the record's
    /// key digest and misspelling, when the thread that decoded it worked them out (a
    /// ``KeyedBlock``).
    private mutating func take(
        _ entry: consuming LogEntry, timestampWasNumber: Bool, from index: Int,
        known: (keyDigest: UInt64, misspelling: Misspelling?)? = nil, given: FileClock.GivenPlace? = nil
    ) {
        inputs[index].lines += 1
        switch consume entry {
        case .record(let record, let line):
            let keyDigest = known?.keyDigest ?? EventTimeMerge.keyDigest(of: record)
            guard shard.contains(keyDigest: keyDigest) else {
                merge.observe(record.timestamp, keyDigest: keyDigest, from: index)
                return
            }
            counts.records += 1
            inputs[index].ownLines += 1
            if checksTimestampUnit && timestampWasNumber {
                let milliseconds = record.timestamp.milliseconds
                if milliseconds >= 0 && milliseconds < RunWarning.secondsBound {
                    noteSecondsLike(milliseconds, line: line, in: index)
                }
            }
            if !MetricTimeRange.graphite.contains(record.timestamp) {
                noteOutsideMetricTimes(record.timestamp, line: line, in: index)
            }
            let misspelling = known.map(\.misspelling) ?? Misspelling(of: record, spelling: &spelling)
            if let misspelling {
                noteMisspelt(misspelling.action, suggestion: misspelling.suggestion, line: line, in: index)
            }
            let position = SourcePosition(fileRank: index, line: line)
            // How far behind its input's clock a late record is (a part file's clock is that of
            // its place plus the window), and its key when it is the furthest so far: worked out
            // before the record moves into the merge, and only for a record that comes late.
            let clock: Int64? =
                if case .late(let place) = given { place.milliseconds &+ merge.maxLateness } else {
                    merge.clock(of: index)?.milliseconds
                }
            let behind = clock.map { $0 &- record.timestamp.milliseconds } ?? 0
            let furthest =
                behind > max(merge.maxLateness, inputs[index].furthestBehindBy) ? SessionKey(of: record) : nil
            if merge.add(consume record, at: position, keyDigest: keyDigest, from: index, given: given) == .late {
                inputs[index].late += 1
                counts.late += 1
                if let furthest { noteBehind(furthest, by: behind, line: line, in: index) }
            }
        case .rejected(let rejection):
            guard shard.index == 1 else { return }
            counts.records += 1
            inputs[index].ownLines += 1
            inputs[index].rejected += 1
            note(.line(rejection))
        }
    }

    /// Where the partition put the record a part file's source delivers last.
    private static func givenPlace(of source: EntrySource) -> FileClock.GivenPlace {
        if source.placeIsJump { return .jump }
        return source.placeTime.map { .late($0) } ?? .inOrder
    }

    /// Names the record of `key` that came late at `line` of input `index`, `behind` its clock:
    /// the furthest behind so far.
    private mutating func noteBehind(_ key: SessionKey, by behind: Int64, line: Int, in index: Int) {
        inputs[index].furthestBehindBy = behind
        inputs[index].furthestBehind = (key, line)
    }

    /// Counts a record ahead of every input's clock, naming the first of its input.
    private mutating func noteAhead(_ record: borrowing Record, at place: StreamPlace) {
        let index = place.position.fileRank
        guard inputs.indices.contains(index) else { return }
        let key = SessionKey(of: record)
        let by = place.time.milliseconds &- (merge.endTime?.milliseconds ?? place.time.milliseconds)
        counts.ahead += 1
        inputs[index].ahead += 1
        inputs[index].aheadKeys.insert(key)
        inputs[index].aheadBy = max(inputs[index].aheadBy, by)
        if inputs[index].firstAhead == nil { inputs[index].firstAhead = (key, place.position.line) }
    }

    private mutating func noteOutsideMetricTimes(_ time: Timestamp, line: Int, in index: Int) {
        counts.outsideMetricTimes += 1
        if inputs[index].outsideMetricTimes == nil {
            var warning = RunWarning.outsideMetricTimes(file: inputs[index].name, line: line, time: time)
            warning.count = 0
            inputs[index].outsideMetricTimes = warning
        }
        inputs[index].outsideMetricTimes?.count += 1
    }

    private mutating func noteSecondsLike(_ milliseconds: Int64, line: Int, in index: Int) {
        if inputs[index].secondsLike == nil {
            var warning = RunWarning.secondsLike(file: inputs[index].name, line: line, milliseconds: milliseconds)
            warning.count = 0
            inputs[index].secondsLike = warning
        }
        inputs[index].secondsLike?.count += 1
    }

    private mutating func noteMisspelt(_ action: String, suggestion: String, line: Int, in index: Int) {
        if inputs[index].misspelt == nil {
            inputs[index].misspelt = RunWarning(
                kind: .actionLooksMisspelt, file: inputs[index].name, count: 0, line: line,
                example: "\"action\":\"\(action)\"", fix: "")
        }
        inputs[index].misspelt?.count += 1
        if inputs[index].misspeltNames.count < 4, !inputs[index].misspeltNames.contains(where: { $0.name == action }) {
            inputs[index].misspeltNames.append((action, suggestion))
        }
    }

    /// Hands a problem on.
    private func note(_ problem: InputProblem) {
        emit(.problem(problem))
    }

    /// A reason not to read a file at all: a `.gz` file that is not gzip.
    static func precheck(_ path: String) -> String? {
        guard path != "-", path.hasSuffix(".gz"), let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let magic = (try? handle.read(upToCount: 2)) ?? Data()
        if magic.isEmpty || magic == Data([0x1F, 0x8B]) { return nil }
        return "not a gzip file (it has a .gz name but no gzip header); skipped"
    }

    /// The size of the regular file at `path`; `nil` for standard input and anything else.
    static func regularFileSize(_ path: String) -> Int64? {
        var info = stat()
        guard path != "-", stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        guard path != "-", stat(path, &info) == 0 else { return 0 }
        return Int64(info.st_size)
    }
}
