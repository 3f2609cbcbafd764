import EventLog
import EventModel
import Foundation
import OpenAVT
import Replay
import ReportEncoding

/// `--state FILE`: what a run leaves for the next one to go on with, so that runs over
/// consecutive inputs write the rows one run over all of them writes.
///
/// The file holds state machines, never records: its size follows the lives open at the end,
/// not how long they lived nor how many records they had. Its first line is a JSON header,
/// `{"avtReplayState":4,"frontier":<ms>,"released":<ms>,"openFrom":<ms>,"shard":"K/N","lives":<n>,"inputs":[…]}`:
/// the replay's frontier, the time of the last record merged, the time from which the buckets
/// are open, the shard whose lives it keeps (`--shard`), the number of open lives, and every
/// input the runs that led to this state consumed, in order, each as
/// `{"name":"<path as given>","size":<bytes>,"digest":"<16 hex>"}` (``InputIdentity``;
/// standard input, other files that are not regular files, and inputs without a single entry
/// are not listed). Then, when buckets of `summary.csv` and `aggregates.csv` are still open, a
/// JSON line `{"carried":{"summary":…,"page":…,"aggregates":…,"breakdowns":[…]}}` with what
/// they hold (``ReportSet/Carried``): the next run adds it and writes those buckets whole.
/// Then the open lives, by latest record then key, each a frame of a 4-byte little-endian
/// length and its state machines and open rows in ``StateEncoder``'s binary form
/// (``ReplayEngine/OpenLife``; docs/time.md lists what each keeps).
///
/// ``StateFile`` writes it, keeping the state it replaces as `FILE.previous`, from which
/// `--replace-run` replays the last run again.
enum RunState {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The header line's format version: 4 since the state holds state machines (3 and
    /// before held records, and are refused).
    static let version = 4

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
        json.endObject(into: &bytes)
        return bytes
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            if let carried = saved.carried {
                writer.append(Array(#"{"carried":"#.utf8) + Array(try encoder.encode(carried)) + Array("}\n".utf8))
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

    /// Puts a saved state back: its lives into the engines (each into the one of its key), with both clocks. A missing file is
    /// a first run.
    ///
    /// A state of one shard (`--shard K/N`) goes on only in the same shard: another `N` would
    /// put lives in other shards than the ones that hold them (and lose or repeat them). An
    /// unsharded state goes on in any shard, which takes its own lives from it.
    static func load(
        from path: String, into engines: inout ReplayEngines, merge: inout EventTimeMerge, shard: Shard? = nil
    ) throws(Failure) -> Loaded {
        guard FileManager.default.fileExists(atPath: path) else { return Loaded() }
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "\(path): the state file cannot be read")
        }
        var decoder = StateDecoder()
        decoder.userInfo[ReplayEngine.RestoredLife.contextKey] = engines.restoringContext
        var loaded = Loaded()
        let parsed: (Header, [ReplayEngine.RestoredLife])
        do {
            parsed = try contents.withUnsafeBytes { bytes in
                var frames = StateFrames(bytes: bytes, path: path)
                let header = try Header(try frames.line(), path: path)
                if frames.startsWith(#"{"carried":"#) {
                    let line = try frames.line()
                    do {
                        let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
                        let carried = try JSONSerialization.data(withJSONObject: object?["carried"] ?? [:])
                        loaded.carried = try JSONDecoder().decode(ReportSet.Carried.self, from: carried)
                    } catch {
                        throw Failure(description: "\(path): the open buckets cannot be read (\(error))")
                    }
                }
                var restored: [ReplayEngine.RestoredLife] = []
                while let frame = try frames.frame() {
                    do {
                        restored.append(try decoder.decode(ReplayEngine.RestoredLife.self, from: frame))
                    } catch let error as ComponentStateError {
                        throw Failure(description: "\(path): open life \(restored.count + 1): \(error)")
                    } catch {
                        throw Failure(
                            description: "\(path): open life \(restored.count + 1) cannot be restored (\(error))")
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
            throw Failure(description: "\(path): the state file's count of lives does not match its contents")
        }
        for life in restored { engines.restore(life) }
        loaded.header = header
        engines.resume(frontier: header.frontier)
        merge.resume(released: header.released)
        loaded.lives = restored.count
        return loaded
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
        /// The inputs consumed (none in a header without them).
        var inputs: [InputIdentity]
        /// The time from which the run that left it kept its buckets open.
        var openFrom: Timestamp?
        /// ``RunState/identity(ofHeaderLine:)``.
        var identity: String

        /// Reads the first line of the state file at `path`; refuses one of another version
        /// with what to do.
        init(_ line: UnsafeRawBufferPointer, path: String) throws(Failure) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                let format = object["avtReplayState"] as? Int
            else { throw RunState.badHeader(path) }
            guard format == RunState.version else {
                throw Failure(
                    description: "\(path) is a state file of format \(format), "
                        + (format < RunState.version
                            ? "written by an earlier avt-replay, which kept the records of the open lives; this one "
                                + "keeps their state machines (format \(RunState.version)) and cannot go on from it. "
                                + "End that series with the version that wrote it (--state \(path) --finish, no input), "
                                + "then start a new series with a new state file"
                            : "written by a later avt-replay than this one (format \(RunState.version)): run that version")
                )
            }
            guard let lives = object["lives"] as? Int else { throw RunState.badHeader(path) }
            self.lives = lives
            identity = RunState.identity(ofHeaderLine: line)
            openFrom = (object["openFrom"] as? Int).map { Timestamp(milliseconds: Int64($0)) }
            shard = nil
            if let text = object["shard"] as? String {
                let parts = text.split(separator: "/").compactMap { Int($0) }
                guard parts.count == 2, let kept = Shard(parts[0], of: parts[1]) else { throw RunState.badHeader(path) }
                shard = kept
            }
            frontier = (object["frontier"] as? Int).map { Timestamp(milliseconds: Int64($0)) }
            released = (object["released"] as? Int).map { Timestamp(milliseconds: Int64($0)) }
            inputs = []
            if let listed = object["inputs"] {
                guard let entries = listed as? [[String: Any]] else { throw RunState.badHeader(path) }
                for entry in entries {
                    guard let name = entry["name"] as? String, let size = entry["size"] as? Int, size >= 0,
                        let digest = (entry["digest"] as? String).flatMap(InputIdentity.digest(fromText:))
                    else { throw RunState.badHeader(path) }
                    inputs.append(InputIdentity(name: name, size: Int64(size), digest: digest))
                }
            }
        }
    }
}

/// Reads a state file's parts in order: its text lines (the header, the open buckets), then
/// its lives, each a frame of a 4-byte little-endian length and that many bytes of
/// ``StateEncoder``'s encoding. Every read is checked against the file's end.
private struct StateFrames {
    let bytes: UnsafeRawBufferPointer
    let path: String
    private var offset = 0

    init(bytes: UnsafeRawBufferPointer, path: String) {
        self.bytes = bytes
        self.path = path
    }

    func startsWith(_ prefix: String) -> Bool {
        bytes[offset...].starts(with: prefix.utf8)
    }

    /// The next text line, without its newline.
    mutating func line() throws(RunState.Failure) -> UnsafeRawBufferPointer {
        guard let end = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) else {
            throw RunState.Failure(description: "\(path): the state file is cut short")
        }
        defer { offset = end + 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<end])
    }

    /// The next life's bytes, or `nil` at the end of the file.
    mutating func frame() throws(RunState.Failure) -> UnsafeRawBufferPointer? {
        guard offset < bytes.count else { return nil }
        guard bytes.count - offset >= 4 else {
            throw RunState.Failure(description: "\(path): the state file is cut short")
        }
        var length = 0
        for index in 0..<4 { length |= Int(bytes[offset + index]) << (8 * index) }
        let start = offset + 4
        guard bytes.count - start >= length else {
            throw RunState.Failure(description: "\(path): the state file is cut short")
        }
        offset = start + length
        return UnsafeRawBufferPointer(rebasing: bytes[start..<offset])
    }
}
