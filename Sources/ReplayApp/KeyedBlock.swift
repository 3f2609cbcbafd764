import EventLog
import EventModel
import Replay

/// A decoded block with what the reading thread needs of each record besides the record itself,
/// worked out on the thread that decoded it, so that the reading thread, which every record
/// passes, touches no record's strings: each record packed (``PackedRecord``, as it waits in
/// the merge), its key digest (which orders it among records of the same time and chooses its
/// engine), and the actions that look misspelt.
struct KeyedBlock {
    /// The block, its records moved out into ``records``: its entries left are rejected lines.
    var decoded: DecodedBlock
    /// Each entry's record, packed, its line, and its time (kept beside it, so that the reading
    /// thread reads no record's memory); `nil` for a rejected line.
    var records: [(record: PackedRecord, line: Int, timestamp: Timestamp)?]
    /// Each entry's ``EventTimeMerge/keyDigest(of:)``; 0 for a rejected line.
    let keyDigests: [UInt64]
    /// The entries whose OpenAVT action looks misspelt, in order.
    let misspelt: [(entry: Int, misspelling: Misspelling)]

    init(_ decoded: consuming DecodedBlock, spelling: inout ActionSpelling) {
        var records: [(record: PackedRecord, line: Int, timestamp: Timestamp)?] = []
        records.reserveCapacity(decoded.entries.count)
        var keyDigests: [UInt64] = []
        keyDigests.reserveCapacity(decoded.entries.count)
        var misspelt: [(entry: Int, misspelling: Misspelling)] = []
        for index in decoded.entries.indices {
            // A record is moved out, not copied (a retain and a release of each of its
            // references), and freed here, by the thread that made it; rejected lines stay.
            guard case .record? = decoded.entries[index],
                case .record(let record, let line)? = decoded.entries[index].take()
            else {
                records.append(nil)
                keyDigests.append(0)
                continue
            }
            records.append((PackedRecord.make(record), line, record.timestamp))
            keyDigests.append(EventTimeMerge.keyDigest(of: record))
            if let misspelling = Misspelling(of: record, spelling: &spelling) {
                misspelt.append((index, misspelling))
            }
        }
        self.decoded = decoded
        self.records = records
        self.keyDigests = keyDigests
        self.misspelt = misspelt
    }

    /// The block's entries, in order, as it was decoded.
    var entries: [LogEntry] {
        decoded.entries.indices.compactMap { index in
            records[index].map { .record($0.record.record, line: $0.line) } ?? decoded.entries[index]
        }
    }
}

/// An OpenAVT action that looks like a misspelt one of OpenAVT's own, and that one.
struct Misspelling {
    let action: String
    let suggestion: String

    /// The misspelling in `record`'s action, if it is an OpenAVT record whose action looks like one.
    init?(of record: borrowing Record, spelling: inout ActionSpelling) {
        let action: String
        switch record {
        case .avt(let avt): action = avt.action
        default: return nil
        }
        guard let suggestion = spelling.suggestion(for: action) else { return nil }
        self.action = action
        self.suggestion = suggestion
    }
}
