import EventLog
import EventModel
import Foundation
import Replay
import ReportEncoding

/// `--state FILE`: what a run leaves for the next one to go on with, so that runs over
/// consecutive inputs give what one run over all of them gives.
///
/// The file is an event log with a few lines of its own. Its first line is a header,
/// `{"avtReplayState":2,"frontier":<ms>,"released":<ms>,"lives":<n>,"waiting":<n>,"inputs":[…]}`:
/// the replay's frontier, the time of the last record merged, the number of open lives and of
/// records still in the reorder window, and every input the runs that led to this state
/// consumed, in order, each as `{"name":"<path as given>","size":<bytes>,"digest":"<16 hex>"}`
/// (``InputIdentity``; standard input, other files that are not regular files, and inputs
/// without a single entry are not listed). A header without `inputs` lists none. Then, when
/// buckets of `summary.csv` and `aggregates.csv` are still open, a line
/// `{"carried":{"summary":…,"page":…,"aggregates":…,"breakdowns":[…]}}` with what they hold (``ReportSet/Carried``):
/// the next run adds it and writes those buckets whole. Then each open life: a line `{"life":<records>,"pendingTrace":<n>,"pendingPoints":<n>}`, then its
/// records in replay order (a life is rebuilt by replaying them; of what they produce, the
/// last `pendingTrace` trace lines and `pendingPoints` points were not written yet). Then the
/// records of the reorder window, which the next run merges with its inputs.
///
/// Each save first keeps the state it replaces as `FILE.previous` (``keepPrevious(of:)``),
/// from which `--replace-run` replays the last run again.
enum RunState {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The header line's format version.
    static let version = 3

    /// What a run leaves.
    struct Saved {
        var frontier: Timestamp?
        var released: Timestamp? = nil
        var lives: [ReplayEngine.SavedLife] = []
        var waiting: [(record: Record, position: SourcePosition)] = []
        /// The inputs consumed, this run's after those of the runs before.
        var inputs: [InputIdentity] = []
        /// The buckets still open.
        var carried: ReportSet.Carried?

        /// The records it holds.
        var recordCount: Int { lives.reduce(0) { $0 + $1.records.count } + waiting.count }
    }

    /// Writes a state, whole or not at all.
    static func save(_ saved: Saved, to path: String) throws(AtomicFile.WriteError) {
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
        json.key("lives", into: &bytes)
        json.int(Int64(saved.lives.count), into: &bytes)
        json.key("waiting", into: &bytes)
        json.int(Int64(saved.waiting.count), into: &bytes)
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
        json.endLine(into: &bytes)
        if let carried = saved.carried {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            do {
                bytes += Array(#"{"carried":"#.utf8) + Array(try encoder.encode(carried)) + Array("}\n".utf8)
            } catch {
                throw AtomicFile.WriteError(path: path, reason: "\(error)")
            }
        }
        for life in saved.lives {
            json.beginObject(into: &bytes)
            json.key("life", into: &bytes)
            json.int(Int64(life.records.count), into: &bytes)
            json.key("pendingTrace", into: &bytes)
            json.int(Int64(life.pendingTrace), into: &bytes)
            json.key("pendingPoints", into: &bytes)
            json.int(Int64(life.pendingPoints), into: &bytes)
            json.endObject(into: &bytes)
            json.endLine(into: &bytes)
            for (record, _) in life.records { EventLogEncoder.encode(record, into: &bytes) }
        }
        for (record, _) in saved.waiting { EventLogEncoder.encode(record, into: &bytes) }
        try AtomicFile.write(bytes, to: path)
    }

    /// What ``load(from:into:merge:input:)`` found besides the lives and records it put back.
    struct Loaded {
        /// How many records it put back.
        var records = 0
        /// The buckets an earlier run left open.
        var carried: ReportSet.Carried?
    }

    /// Puts a saved state back: its lives into the engine, its waiting records into `merge`
    /// as the records of `input`, and both clocks. A missing file is a first run. Restored records are positioned before every input's
    /// (file rank -1), in the order of the file.
    static func load(
        from path: String, into engine: inout ReplayEngine, merge: inout EventTimeMerge, input: Int
    ) throws(Failure) -> Loaded {
        guard FileManager.default.fileExists(atPath: path) else { return Loaded() }
        var loaded = Loaded()
        var records: [(record: Record, position: SourcePosition)] = []
        var lifeHeaders: [(count: Int, trace: Int, points: Int)] = []
        var header: Header?
        var failure: Failure?
        do {
            let lines = try LineReader(path: path, configuration: readerConfiguration)
            let decoder = RecordDecoder()
            try lines.forEachLine { event in
                guard failure == nil, case .line(let line) = event else {
                    failure = failure ?? Failure(description: "\(path): a line is too long for a state file")
                    return
                }
                if line.number == 1 {
                    header = Header(line.bytes)
                    if header == nil { failure = badHeader(path) }
                    return
                }
                let object = try? JSONSerialization.jsonObject(with: Data(line.bytes)) as? [String: Any]
                if let object, let carried = object["carried"] {
                    do {
                        let data = try JSONSerialization.data(withJSONObject: carried)
                        loaded.carried = try JSONDecoder().decode(ReportSet.Carried.self, from: data)
                    } catch {
                        failure = Failure(
                            description: "\(path):\(line.number): the open buckets cannot be read (\(error))")
                    }
                    return
                }
                if let object, let count = object["life"] as? Int {
                    lifeHeaders.append(
                        (count, object["pendingTrace"] as? Int ?? 0, object["pendingPoints"] as? Int ?? 0))
                    return
                }
                switch decoder.decode(line) {
                case .record(let record):
                    records.append((record, SourcePosition(fileRank: -1, line: line.number)))
                case .rejected(let reason):
                    failure = Failure(description: "\(path):\(line.number): \(reason)")
                }
            }
        } catch {
            throw Failure(description: "\(error)")
        }
        if let failure { throw failure }
        guard let header, lifeHeaders.count == header.lives,
            lifeHeaders.reduce(0, { $0 + $1.count }) + header.waiting == records.count
        else {
            throw Failure(description: "\(path): the state file's counts do not match its records")
        }
        var next = 0
        for life in lifeHeaders {
            engine.restore(
                ReplayEngine.SavedLife(
                    records: Array(records[next..<next + life.count]), pendingTrace: life.trace,
                    pendingPoints: life.points))
            next += life.count
        }
        engine.resume(frontier: header.frontier)
        for (record, position) in records[next...] { _ = merge.add(record, at: position, from: input) }
        merge.resume(released: header.released)
        loaded.records = records.count
        return loaded
    }

    /// The header of the state file at `path`, read from its first line alone; `nil` when
    /// there is no such file (a first run).
    static func header(at path: String) throws(Failure) -> Header? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        struct FirstLineRead: Error {}
        var header: Header?
        do {
            let lines = try LineReader(path: path, configuration: readerConfiguration)
            try lines.forEachLine { event in
                if case .line(let line) = event, line.number == 1 { header = Header(line.bytes) }
                throw FirstLineRead()
            }
        } catch is FirstLineRead {
        } catch {
            throw Failure(description: "\(error)")
        }
        guard let header else { throw badHeader(path) }
        return header
    }

    /// Where the state a save replaces is kept: `FILE.previous`.
    static func previousPath(of path: String) -> String { path + ".previous" }

    /// Keeps the state at `path` as ``previousPath(of:)``, whole or not at all, before a save
    /// replaces it: a copy of the file, or an empty state when there is none yet.
    static func keepPrevious(of path: String) throws(AtomicFile.WriteError) {
        let previous = previousPath(of: path)
        if FileManager.default.fileExists(atPath: path) {
            try AtomicFile.copy(path, to: previous)
        } else {
            try save(Saved(frontier: nil), to: previous)
        }
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
        var waiting: Int
        /// The inputs consumed (none in a header without them).
        var inputs: [InputIdentity]

        init?(_ line: UnsafeRawBufferPointer) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                object["avtReplayState"] as? Int == RunState.version, let lives = object["lives"] as? Int,
                let waiting = object["waiting"] as? Int
            else { return nil }
            self.lives = lives
            self.waiting = waiting
            frontier = (object["frontier"] as? Int).map { Timestamp(milliseconds: Int64($0)) }
            released = (object["released"] as? Int).map { Timestamp(milliseconds: Int64($0)) }
            inputs = []
            if let listed = object["inputs"] {
                guard let entries = listed as? [[String: Any]] else { return nil }
                for entry in entries {
                    guard let name = entry["name"] as? String, let size = entry["size"] as? Int, size >= 0,
                        let digest = (entry["digest"] as? String).flatMap(InputIdentity.digest(fromText:))
                    else { return nil }
                    inputs.append(InputIdentity(name: name, size: Int64(size), digest: digest))
                }
            }
        }
    }
}
