import EventLog
import EventModel
import Foundation
import Replay
import ReportEncoding

/// `--state FILE`: the sessions a run left open, for the next run to go on with.
///
/// The file is an event log whose first line is a header,
/// `{"avtReplayState":1,"watermark":<epoch ms>}`, followed by the records of every session
/// still open, in the order the sessions would close, each session's records in replay
/// order. The next run replays them first (as if from a file whose name sorts before all its
/// inputs), so a session that crosses the end of a run gives the same reports as when both
/// runs' inputs are replayed at once.
enum RunState {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The header line's format version.
    static let version = 1

    /// Writes the engine's open sessions and watermark, whole or not at all.
    static func save(_ engine: ReplayEngine, to path: String) throws(AtomicFile.WriteError) {
        var bytes: [UInt8] = []
        var json = JSONWriter()
        json.beginObject(into: &bytes)
        json.key("avtReplayState", into: &bytes)
        json.int(Int64(version), into: &bytes)
        if let watermark = engine.watermark {
            json.key("watermark", into: &bytes)
            json.int(watermark.milliseconds, into: &bytes)
        }
        json.endObject(into: &bytes)
        json.endLine(into: &bytes)
        for (record, _) in engine.openSessionRecords {
            EventLogEncoder.encode(record, into: &bytes)
        }
        try AtomicFile.write(bytes, to: path)
    }

    /// Puts a saved state back into the engine: the records, then the watermark. A missing
    /// file is a first run; returns the number of records resumed.
    static func load(from path: String, into engine: inout ReplayEngine) throws(Failure) -> Int {
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        var resumed = 0
        var failure: Failure?
        var savedWatermark: Timestamp?
        do {
            let lines = try LineReader(path: path)
            let decoder = RecordDecoder()
            try lines.forEachLine { event in
                guard failure == nil, case .line(let line) = event else {
                    failure = failure ?? Failure(description: "\(path): a line is too long for a state file")
                    return
                }
                if line.number == 1 {
                    guard let watermark = header(Data(line.bytes)) else {
                        failure = Failure(description: "\(path): not an avt-replay state file (bad first line)")
                        return
                    }
                    savedWatermark = watermark
                    return
                }
                switch decoder.decode(line) {
                case .record(let record):
                    resumed += 1
                    engine.restore(record, at: SourcePosition(fileRank: -1, line: line.number))
                case .rejected(let reason):
                    failure = Failure(description: "\(path):\(line.number): \(reason)")
                }
            }
        } catch {
            throw Failure(description: "\(error)")
        }
        if let failure { throw failure }
        savedWatermark.map { engine.resume(watermark: $0) }
        return resumed
    }

    /// The watermark in a header line: `.some(nil)` for a header without one, `nil` for no header.
    private static func header(_ data: Data) -> Timestamp?? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            object["avtReplayState"] as? Int == version
        else { return nil }
        guard let watermark = object["watermark"] as? Int64 ?? (object["watermark"] as? Int).map(Int64.init) else {
            return .some(nil)
        }
        return .some(Timestamp(milliseconds: watermark))
    }
}
