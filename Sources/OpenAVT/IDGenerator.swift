/// Makes the ids OpenAVT draws at random (`streamId`, `playbackId`), deterministically.
///
/// ### Implementation requirements
/// The same sequence of calls gives the same ids, in every run.
public protocol IDGenerator {
    /// A new id of a kind, for an instrument.
    mutating func makeID(_ kind: IDKind, instrument: String) -> String
}

/// The kinds of id a hub makes.
public enum IDKind: String, Hashable, Sendable {
    case stream
    case playback
}

/// The default ``IDGenerator``: `<instrument>:s<n>` for streams and `<instrument>:p<n>` for playbacks,
/// counting from 1 per kind; with a scope, `<instrument>:<scope>:s<n>` and `<instrument>:<scope>:p<n>`.
///
/// Ids that OpenAVT draws at random are derived instead, so that replaying the same logs
/// always gives the same ids. Replay scopes them with the time of the instrument's first
/// record, so that an instrument that comes back after the idle gap (a new life) gets new ids.
///
/// `Codable` as its scope and both counts, for the hubs' state (``HubCore/encodeState(to:)``).
public struct SequentialIDGenerator: IDGenerator, Hashable, Sendable, Codable {
    /// Put between the instrument and the counter, if not `nil`.
    public var scope: String?
    /// How many stream ids were made.
    public private(set) var streams = 0
    /// How many playback ids were made.
    public private(set) var playbacks = 0

    /// Creates a generator whose next ids are number `streams + 1` and `playbacks + 1`.
    public init(scope: String? = nil, streams: Int = 0, playbacks: Int = 0) {
        self.scope = scope
        self.streams = streams
        self.playbacks = playbacks
    }

    public mutating func makeID(_ kind: IDKind, instrument: String) -> String {
        let prefix = scope.map { instrument + ":" + $0 } ?? instrument
        switch kind {
        case .stream:
            streams += 1
            return prefix + ":s" + String(streams)
        case .playback:
            playbacks += 1
            return prefix + ":p" + String(playbacks)
        }
    }
}
