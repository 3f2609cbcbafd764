import EventModel

/// What ``RecordDecoder`` made of one line.
public enum DecodedLine: Hashable, Sendable {
    /// A valid record.
    case record(Record)
    /// The line is rejected; `reason` says why, naming fields in double quotes
    /// (`missing "instrument"`, `"tracker" must be an integer`).
    case rejected(reason: String)
}
