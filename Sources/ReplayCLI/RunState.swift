import EventLog
import EventModel
import Foundation
import Replay
import ReportEncoding

/// `--state FILE`: what a run leaves for the next one to go on with, so that runs over
/// consecutive inputs give what one run over all of them gives.
///
/// The file is an event log with a few lines of its own. Its first line is a header,
/// `{"avtReplayState":2,"frontier":<ms>,"released":<ms>,"lives":<n>,"waiting":<n>}`: the
/// replay's frontier, the time of the last record merged, the number of open lives and of
/// records still in the reorder window. Then each open life: a line
/// `{"life":<records>,"pendingTrace":<n>,"pendingPoints":<n>}`, then its records in replay
/// order (a life is rebuilt by replaying them; of what they produce, the last `pendingTrace`
/// trace lines and `pendingPoints` points were not written yet). Then the records of the
/// reorder window, which the next run merges with its inputs.
enum RunState {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The header line's format version.
    static let version = 2

    /// What a run leaves.
    struct Saved {
        var frontier: Timestamp?
        var released: Timestamp? = nil
        var lives: [ReplayEngine.SavedLife] = []
        var waiting: [(record: Record, position: SourcePosition)] = []

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
        json.endObject(into: &bytes)
        json.endLine(into: &bytes)
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

    /// Puts a saved state back: its lives into the engine, its waiting records into `merge`
    /// as the records of `input`, and both clocks. A missing file is a first run; returns the
    /// number of records resumed. Restored records are positioned before every input's
    /// (file rank -1), in the order of the file.
    static func load(
        from path: String, into engine: inout ReplayEngine, merge: inout EventTimeMerge, input: Int
    ) throws(Failure) -> Int {
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        var records: [(record: Record, position: SourcePosition)] = []
        var lifeHeaders: [(count: Int, trace: Int, points: Int)] = []
        var header: Header?
        var failure: Failure?
        do {
            let lines = try LineReader(path: path)
            let decoder = RecordDecoder()
            try lines.forEachLine { event in
                guard failure == nil, case .line(let line) = event else {
                    failure = failure ?? Failure(description: "\(path): a line is too long for a state file")
                    return
                }
                let object = try? JSONSerialization.jsonObject(with: Data(line.bytes)) as? [String: Any]
                if line.number == 1 {
                    header = object.flatMap(Header.init)
                    if header == nil {
                        failure = Failure(
                            description: "\(path): not an avt-replay state file of version \(version) (bad first line)")
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
        return records.count
    }

    /// The first line's fields.
    private struct Header {
        var frontier: Timestamp?
        var released: Timestamp?
        var lives: Int
        var waiting: Int

        init?(_ object: [String: Any]) {
            guard object["avtReplayState"] as? Int == RunState.version, let lives = object["lives"] as? Int,
                let waiting = object["waiting"] as? Int
            else { return nil }
            self.lives = lives
            self.waiting = waiting
            frontier = (object["frontier"] as? Int).map { Timestamp(milliseconds: Int64($0)) }
            released = (object["released"] as? Int).map { Timestamp(milliseconds: Int64($0)) }
        }
    }
}
