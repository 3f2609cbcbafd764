import EventModel

/// The Marconi player state machine: ios-marconi-poc's `transition(with:)` table, as a value type.
///
/// The machine starts in ``State/noPlaying``. Each ``transition(with:)`` runs the seed's
/// table: the first row whose (state, event) pattern matches decides, exactly as the
/// seed's `switch` does, so a later row never sees an event an earlier row matched
/// (``Row`` lists the rows in table order). The machine has no clock and no side
/// effects; the caller feeds events in time order and carries out what the returned
/// ``Transition`` says.
///
/// ```swift
/// var player = MarconiPlayer()
/// player.transition(with: .bufferingStarted)            // .changed(to: .buffering, by: .bufferingStarted)
/// player.transition(with: .bufferingEnded(["title": "A"]))
/// // .changed(to: .startPlaying(["title": "A"], trackChanged: false), by: .bufferingEndedWhileBuffering)
/// player.transition(with: .progressDidChanged(3))        // .changed(to: .continuePlaying(..., progress: 3), ...)
/// player.transition(with: .startPlaying)                 // .ignored(by: .startPlaying)
/// ```
///
/// The seed's `buffering(AVPlayerItem)` has no player item here: the state is just
/// ``State/buffering``, and ``Event/bufferingStarted`` carries nothing.
public struct MarconiPlayer: Hashable, Sendable {
    /// The current state.
    public private(set) var state: State

    /// Creates a player in ``State/noPlaying``, or in `state` (for tests and for resuming).
    public init(state: State = .noPlaying) {
        self.state = state
    }

    /// Runs `event` through the transition table and moves to the state the matching row gives.
    ///
    /// - Parameter event: what the player reported.
    /// - Returns: ``Transition/changed(to:by:)`` when the state changed, or
    ///   ``Transition/ignored(by:)`` when it did not: the row is a `break`, the row's
    ///   condition (`old != new` in row 5) failed, or the row set the state the player was
    ///   already in (same meta and flag, same meta and progress). Metas compare their values as
    ///   JSON values (`jsonCanonical`: `180` and `180.0` are the
    ///   same), as the seed's metadata values do.
    @discardableResult
    public mutating func transition(with event: Event) -> Transition {
        let (row, next) = Self.match(state, event)
        guard let next, !next.isSame(as: state) else {
            return .ignored(by: row)
        }
        state = next
        return .changed(to: next, by: row)
    }

    /// The seed's table: the first row matching `(state, event)`, and the state it sets
    /// (`nil` for a row that leaves the state alone).
    ///
    /// The cases are the seed's, in the seed's order; the compiler checks that they cover
    /// every (state, event) pair, as the seed's `switch` without `default` does.
    static func match(_ state: State, _ event: Event) -> (Row, State?) {
        switch (state, event) {
        // Row 1: already buffering, a second bufferingStarted changes nothing.
        case (.buffering, .bufferingStarted):
            return (.bufferingStartedWhileBuffering, nil)
        // Row 2: bufferingStarted in any other state starts buffering.
        case (_, .bufferingStarted):
            return (.bufferingStarted, .buffering)
        // Row 3: buffering ended: start playing the item it names.
        case (.buffering, .bufferingEnded(let playingItem)):
            return (.bufferingEndedWhileBuffering, .startPlaying(playingItem, trackChanged: false))
        // Row 4: meta fetched while buffering is still in progress: ignored.
        case (.buffering, .newMetaHasCame):
            return (.newMetaWhileBuffering, nil)
        // Row 5: new meta while starting to play: restart playing only when the meta differs.
        case (.startPlaying(let old, _), .newMetaHasCame(let new)):
            return (
                .newMetaWhileStartPlaying,
                old.hasSameJSONValues(as: new) ? nil : .startPlaying(new, trackChanged: false)
            )
        // Row 6: bufferingEnded in any other state (not buffering) starts playing its meta.
        case (_, .bufferingEnded(let new)):
            return (.bufferingEnded, .startPlaying(new, trackChanged: false))
        // Row 7: meta while not playing: ignored.
        case (.noPlaying, .newMetaHasCame):
            return (.newMetaWhileNoPlaying, nil)
        // Row 8: startPlaying is ignored in every state.
        case (_, .startPlaying):
            return (.startPlaying, nil)
        // Row 9: already in error, a further error changes nothing (not even the description).
        case (.error, .catchTheError):
            return (.errorWhileError, nil)
        // Row 10: an error in any other state enters the error state.
        case (_, .catchTheError(let description)):
            return (.error, .error(description: description))
        // Row 11: new meta after an error starts playing it.
        case (.error, .newMetaHasCame(let new)):
            return (.newMetaAfterError, .startPlaying(new, trackChanged: false))
        // Row 12: progress while starting to play: continue playing the same meta.
        case (.startPlaying(let playingItem, _), .progressDidChanged(let progress)):
            return (.progressWhileStartPlaying, .continuePlaying(playingItem, progress: progress))
        // Row 13: new meta while continuing to play: start playing it (even the same meta).
        case (.continuePlaying, .newMetaHasCame(let new)):
            return (.newMetaWhileContinuePlaying, .startPlaying(new, trackChanged: false))
        // Row 14: progress while continuing to play: update the progress.
        case (.continuePlaying(let meta, _), .progressDidChanged(let progress)):
            return (.progressWhileContinuePlaying, .continuePlaying(meta, progress: progress))
        // Row 15: progress when not playing makes no sense: ignored.
        case (_, .progressDidChanged):
            return (.progressWhileNotPlaying, nil)
        // Row 16: track changed while continuing to play: start playing the new track.
        case (.continuePlaying, .trackHasBeenChanged(let new)):
            return (.trackChangedWhileContinuePlaying, .startPlaying(new, trackChanged: true))
        // Row 17: track changed while starting to play: start playing the new track.
        case (.startPlaying, .trackHasBeenChanged(let new)):
            return (.trackChangedWhileStartPlaying, .startPlaying(new, trackChanged: true))
        // Row 18: track changed when not playing: ignored.
        case (_, .trackHasBeenChanged):
            return (.trackChangedWhileNotPlaying, nil)
        }
    }
}

/// Kept in a `--state` file as its state (``MarconiPlayer/State``).
extension MarconiPlayer: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(state: try State(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try state.encode(to: encoder)
    }
}
