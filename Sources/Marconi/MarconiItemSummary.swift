import EventModel

/// One row of `marconi_items.csv`: the listening of one item (one `meta` value) on one player.
///
/// ``MarconiPlayerReplay`` builds these; see it for when an item starts and ends and what
/// its times hold. Times are integer milliseconds of record time.
public struct MarconiItemSummary: Hashable, Sendable {
    /// The player instance.
    public var player: String
    /// The item's meta, as the state that started the item carried it.
    public var meta: Attributes
    /// The time of the record that started the item.
    public var firstTimestamp: Timestamp
    /// The time the item ended: the record that started the next item, the record that
    /// entered an error, or, for the item still current at the end, the player's last record.
    public var lastTimestamp: Timestamp
    /// Buffering time given to the item: the buffering held when playing was entered with the
    /// item current (initial buffering and rebuffers).
    public var bufferingTime: Int64 = 0
    /// Time spent in `startPlaying` or `continuePlaying` while the item was current.
    public var playingTime: Int64 = 0
    /// The largest accepted progress in seconds, or `nil` when no progress was accepted.
    public var maxProgress: Double?
    /// Accepted `trackChanged` events whose resulting state belongs to the item.
    public var trackChanges: Int64 = 0
    /// Accepted errors counted on the item: the one that ended it, and those caught while no
    /// item was current before it started.
    public var errors: Int64 = 0

    /// Creates an item that starts at `timestamp`, with nothing counted yet.
    public init(player: String, meta: Attributes, firstTimestamp: Timestamp) {
        self.player = player
        self.meta = meta
        self.firstTimestamp = firstTimestamp
        self.lastTimestamp = firstTimestamp
    }

    /// The meta's `title`, as text; `nil` when absent.
    public var title: String? { text(.title) }
    /// The meta's `artist`, as text; `nil` when absent.
    public var artist: String? { text("artist") }
    /// The meta's `station`, as text; `nil` when absent.
    public var station: String? { text("station") }
    /// The meta's `kind` (`live` or `digital`), as text; `nil` when absent.
    public var kind: String? { text("kind") }

    /// A meta value as text: a string as it is, a number or Boolean in its usual form
    /// (`42`, `1.5`, `true`).
    private func text(_ key: AttributeKey) -> String? {
        meta[key]?.description
    }
}

/// How an item being built is kept in a `--state` file. Keys are short: `p` the player, `m` the
/// meta (`SortedAttributes`), `f` and `l` the first and last timestamps, `b` the buffering
/// time, `t` the playing time, `x` the largest progress, `c` the track changes, `e` the errors;
/// `x` is left out when `nil`, the counts and times when 0.
extension MarconiItemSummary: Codable {
    private enum CodingKeys: String, CodingKey {
        case player = "p"
        case meta = "m"
        case firstTimestamp = "f"
        case lastTimestamp = "l"
        case bufferingTime = "b"
        case playingTime = "t"
        case maxProgress = "x"
        case trackChanges = "c"
        case errors = "e"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            player: try container.decode(String.self, forKey: .player),
            meta: try container.decode(SortedAttributes.self, forKey: .meta).attributes,
            firstTimestamp: try container.decode(Timestamp.self, forKey: .firstTimestamp))
        lastTimestamp = try container.decode(Timestamp.self, forKey: .lastTimestamp)
        bufferingTime = try container.decodeIfPresent(Int64.self, forKey: .bufferingTime) ?? 0
        playingTime = try container.decodeIfPresent(Int64.self, forKey: .playingTime) ?? 0
        maxProgress = try container.decodeIfPresent(Double.self, forKey: .maxProgress)
        trackChanges = try container.decodeIfPresent(Int64.self, forKey: .trackChanges) ?? 0
        errors = try container.decodeIfPresent(Int64.self, forKey: .errors) ?? 0
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(player, forKey: .player)
        try container.encode(SortedAttributes(meta), forKey: .meta)
        try container.encode(firstTimestamp, forKey: .firstTimestamp)
        try container.encode(lastTimestamp, forKey: .lastTimestamp)
        if bufferingTime != 0 { try container.encode(bufferingTime, forKey: .bufferingTime) }
        if playingTime != 0 { try container.encode(playingTime, forKey: .playingTime) }
        try container.encodeIfPresent(maxProgress, forKey: .maxProgress)
        if trackChanges != 0 { try container.encode(trackChanges, forKey: .trackChanges) }
        if errors != 0 { try container.encode(errors, forKey: .errors) }
    }
}
