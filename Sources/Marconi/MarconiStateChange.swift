import EventModel

/// One Marconi line of the trace (`events.jsonl`): the player entered a new state, or the
/// same state with a different payload.
///
/// ``MarconiPlayerReplay`` makes one only when the state or its payload changed, so a
/// record the table ignores, or one that sets the state the player was already in, makes
/// none. The line is meant to be written as
///
/// ```json
/// {"ts":1763622902125,"type":"marconi","player":"p1","state":"startPlaying","meta":{"title":"A"},"trackChanged":false}
/// ```
///
/// with the keys `ts`, `type`, `player`, `state` and then ``payload`` in its order.
public struct MarconiStateChange: Hashable, Sendable {
    /// One payload field of a state.
    public enum Field: Hashable, Sendable {
        /// `meta`, of `startPlaying` and `continuePlaying`.
        case meta(Attributes)
        /// `trackChanged`, of `startPlaying`.
        case trackChanged(Bool)
        /// `progress` in seconds, of `continuePlaying`.
        case progress(Double)
        /// `description`, of `error`: a string, or `nil` to be written as `null`.
        case description(String?)

        /// The field's key in the trace.
        public var name: String {
            switch self {
            case .meta: return "meta"
            case .trackChanged: return "trackChanged"
            case .progress: return "progress"
            case .description: return "description"
            }
        }
    }

    /// The time of the record that changed the state.
    public var timestamp: Timestamp
    /// The player instance.
    public var player: String
    /// The state entered, with its payload.
    public var state: MarconiPlayer.State

    /// Creates a trace line.
    public init(timestamp: Timestamp, player: String, state: MarconiPlayer.State) {
        self.timestamp = timestamp
        self.player = player
        self.state = state
    }

    /// The state's name (the `state` key): `noPlaying`, `buffering`, `startPlaying`,
    /// `continuePlaying` or `error`.
    public var stateName: String { state.name }

    /// The state's payload in trace order: `meta`, `trackChanged` for `startPlaying`;
    /// `meta`, `progress` for `continuePlaying`; `description` for `error`; nothing for
    /// `noPlaying` and `buffering`.
    public var payload: [Field] {
        switch state {
        case .noPlaying, .buffering: return []
        case .startPlaying(let meta, let trackChanged): return [.meta(meta), .trackChanged(trackChanged)]
        case .continuePlaying(let meta, let progress): return [.meta(meta), .progress(progress)]
        case .error(let description): return [.description(description)]
        }
    }
}
