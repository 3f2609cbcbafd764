/// The events of a Marconi player (the `event` field of a `marconi` record).
public enum MarconiEventKind: String, Hashable, Sendable, CaseIterable {
    case bufferingStarted
    case bufferingEnded
    case startPlaying
    case newMeta
    case progress
    case trackChanged
    case error
}

/// One Marconi player event, as recorded (`"type":"marconi"`).
public struct MarconiRecord: Hashable, Sendable {
    /// When it happened.
    public var timestamp: Timestamp
    /// The player instance.
    public var player: String
    /// The stream metadata (`title`, `artist`, `station`, `kind`, ...), with `newMeta`,
    /// `bufferingEnded` and `trackChanged`; `nil` when the record has none (unpacked on every read).
    public var meta: Attributes? {
        get { packedMeta?.unpacked() }
        set { packedMeta = newValue.map(PackedAttributes.init) }
    }
    /// The stream metadata, packed while the record waits for its session to close.
    package var packedMeta: PackedAttributes?
    /// The error description, with `error`.
    public var error: String?
    /// Seconds into the current item, with `progress`.
    public var progress: Double?
    /// What happened (declared last, with `progress` before it: their bytes share the
    /// record's last word, so that a record stays within 80 bytes, `RecordSizeTests`).
    public var event: MarconiEventKind

    public init(
        timestamp: Timestamp, player: String, event: MarconiEventKind, meta: Attributes? = nil,
        progress: Double? = nil, error: String? = nil
    ) {
        self.timestamp = timestamp
        self.player = player
        self.event = event
        self.packedMeta = meta.map(PackedAttributes.init)
        self.progress = progress
        self.error = error
    }
}
