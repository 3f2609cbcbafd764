import EventModel
import Foundation
import Replay
import ReportEncoding
import TextFormat

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

    /// Decodes an entry's line; throws what is wrong with it, naming the field (`field 2
    /// (time): …`), when it is not one.
    static func entry(_ line: [UInt8], with decoder: JSONDecoder) throws(Problem) -> Entry {
        do {
            return try decoder.decode(StoredEntry.self, from: Data(line)).entry
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(description: "not an index entry (\(decodingProblem(error)))")
        }
    }

    /// What is wrong with a line of the index.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// The names of an entry's fields, by position (from 1), in messages.
    private static let fieldNames = ["stage", "time", "digest", "rank", "line", "system", "id"]

    /// An entry's line as JSON decodes it: an array of mixed types. Its numbers are checked: a
    /// stage of ``SessionOrder/Stage``, a time within ``StoredRange/times``, a rank and line
    /// number from 0, byte counts within ``StoredRange/counts``, one per file.
    private struct StoredEntry: Decodable {
        var entry: Entry

        init(from decoder: any Decoder) throws {
            var fields = try decoder.unkeyedContainer()
            func problem(_ field: Int, _ what: String) -> Problem {
                let name =
                    field < SessionsIndex.fieldNames.count
                    ? SessionsIndex.fieldNames[field]
                    : "bytes of \(SessionFile.allCases[field - SessionsIndex.fieldNames.count].name)"
                return Problem(description: "field \(field + 1) (\(name)): \(what)")
            }
            func number(_ field: Int, _ range: ClosedRange<Int64>) throws -> Int64 {
                let value: Int64
                do {
                    value = try fields.decode(Int64.self)
                } catch {
                    if let number = try? fields.decode(Double.self) {
                        throw problem(field, "\(number) is not a 64-bit integer")
                    }
                    throw problem(field, decodingProblem(error))
                }
                guard range.contains(value) else {
                    throw problem(field, "\(value) is out of range (\(StoredRange.describe(range)))")
                }
                return value
            }
            let stage = try number(0, 0...2)
            let time = try number(1, StoredRange.times)
            let digest = try number(2, Int64.min...Int64.max)
            let rank = try number(3, 0...Int64(Int32.max))
            let line = try number(4, 0...StoredRange.magnitude)
            let systemName = try fields.decode(String.self)
            let id = try fields.decode(String.self)
            var bytes: [Int] = []
            while !fields.isAtEnd {
                guard bytes.count < SessionFile.allCases.count else {
                    throw Problem(description: "more than \(SessionFile.allCases.count) byte counts")
                }
                bytes.append(Int(try number(SessionsIndex.fieldNames.count + bytes.count, StoredRange.counts)))
            }
            guard bytes.count == SessionFile.allCases.count else {
                throw Problem(description: "\(bytes.count) byte counts for \(SessionFile.allCases.count) files")
            }
            guard let system = MetricSystem(rawValue: systemName), let stage = SessionOrder.Stage(rawValue: Int(stage))
            else { throw problem(5, "\"\(systemName)\" is not a system") }
            entry = Entry(
                order: SessionOrder(
                    stage: stage, time: Timestamp(milliseconds: time), keyDigest: UInt64(bitPattern: digest),
                    position: SourcePosition(fileRank: Int(rank), line: Int(line)),
                    key: SessionKey(system: system, id: id)),
                bytes: bytes)
        }
    }
}
