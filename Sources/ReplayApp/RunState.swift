import EventLog
import EventModel
import Foundation
import OpenAVT
import Replay
import ReportEncoding
import TextFormat

/// `--state FILE`: what a run leaves for the next one to go on with, so that runs over
/// consecutive inputs write the rows one run over all of them writes.
///
/// The file holds state machines, never records: its size follows the lives open at the end,
/// not how long they lived nor how many records they had. It has three parts, each with its
/// checksum (CRC-32, ``StateChecksum``), so that a flipped bit anywhere is refused:
///
/// 1. The header, a JSON line:
///    `{"avtReplayState":5,"frontier":<ms>,"released":<ms>,"openFrom":<ms>,"shard":"K/N","lives":<n>,"carried":<bool>,"options":{…},"inputs":[…],"crc32":"<8 hex>"}`:
///    the replay's frontier, the time of the last record merged, the time from which the
///    buckets are open, the shard whose lives it keeps (`--shard`), the number of open lives,
///    whether the open buckets' line follows, the options that shape the replay (``Options``:
///    a run with others is refused, naming the option), and every input the runs that led to
///    this state consumed, in order, each as
///    `{"name":"<path as given>","size":<bytes>,"digest":"<16 hex>"}` (``InputIdentity``;
///    standard input, other files that are not regular files, and inputs without a single
///    entry are not listed). `crc32` is the checksum of the line's bytes before `,"crc32"`.
/// 2. When buckets of `summary.csv` and `aggregates.csv` are still open, a JSON line
///    `{"carried":{"summary":…,"page":…,"aggregates":…,"breakdowns":[…]},"crc32":"<8 hex>"}`
///    with what they hold (``ReportSet/Carried``): the next run adds it and writes those
///    buckets whole.
/// 3. The open lives, by latest record then key, each a frame of a 4-byte little-endian
///    length, its state machines and open rows in ``StateEncoder``'s binary form
///    (``ReplayEngine/OpenLife``; docs/time.md lists what each keeps), and the 4-byte
///    little-endian CRC-32 of the length and those bytes.
///
/// Reading it back checks each part's checksum, the options, then every number (times within
/// years 0 to 9999, counts and sums within 2⁶⁰: ``StoredRange``), and refuses the file,
/// naming the part and the field, rather than go on with what no run wrote.
///
/// ``StateFile`` writes it, keeping the state it replaces as `FILE.previous`, from which
/// `--replace-run` replays the last run again.
enum RunState {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// Whether a part's checksum did not match (``damaged(_:_:)``): `--replace-run` then
        /// goes on from the state before.
        var isDamage = false
    }

    /// The header line's format version: 5 since every part has its checksum and the header
    /// the options (4 had neither, and is refused with how to carry a series over; 3 and
    /// before held records).
    static let version = 5

    /// The options that shape what a state holds and what a run goes on to write with it: a
    /// run whose options differ from the state's is refused, naming the option and both values
    /// (``mismatch(with:path:)``), since it would go on with state machines made otherwise.
    struct Options: Codable, Equatable {
        /// `--hub`, `--prefix`, `--tentacles`, `--idle-gap` (ms), `--metrics`, `--bucket` (ms),
        /// the `--group-by` keys, and the value-proposition middlewares as given, in order.
        var hub: String
        var prefix: String
        var tentacles: String
        var idleGap: Int64
        var metrics: String
        var bucket: Int64
        var groupBy: [String]
        var middlewares: [String]
        /// The type names of the hub, metricalc and backend the instruments are made with (a
        /// replay command of one's own gives its own components, docs/library.md).
        var hubComponent: String
        var metricalcComponent: String
        var backendComponent: String

        private enum CodingKeys: String, CodingKey {
            case hub, prefix, tentacles, idleGap = "idle-gap", metrics, bucket, groupBy = "group-by"
            case middlewares = "vp-middleware", hubComponent = "hub-component"
            case metricalcComponent = "metricalc-component", backendComponent = "backend-component"
        }

        init(
            hub: String, prefix: String, tentacles: String, idleGap: Int64, metrics: String, bucket: Int64,
            groupBy: [String], middlewares: [String], hubComponent: String, metricalcComponent: String,
            backendComponent: String
        ) {
            self.hub = hub
            self.prefix = prefix
            self.tentacles = tentacles
            self.idleGap = idleGap
            self.metrics = metrics
            self.bucket = bucket
            self.groupBy = groupBy
            self.middlewares = middlewares
            self.hubComponent = hubComponent
            self.metricalcComponent = metricalcComponent
            self.backendComponent = backendComponent
        }

        /// Decodes what ``write(into:with:)`` writes; the durations must be from 1 ms to 2⁶⁰.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            hub = try container.decode(String.self, forKey: .hub)
            prefix = try container.decode(String.self, forKey: .prefix)
            tentacles = try container.decode(String.self, forKey: .tentacles)
            idleGap = try container.decodeStored(.idleGap, in: 1...StoredRange.magnitude)
            metrics = try container.decode(String.self, forKey: .metrics)
            bucket = try container.decodeStored(.bucket, in: 1...StoredRange.magnitude)
            groupBy = try container.decode([String].self, forKey: .groupBy)
            middlewares = try container.decode([String].self, forKey: .middlewares)
            hubComponent = try container.decode(String.self, forKey: .hubComponent)
            metricalcComponent = try container.decode(String.self, forKey: .metricalcComponent)
            backendComponent = try container.decode(String.self, forKey: .backendComponent)
        }

        /// Writes the options as a JSON object, in a fixed order.
        func write(into bytes: inout [UInt8], with json: inout JSONWriter) {
            json.beginObject(into: &bytes)
            for (key, value) in [(CodingKeys.hub, hub), (.prefix, prefix), (.tentacles, tentacles)] {
                json.key(key.rawValue, into: &bytes)
                json.string(value, into: &bytes)
            }
            json.key(CodingKeys.idleGap.rawValue, into: &bytes)
            json.int(idleGap, into: &bytes)
            json.key(CodingKeys.metrics.rawValue, into: &bytes)
            json.string(metrics, into: &bytes)
            json.key(CodingKeys.bucket.rawValue, into: &bytes)
            json.int(bucket, into: &bytes)
            for (key, values) in [(CodingKeys.groupBy, groupBy), (.middlewares, middlewares)] {
                json.key(key.rawValue, into: &bytes)
                json.beginArray(into: &bytes)
                for value in values { json.string(value, into: &bytes) }
                json.endArray(into: &bytes)
            }
            for (key, value) in [
                (CodingKeys.hubComponent, hubComponent), (.metricalcComponent, metricalcComponent),
                (.backendComponent, backendComponent),
            ] {
                json.key(key.rawValue, into: &bytes)
                json.string(value, into: &bytes)
            }
            json.endObject(into: &bytes)
        }

        /// Why a run with the options `run` cannot go on from the state at `path`, written with
        /// these: the first option that differs, with both values; `nil` when none does.
        func mismatch(with run: Options, path: String) -> String? {
            func option(_ name: String, _ value: String) -> String { "--\(name) \(value)" }
            func keys(_ keys: [String]) -> String {
                keys.isEmpty ? "no --group-by" : option("group-by", keys.joined(separator: ","))
            }
            func middlewares(_ given: [String]) -> String {
                given.isEmpty ? "no --vp-middleware" : given.map { option("vp-middleware", $0) }.joined(separator: " ")
            }
            let options: [(written: String, given: String)] = [
                (option("hub", hub), option("hub", run.hub)),
                (option("prefix", prefix), option("prefix", run.prefix)),
                (option("tentacles", tentacles), option("tentacles", run.tentacles)),
                (option("idle-gap", durationText(idleGap)), option("idle-gap", durationText(run.idleGap))),
                (option("metrics", metrics), option("metrics", run.metrics)),
                (option("bucket", durationText(bucket)), option("bucket", durationText(run.bucket))),
                (keys(groupBy), keys(run.groupBy)),
                (middlewares(self.middlewares), middlewares(run.middlewares)),
            ]
            let advice =
                "every run of a series, --finish and --replace-run included, gives the options of its first; to "
                + "change them, end the series (--finish) and start a new one (docs/time.md)"
            if let differing = options.first(where: { $0.written != $0.given }) {
                return "\(path): this state was written with \(differing.written); this run gives \(differing.given): "
                    + advice
            }
            let components: [(what: String, written: String, given: String)] = [
                ("hub", hubComponent, run.hubComponent), ("metricalc", metricalcComponent, run.metricalcComponent),
                ("backend", backendComponent, run.backendComponent),
            ]
            if let differing = components.first(where: { $0.written != $0.given }) {
                return "\(path): this state was written with the \(differing.what) \(differing.written); this run's "
                    + "is \(differing.given): \(advice)"
            }
            return nil
        }
    }

    /// What a run leaves.
    struct Saved {
        var frontier: Timestamp?
        var released: Timestamp? = nil
        /// The shard whose lives it keeps (`--shard K/N`), or `nil` for every life.
        var shard: Shard? = nil
        var lives: [ReplayEngine.OpenLife] = []
        /// The inputs consumed, this run's after those of the runs before.
        var inputs: [InputIdentity] = []
        /// The buckets still open.
        var carried: ReportSet.Carried?
        /// The time from which the buckets are open: the earliest open row, or the frontier.
        var openFrom: Timestamp? = nil
        /// The options of the runs (``Options``).
        var options: Options
    }

    /// The header line of a saved state, without its line end.
    static func headerLine(of saved: Saved) -> [UInt8] {
        var bytes: [UInt8] = []
        var json = JSONWriter()
        json.beginObject(into: &bytes)
        json.key("avtReplayState", into: &bytes)
        json.int(Int64(version), into: &bytes)
        if let frontier = saved.frontier {
            json.key("frontier", into: &bytes)
            json.int(frontier.milliseconds, into: &bytes)
        }
        if let released = saved.released {
            json.key("released", into: &bytes)
            json.int(released.milliseconds, into: &bytes)
        }
        if let openFrom = saved.openFrom {
            json.key("openFrom", into: &bytes)
            json.int(openFrom.milliseconds, into: &bytes)
        }
        if let shard = saved.shard {
            json.key("shard", into: &bytes)
            json.string("\(shard.index)/\(shard.count)", into: &bytes)
        }
        json.key("lives", into: &bytes)
        json.int(Int64(saved.lives.count), into: &bytes)
        json.key("carried", into: &bytes)
        json.bool(saved.carried != nil, into: &bytes)
        json.key("options", into: &bytes)
        saved.options.write(into: &bytes, with: &json)
        json.key("inputs", into: &bytes)
        json.beginArray(into: &bytes)
        for input in saved.inputs {
            json.beginObject(into: &bytes)
            json.key("name", into: &bytes)
            json.string(input.name, into: &bytes)
            json.key("size", into: &bytes)
            json.int(input.size, into: &bytes)
            json.key("digest", into: &bytes)
            json.string(input.digestText, into: &bytes)
            json.endObject(into: &bytes)
        }
        json.endArray(into: &bytes)
        // The object is closed by the checksum's member.
        return bytes + StateChecksum.suffix(of: bytes)
    }

    /// What tells one state from another: FNV-1a 64 of its header line (which lists every
    /// input consumed), in hex. A shard's `summary.state` names the state it left, and
    /// `merge.state` those of every shard, so that the next night's shards check that the merge
    /// they are given is of the night they go on from.
    static func identity(ofHeaderLine line: some Sequence<UInt8>) -> String {
        hexDigits(of: Shard.fnv1a64(line))
    }

    /// Writes a state into `writer`, line by line (the lives are never held encoded all at
    /// once); throws when a life cannot be kept (a custom component that cannot save its state,
    /// named in the message).
    static func write(_ saved: Saved, into writer: ReportWriter) throws(Failure) {
        writer.append(headerLine(of: saved) + [UInt8(ascii: "\n")])
        let encoder = JSONEncoder.stateFiles
        do {
            if let carried = saved.carried {
                let body = Array(#"{"carried":"#.utf8) + Array(try encoder.encode(carried))
                writer.append(body + StateChecksum.suffix(of: body) + [UInt8(ascii: "\n")])
            }
        } catch {
            throw Failure(description: "the open buckets cannot be kept: \(error)")
        }
        let lifeEncoder = StateEncoder()
        var frame: [UInt8] = []
        for life in saved.lives {
            do {
                frame.removeAll(keepingCapacity: true)
                frame.append(contentsOf: [0, 0, 0, 0])
                try lifeEncoder.encode(life, into: &frame)
                let length = UInt32(frame.count - 4)
                for index in 0..<4 { frame[index] = UInt8(truncatingIfNeeded: length >> (8 * index)) }
                let crc = StateChecksum.of(frame)
                for index in 0..<4 { frame.append(UInt8(truncatingIfNeeded: crc >> (8 * index))) }
                writer.append(frame)
            } catch let error as ComponentStateError {
                throw Failure(description: "\(error)")
            } catch {
                throw Failure(description: "an open life cannot be kept: \(error)")
            }
        }
    }

    /// Writes a state, whole or not at all.
    static func save(_ saved: Saved, to path: String) throws(AtomicFile.WriteError) {
        let writer = try ReportWriter(path: path)
        do {
            try write(saved, into: writer)
        } catch {
            writer.discard()
            throw AtomicFile.WriteError(path: path, reason: error.description)
        }
        try writer.commit()
    }

    /// What ``load(from:into:merge:)`` found besides the lives it put back.
    struct Loaded {
        /// How many lives it put back.
        var lives = 0
        /// The buckets an earlier run left open.
        var carried: ReportSet.Carried?
        /// The state's header; `nil` for a first run.
        var header: Header?
    }

    /// Puts a saved state back: its lives into the engines (each into the one of its key), with
    /// both clocks. A missing file is a first run.
    ///
    /// Each part's checksum is checked, the header's options against `options` (the run's;
    /// `nil` checks none), and every number read: a damaged part, other options or a number
    /// out of range refuse the state, naming the part and the field or option.
    ///
    /// A state of one shard (`--shard K/N`) goes on only in the same shard: another `N` would
    /// put lives in other shards than the ones that hold them (and lose or repeat them). An
    /// unsharded state goes on in any shard, which takes its own lives from it.
    static func load(
        from path: String, into engines: inout ReplayEngines, merge: inout EventTimeMerge, shard: Shard? = nil,
        options: Options? = nil
    ) throws(Failure) -> Loaded {
        guard FileManager.default.fileExists(atPath: path) else { return Loaded() }
        // An empty file is refused before Foundation reads it (which leaks a page for one).
        guard InputReader.regularFileSize(path) != 0 else {
            throw Failure(description: "\(path): \(Header.part) is cut short or damaged: the file is empty")
        }
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "\(path): the state file cannot be read")
        }
        var decoder = StateDecoder()
        decoder.integerLimit = UInt64(StoredRange.magnitude)
        decoder.userInfo[ReplayEngine.RestoredLife.contextKey] = engines.restoringContext
        var loaded = Loaded()
        let parsed: (Header, [ReplayEngine.RestoredLife])
        do {
            parsed = try contents.withUnsafeBytes { bytes in
                var frames = StateFrames(bytes: bytes, path: path)
                let header = try Header(try frames.line(part: Header.part), path: path)
                if let options, let mismatch = header.options.mismatch(with: options, path: path) {
                    throw Failure(description: mismatch)
                }
                if header.hasCarried { loaded.carried = try carried(try frames.line(part: carriedPart), path: path) }
                var restored: [ReplayEngine.RestoredLife] = []
                while let frame = try frames.frame(number: restored.count + 1) {
                    do {
                        restored.append(try decoder.decode(ReplayEngine.RestoredLife.self, from: frame))
                    } catch let error as ComponentStateError {
                        throw Failure(description: "\(path): open life \(restored.count + 1): \(error)")
                    } catch {
                        throw Failure(
                            description: "\(path): open life \(restored.count + 1) cannot be restored "
                                + "(\(decodingProblem(error)))")
                    }
                }
                return (header, restored)
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "\(path): \(error)")
        }
        let (header, restored) = parsed
        if let kept = header.shard, kept != shard {
            let this = shard.map { "shard \($0.index)/\($0.count)" } ?? "a run without --shard"
            throw Failure(
                description: "\(path) keeps the lives of shard \(kept.index)/\(kept.count); this is \(this). A sharded "
                    + "nightly series keeps its N, and each shard its own state file (docs/sharding.md)")
        }
        guard header.lives == restored.count else {
            throw Failure(
                description: "\(path): the header says \(header.lives) open lives, the file holds \(restored.count): "
                    + "it is cut short or damaged")
        }
        for life in restored { engines.restore(life) }
        loaded.header = header
        engines.resume(frontier: header.frontier)
        merge.resume(released: header.released)
        loaded.lives = restored.count
        return loaded
    }

    /// The name of the open buckets' line in messages.
    private static let carriedPart = "the open buckets' line (line 2)"

    /// The open buckets of the line after the header, its checksum checked.
    private static func carried(_ line: UnsafeRawBufferPointer, path: String) throws(Failure) -> ReportSet.Carried {
        guard StateChecksum.verdict(of: line) == .matches else { throw damaged(path, carriedPart) }
        struct Line: Decodable {
            var carried: ReportSet.Carried
        }
        let carried: ReportSet.Carried
        do {
            carried = try JSONDecoder().decode(Line.self, from: Data(StateChecksum.body(of: line))).carried
        } catch {
            throw Failure(description: "\(path): \(carriedPart): \(decodingProblem(error))")
        }
        // What the run will rebuild from them, checked here to name the part.
        var summaries = [("summary", carried.summary), ("page", carried.page)]
        for (index, breakdown) in (carried.breakdowns ?? []).enumerated() {
            summaries.append(("breakdowns[\(index)]", breakdown))
        }
        for case let (name, state?) in summaries {
            do {
                _ = try KPISummary(state: state)
            } catch {
                throw Failure(description: "\(path): \(carriedPart): field carried.\(name).\(error)")
            }
        }
        if let state = carried.aggregates {
            do {
                _ = try MetricAggregates(state: state)
            } catch {
                throw Failure(description: "\(path): \(carriedPart): field carried.aggregates.\(error)")
            }
        }
        return carried
    }

    /// A part whose checksum does not match its bytes.
    static func damaged(_ path: String, _ part: String) -> Failure {
        let what =
            path.hasSuffix(".previous")
            ? "the last run cannot be replaced: go on from \(path.dropLast(".previous".count)) without "
                + "--replace-run, or start a new series (docs/reruns.md)"
            : "replay the last run again from \(StateFile.previousPath(of: path)) (--replace-run, docs/reruns.md), "
                + "or start a new series"
        return Failure(
            description: "\(path): \(part) is damaged: its checksum does not match its bytes (a flipped bit, a bad "
                + "disk or an edit); \(what)", isDamage: true)
    }

    /// The header of the state file at `path`, read from its first line alone; `nil` when
    /// there is no such file (a first run).
    static func header(at path: String) throws(Failure) -> Header? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        struct FirstLineRead: Error {}
        var header: Result<Header, Failure>?
        do {
            let lines = try LineReader(path: path, configuration: readerConfiguration)
            try lines.forEachLine { event in
                if case .line(let line) = event, line.number == 1 {
                    do throws(Failure) {
                        header = .success(try Header(line.bytes, path: path))
                    } catch {
                        header = .failure(error)
                    }
                }
                throw FirstLineRead()
            }
        } catch is FirstLineRead {
        } catch {
            throw Failure(description: "\(error)")
        }
        guard let header else { throw RunState.badHeader(path) }
        return try header.get()
    }

    /// State files hold long lines: the header lists every input consumed.
    private static let readerConfiguration = LineReaderConfiguration(maxLineLength: 256 << 20)

    private static func badHeader(_ path: String) -> Failure {
        Failure(description: "\(path): not an avt-replay state file of version \(version) (bad first line)")
    }

    /// The first line's fields.
    struct Header {
        var frontier: Timestamp?
        var released: Timestamp?
        var lives: Int
        /// The shard whose lives the state keeps, if one.
        var shard: Shard?
        /// The inputs consumed.
        var inputs: [InputIdentity]
        /// The time from which the run that left it kept its buckets open.
        var openFrom: Timestamp?
        /// Whether the open buckets' line follows.
        var hasCarried: Bool
        /// The options of the runs that led to it.
        var options: Options
        /// ``RunState/identity(ofHeaderLine:)``.
        var identity: String

        /// The name of the header in messages.
        static let part = "the header (line 1)"

        /// The header's JSON, its numbers checked as they are decoded: times within years 0 to
        /// 9999, counts within ``StoredRange/counts``.
        private struct Fields: Decodable {
            var frontier: Int64?
            var released: Int64?
            var openFrom: Int64?
            var shard: String?
            var lives: Int64
            var carried: Bool
            var options: Options
            var inputs: [Input]

            private enum CodingKeys: String, CodingKey {
                case frontier, released, openFrom, shard, lives, carried, options, inputs
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                frontier = try container.decodeStoredIfPresent(.frontier, in: StoredRange.times)
                released = try container.decodeStoredIfPresent(.released, in: StoredRange.times)
                openFrom = try container.decodeStoredIfPresent(.openFrom, in: StoredRange.times)
                shard = try container.decodeIfPresent(String.self, forKey: .shard)
                lives = try container.decodeStored(.lives, in: 0...Int64(Int32.max))
                carried = try container.decode(Bool.self, forKey: .carried)
                options = try container.decode(Options.self, forKey: .options)
                inputs = try container.decode([Input].self, forKey: .inputs)
            }

            struct Input: Decodable {
                var name: String
                var size: Int64
                var digest: String

                private enum CodingKeys: String, CodingKey {
                    case name, size, digest
                }

                init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: CodingKeys.self)
                    name = try container.decode(String.self, forKey: .name)
                    size = try container.decodeStored(.size, in: StoredRange.counts)
                    digest = try container.decode(String.self, forKey: .digest)
                }
            }
        }

        /// Reads the first line of the state file at `path`: refuses one whose checksum does
        /// not match, one of another version with what to do, and numbers out of range.
        init(_ line: UnsafeRawBufferPointer, path: String) throws(Failure) {
            let verdict = StateChecksum.verdict(of: line)
            // A checksum that does not match is damage, whatever the version the line says.
            if verdict == .differs { throw RunState.damaged(path, Self.part) }
            struct Format: Decodable {
                var avtReplayState: Int
            }
            let body = verdict == .matches ? StateChecksum.body(of: line) : Array(line)
            guard let format = try? JSONDecoder().decode(Format.self, from: Data(body)).avtReplayState else {
                // This version's header, the place of its checksum damaged.
                if line.starts(with: #"{"avtReplayState":\#(RunState.version),"#.utf8) {
                    throw RunState.damaged(path, Self.part)
                }
                throw RunState.badHeader(path)
            }
            guard format == RunState.version else { throw RunState.otherVersion(format, path) }
            guard verdict == .matches else { throw RunState.damaged(path, Self.part) }
            let fields: Fields
            do {
                fields = try JSONDecoder().decode(Fields.self, from: Data(body))
            } catch {
                throw Failure(description: "\(path): \(Self.part): \(decodingProblem(error))")
            }
            func refusal(_ field: String, _ problem: String) -> Failure {
                Failure(description: "\(path): \(Self.part): field \(field): \(problem)")
            }
            frontier = fields.frontier.map(Timestamp.init(milliseconds:))
            released = fields.released.map(Timestamp.init(milliseconds:))
            openFrom = fields.openFrom.map(Timestamp.init(milliseconds:))
            lives = Int(fields.lives)
            hasCarried = fields.carried
            options = fields.options
            shard = nil
            if let text = fields.shard {
                let parts = text.split(separator: "/").compactMap { Int($0) }
                guard parts.count == 2, let kept = Shard(parts[0], of: parts[1]) else {
                    throw refusal("shard", "\"\(text)\" is not K/N")
                }
                shard = kept
            }
            inputs = []
            for (index, input) in fields.inputs.enumerated() {
                guard let digest = InputIdentity.digest(fromText: input.digest) else {
                    throw refusal("inputs[\(index)].digest", "\"\(input.digest)\" is not 16 hex digits")
                }
                inputs.append(InputIdentity(name: input.name, size: input.size, digest: digest))
            }
            identity = RunState.identity(ofHeaderLine: line)
        }
    }

    /// Refuses a state of another format, with what to do.
    private static func otherVersion(_ format: Int, _ path: String) -> Failure {
        let finish = "(avt-replay --state \(path) --finish, no input, with the series' options)"
        let said: String
        if format > version {
            said = "written by a later avt-replay than this one (format \(version)): run that version"
        } else if format == 4 {
            said =
                "written by an earlier avt-replay, without the checksums and options this one (format \(version)) "
                + "checks, and this one cannot go on from it. Carry the series over: end it with the version that "
                + "wrote the state \(finish), which writes the rows of the lives still open, then go on with this "
                + "version and a new state file (docs/time.md, \"Nightly runs\")"
        } else {
            said =
                "written by an earlier avt-replay, which kept the records of the open lives; this one keeps their "
                + "state machines (format \(version)) and cannot go on from it. End that series with the version "
                + "that wrote it \(finish), then start a new series with a new state file"
        }
        return Failure(description: "\(path) is a state file of format \(format), \(said)")
    }
}

/// Reads a state file's parts in order: its text lines (the header, the open buckets), then
/// its lives, each a frame of a 4-byte little-endian length, that many bytes of
/// ``StateEncoder``'s encoding and the CRC-32 of both. Every read is checked against the file's
/// end, every frame against its checksum.
private struct StateFrames {
    let bytes: UnsafeRawBufferPointer
    let path: String
    private var offset = 0

    init(bytes: UnsafeRawBufferPointer, path: String) {
        self.bytes = bytes
        self.path = path
    }

    /// The next text line, without its newline; `part` names it in messages.
    mutating func line(part: String) throws(RunState.Failure) -> UnsafeRawBufferPointer {
        guard let end = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) else {
            throw RunState.Failure(description: "\(path): \(part) is cut short or damaged: it has no end")
        }
        defer { offset = end + 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<end])
    }

    /// The bytes of open life `number` (its frame's, checked), or `nil` at the end of the file.
    mutating func frame(number: Int) throws(RunState.Failure) -> UnsafeRawBufferPointer? {
        guard offset < bytes.count else { return nil }
        let part = "open life \(number) (at byte \(offset))"
        guard bytes.count - offset >= 8 else {
            throw RunState.Failure(description: "\(path): \(part) is cut short or damaged")
        }
        var length = 0
        for index in 0..<4 { length |= Int(bytes[offset + index]) << (8 * index) }
        let start = offset + 4
        guard bytes.count - start - 4 >= length else {
            throw RunState.Failure(
                description: "\(path): \(part) is cut short or damaged: its length, \(length) bytes, passes the end "
                    + "of the file")
        }
        let end = start + length
        var stored: UInt32 = 0
        for index in 0..<4 { stored |= UInt32(bytes[end + index]) << (8 * index) }
        guard StateChecksum.of(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) == stored else {
            throw RunState.damaged(path, part)
        }
        offset = end + 4
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }
}

/// A duration as its option takes it: `12h`, `1h30m`, `500ms`.
func durationText(_ milliseconds: Int64) -> String {
    guard milliseconds > 0 else { return "\(milliseconds)ms" }
    var rest = milliseconds
    var text = ""
    for (suffix, length) in [("d", Int64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1_000), ("ms", 1)]
    where rest >= length {
        text += "\(rest / length)\(suffix)"
        rest %= length
    }
    return text
}
