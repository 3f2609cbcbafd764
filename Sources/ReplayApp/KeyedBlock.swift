import EventLog
import EventModel
import Replay

/// A decoded block with what the reading thread needs of each record besides the record itself,
/// worked out on the thread that decoded it, so that the reading thread, which every record
/// passes, touches no record's strings: each record's key digest (which orders it among
/// records of the same time and chooses its engine) and the actions that look misspelt.
struct KeyedBlock {
    var decoded: DecodedBlock
    /// Each entry's ``EventTimeMerge/keyDigest(of:)``; 0 for a rejected line.
    let keyDigests: [UInt64]
    /// The entries whose OpenAVT action looks misspelt, in order.
    let misspelt: [(entry: Int, misspelling: Misspelling)]

    init(_ decoded: consuming DecodedBlock, spelling: inout ActionSpelling) {
        var keyDigests: [UInt64] = []
        keyDigests.reserveCapacity(decoded.entries.count)
        var misspelt: [(entry: Int, misspelling: Misspelling)] = []
        decoded.entries.withUnsafeBufferPointer { entries in
            // Read in place: an entry read out of an array is a copy (a retain of each reference
            // it holds, and a release after).
            for index in entries.indices {
                keyDigests.append(entries[index]?.keyDigest ?? 0)
                if let misspelling = entries[index]?.misspelling(spelling: &spelling) {
                    misspelt.append((index, misspelling))
                }
            }
        }
        self.decoded = decoded
        self.keyDigests = keyDigests
        self.misspelt = misspelt
    }
}

extension LogEntry {
    /// A record's ``EventTimeMerge/keyDigest(of:)``; `nil` for a rejected line.
    fileprivate var keyDigest: UInt64? {
        switch self {
        case .record(let record, _): EventTimeMerge.keyDigest(of: record)
        case .rejected: nil
        }
    }

    /// A record's misspelling, if it is an OpenAVT record whose action looks misspelt.
    fileprivate func misspelling(spelling: inout ActionSpelling) -> Misspelling? {
        switch self {
        case .record(let record, _): Misspelling(of: record, spelling: &spelling)
        case .rejected: nil
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
