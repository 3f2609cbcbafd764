/// Where a record came from: the rank of its file among the inputs sorted by name, and its line.
///
/// Positions order records with equal timestamps: line order within a file, and the file
/// whose name sorts first across files (the event-log contract's tie rule).
public struct SourcePosition: Hashable, Comparable, Sendable {
    /// The file's index in the input files sorted by name.
    public var fileRank: Int
    /// The 1-based line number in that file.
    public var line: Int

    public init(fileRank: Int, line: Int) {
        self.fileRank = fileRank
        self.line = line
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.fileRank, lhs.line) < (rhs.fileRank, rhs.line)
    }
}

/// The kinds of record an event log holds (the `type` field).
public enum RecordType: String, Sendable, CaseIterable {
    case avt
    case vp
    case app
    case marconi
}

/// One OpenAVT tracker emit, as recorded (`"type":"avt"`).
public struct AVTRecord: Hashable, Sendable {
    /// When the tracker emitted it.
    public var timestamp: Timestamp
    /// The instrument (one player instance in one app).
    public var instrument: String
    /// The tracker id within the instrument, in ``trackerRange``.
    public var tracker: Int
    /// The action's name.
    public var action: String
    /// The attributes the tracker put on the event, packed while the record waits for its
    /// session to close.
    @usableFromInline package var packedAttributes: PackedAttributes

    /// The attributes the tracker put on the event (unpacked on every read: read them once).
    public var attributes: Attributes {
        get { packedAttributes.unpacked() }
        set { packedAttributes = PackedAttributes(newValue) }
    }

    /// The tracker ids a record may carry. OpenAVT numbers trackers 0, 1, 2, ... as an app adds
    /// them, and replay adds every tracker up to the highest id an instrument uses, so a larger
    /// id is a corrupt record, not a real tracker.
    public static let trackerRange = 0...1023

    public init(timestamp: Timestamp, instrument: String, tracker: Int, action: String, attributes: Attributes = [:]) {
        self.init(
            timestamp: timestamp, instrument: instrument, tracker: tracker, action: action,
            packedAttributes: PackedAttributes(attributes))
    }

    package init(
        timestamp: Timestamp, instrument: String, tracker: Int, action: String, packedAttributes: PackedAttributes
    ) {
        self.timestamp = timestamp
        self.instrument = instrument
        self.tracker = tracker
        self.action = action
        self.packedAttributes = packedAttributes
    }

    /// Records are equal when their fields and attributes are, however the attributes were packed.
    public static func == (lhs: AVTRecord, rhs: AVTRecord) -> Bool {
        lhs.timestamp == rhs.timestamp && lhs.instrument == rhs.instrument && lhs.tracker == rhs.tracker
            && lhs.action == rhs.action
            && (lhs.packedAttributes == rhs.packedAttributes || lhs.attributes == rhs.attributes)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(timestamp)
        hasher.combine(instrument)
        hasher.combine(tracker)
        hasher.combine(action)
        hasher.combine(attributes)
    }
}

/// A decoded line of an event log.
public enum Record: Hashable, Sendable {
    /// An OpenAVT tracker emit.
    case avt(AVTRecord)
    /// A value-proposition action (Tentacles). Not boxed, nor is a Marconi event: boxed, a
    /// session's records kept each in a heap object of its own, allocated as the records were
    /// read and out of the cache when the session was replayed; unboxed they lie in their
    /// session's array.
    case vp(VPRecord)
    /// An app lifecycle event (Tentacles).
    case app(AppRecord)
    /// A Marconi player event.
    case marconi(MarconiRecord)

    /// The address of the memory of an OpenAVT record's packed attributes, for a prefetch
    /// hint (``PackedAttributes/storageAddress``); 0 for other records.
    @inlinable package var attributesStorageAddress: UInt {
        guard case .avt(let record) = self else { return 0 }
        return record.packedAttributes.storageAddress
    }

    /// Gives an OpenAVT record's attributes storage of their own, when they share their
    /// block's (``PackedAttributesArena``): for a record kept long apart from its block, so
    /// that it does not keep the other records' bytes in memory.
    package mutating func keepAttributesApart() {
        guard case .avt(var record) = self else { return }
        record.packedAttributes = record.packedAttributes.keptApart()
        self = .avt(record)
    }

    /// When the record happened.
    public var timestamp: Timestamp {
        switch self {
        case .avt(let record): return record.timestamp
        case .vp(let record): return record.timestamp
        case .app(let record): return record.timestamp
        case .marconi(let record): return record.timestamp
        }
    }
}
