import EventModel

extension MarconiPlayer {
    /// The states of the Marconi player (the seed's `State`).
    public enum State: Hashable, Sendable {
        /// Idle: nothing has been played yet.
        case noPlaying
        /// The item was added to the player but is not ready to play.
        case buffering
        /// Ready to play, with the item's meta; `trackChanged` is `true` when a track change
        /// (not buffering or new meta) entered the state.
        case startPlaying(Attributes, trackChanged: Bool)
        /// Playing, with the item's meta and the latest progress in seconds.
        case continuePlaying(Attributes, progress: Double)
        /// An error was caught, with its description if it had one.
        case error(description: String?)

        /// The state's name in the trace: `noPlaying`, `buffering`, `startPlaying`,
        /// `continuePlaying` or `error`.
        public var name: String {
            switch self {
            case .noPlaying: return "noPlaying"
            case .buffering: return "buffering"
            case .startPlaying: return "startPlaying"
            case .continuePlaying: return "continuePlaying"
            case .error: return "error"
            }
        }

        /// Whether the state is ``startPlaying(_:trackChanged:)`` or ``continuePlaying(_:progress:)``:
        /// the time that counts as playing.
        public var isPlaying: Bool {
            switch self {
            case .startPlaying, .continuePlaying: return true
            case .noPlaying, .buffering, .error: return false
            }
        }

        /// Whether the states are the same, their metas compared as JSON values
        /// (`jsonCanonical`: `180` and `180.0` are the same).
        public func isSame(as other: State) -> Bool {
            switch (self, other) {
            case (.startPlaying(let meta, let changed), .startPlaying(let otherMeta, let otherChanged)):
                return changed == otherChanged && meta.hasSameJSONValues(as: otherMeta)
            case (.continuePlaying(let meta, let progress), .continuePlaying(let otherMeta, let otherProgress)):
                return progress == otherProgress && meta.hasSameJSONValues(as: otherMeta)
            default:
                return self == other
            }
        }

        /// The meta of a playing state; `nil` in the other states.
        public var meta: Attributes? {
            switch self {
            case .startPlaying(let meta, _), .continuePlaying(let meta, _): return meta
            case .noPlaying, .buffering, .error: return nil
            }
        }
    }
}

/// How a state is kept in a `--state` file: `s` its name (``MarconiPlayer/State/name``), then
/// its payload: `m` the meta (`SortedAttributes`) and `t` whether a track change entered it
/// for `startPlaying`; `m` and `p` the progress for `continuePlaying`; `d` the description for
/// `error` (left out when `nil`).
extension MarconiPlayer.State: Codable {
    private enum CodingKeys: String, CodingKey {
        case name = "s"
        case meta = "m"
        case trackChanged = "t"
        case progress = "p"
        case description = "d"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        switch name {
        case "noPlaying": self = .noPlaying
        case "buffering": self = .buffering
        case "startPlaying":
            self = .startPlaying(
                try container.decode(SortedAttributes.self, forKey: .meta).attributes,
                trackChanged: try container.decode(Bool.self, forKey: .trackChanged))
        case "continuePlaying":
            self = .continuePlaying(
                try container.decode(SortedAttributes.self, forKey: .meta).attributes,
                progress: try container.decode(Double.self, forKey: .progress))
        case "error": self = .error(description: try container.decodeIfPresent(String.self, forKey: .description))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .name, in: container, debugDescription: "no Marconi player state is named \(name)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        switch self {
        case .noPlaying, .buffering:
            break
        case .startPlaying(let meta, let trackChanged):
            try container.encode(SortedAttributes(meta), forKey: .meta)
            try container.encode(trackChanged, forKey: .trackChanged)
        case .continuePlaying(let meta, let progress):
            try container.encode(SortedAttributes(meta), forKey: .meta)
            try container.encode(progress, forKey: .progress)
        case .error(let description):
            try container.encodeIfPresent(description, forKey: .description)
        }
    }
}
