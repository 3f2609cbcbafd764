import EventModel
import Foundation
import Replay
import ReportEncoding

/// `sessions.index`, written by a sharded run (`--shard`): where each session's rows are in
/// the files written session by session, so that `merge` can put the sessions of all shards
/// back in the order an unsharded run writes them.
///
/// JSON Lines. The first line is a header,
/// `{"avtReplaySessionsIndex":1,"files":["playbacks.csv",…,"events.jsonl"]}`; then one line
/// per session written, in the order written:
/// `[stage,time,digest,rank,line,"system","id",bytes…]`: the hand-over's ``SessionOrder`` (its
/// stage, 0 for a record, 1 for a deadline, 2 for the end of the input; its time; the record's
/// key digest as a signed 64-bit number, its input's rank and line, or zeros; the life's system
/// and id), and the number of bytes it wrote to each file of the header's `files`, in that
/// order, after the CSV headers.
enum SessionsIndex {
    /// The header line's format version.
    static let version = 2

    /// One session of the index.
    struct Entry {
        var order: SessionOrder
        /// Bytes written to each ``SessionFile``, by its raw value.
        var bytes: [Int]
    }

    /// The header line.
    static func header() -> [UInt8] {
        var buffer: [UInt8] = []
        var json = JSONWriter()
        json.beginObject(into: &buffer)
        json.key("avtReplaySessionsIndex", into: &buffer)
        json.int(Int64(version), into: &buffer)
        json.key("files", into: &buffer)
        json.beginArray(into: &buffer)
        for file in SessionFile.allCases { json.string(file.name, into: &buffer) }
        json.endArray(into: &buffer)
        json.endObject(into: &buffer)
        json.endLine(into: &buffer)
        return buffer
    }

    /// An entry's line.
    static func encode(_ entry: Entry) -> [UInt8] {
        var buffer: [UInt8] = []
        var json = JSONWriter()
        json.beginArray(into: &buffer)
        json.int(Int64(entry.order.stage.rawValue), into: &buffer)
        json.int(entry.order.time.milliseconds, into: &buffer)
        json.int(Int64(bitPattern: entry.order.keyDigest), into: &buffer)
        json.int(Int64(entry.order.position.fileRank), into: &buffer)
        json.int(Int64(entry.order.position.line), into: &buffer)
        json.string(entry.order.key.system.rawValue, into: &buffer)
        json.string(entry.order.key.id, into: &buffer)
        for count in entry.bytes { json.int(Int64(count), into: &buffer) }
        json.endArray(into: &buffer)
        json.endLine(into: &buffer)
        return buffer
    }

    /// Whether `line` is the header this version writes.
    static func isHeader(_ line: [UInt8]) -> Bool {
        line == Array(header().dropLast())
    }

    /// Decodes an entry's line, or returns `nil` when it is not one.
    static func decode(_ line: [UInt8], with decoder: JSONDecoder) -> Entry? {
        try? decoder.decode(StoredEntry.self, from: Data(line)).entry
    }

    /// An entry's line as JSON decodes it: an array of mixed types.
    private struct StoredEntry: Decodable {
        var entry: Entry

        init(from decoder: any Decoder) throws {
            var fields = try decoder.unkeyedContainer()
            let stage = try fields.decode(Int.self)
            let time = try fields.decode(Int64.self)
            let digest = try fields.decode(Int64.self)
            let rank = try fields.decode(Int.self)
            let line = try fields.decode(Int.self)
            let systemName = try fields.decode(String.self)
            let id = try fields.decode(String.self)
            var bytes: [Int] = []
            while !fields.isAtEnd { bytes.append(try fields.decode(Int.self)) }
            guard let system = MetricSystem(rawValue: systemName), let stage = SessionOrder.Stage(rawValue: stage),
                bytes.count == SessionFile.allCases.count,
                bytes.allSatisfy({ $0 >= 0 })
            else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: fields.codingPath, debugDescription: "not an index entry"))
            }
            entry = Entry(
                order: SessionOrder(
                    stage: stage, time: Timestamp(milliseconds: time), keyDigest: UInt64(bitPattern: digest),
                    position: SourcePosition(fileRank: rank, line: line), key: SessionKey(system: system, id: id)),
                bytes: bytes)
        }
    }
}
