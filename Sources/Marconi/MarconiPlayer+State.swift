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
