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

    /// Decodes `block` with `decoder`, each record's digest and misspelling worked out as it is
    /// made.
    init(decoding block: LineBlock, with decoder: RecordDecoder, spelling: inout ActionSpelling) {
        var keyDigests: [UInt64] = []
        keyDigests.reserveCapacity(block.lineCount)
        var misspelt: [(entry: Int, misspelling: Misspelling)] = []
        decoded = decoder.decode(block) { entry in
            switch entry {
            case .record(let record, _):
                if let misspelling = Misspelling(of: record, spelling: &spelling) {
                    misspelt.append((keyDigests.count, misspelling))
                }
                keyDigests.append(EventTimeMerge.keyDigest(of: record))
            case .rejected:
                keyDigests.append(0)
            }
        }
        self.keyDigests = keyDigests
        self.misspelt = misspelt
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
