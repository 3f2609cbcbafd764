extension MarconiPlayer {
    /// The rows of the seed's `transition(with:)` table, in table order; the raw value is the
    /// row's 1-based position. The first row whose pattern matches decides.
    public enum Row: Int, Hashable, Sendable, CaseIterable {
        /// `(.buffering, .bufferingStarted)`: ignored.
        case bufferingStartedWhileBuffering = 1
        /// `(_, .bufferingStarted)`: buffering.
        case bufferingStarted
        /// `(.buffering, .bufferingEnded(meta))`: `startPlaying(meta, false)`.
        case bufferingEndedWhileBuffering
        /// `(.buffering, .newMetaHasCame)`: ignored (buffering still in progress).
        case newMetaWhileBuffering
        /// `(.startPlaying(old, _), .newMetaHasCame(new))`: `startPlaying(new, false)` if
        /// `old != new`, otherwise ignored.
        case newMetaWhileStartPlaying
        /// `(_, .bufferingEnded(meta))`: `startPlaying(meta, false)`.
        case bufferingEnded
        /// `(.noPlaying, .newMetaHasCame)`: ignored.
        case newMetaWhileNoPlaying
        /// `(_, .startPlaying)`: ignored.
        case startPlaying
        /// `(.error, .catchTheError)`: ignored.
        case errorWhileError
        /// `(_, .catchTheError(description))`: `error(description)`.
        case error
        /// `(.error, .newMetaHasCame(meta))`: `startPlaying(meta, false)`.
        case newMetaAfterError
        /// `(.startPlaying(meta, _), .progressDidChanged(progress))`: `continuePlaying(meta, progress)`.
        case progressWhileStartPlaying
        /// `(.continuePlaying, .newMetaHasCame(meta))`: `startPlaying(meta, false)`.
        case newMetaWhileContinuePlaying
        /// `(.continuePlaying(meta, _), .progressDidChanged(progress))`: `continuePlaying(meta, progress)`.
        case progressWhileContinuePlaying
        /// `(_, .progressDidChanged)`: ignored (not playing).
        case progressWhileNotPlaying
        /// `(.continuePlaying, .trackHasBeenChanged(meta))`: `startPlaying(meta, true)`.
        case trackChangedWhileContinuePlaying
        /// `(.startPlaying, .trackHasBeenChanged(meta))`: `startPlaying(meta, true)`.
        case trackChangedWhileStartPlaying
        /// `(_, .trackHasBeenChanged)`: ignored (not playing).
        case trackChangedWhileNotPlaying
    }
}
