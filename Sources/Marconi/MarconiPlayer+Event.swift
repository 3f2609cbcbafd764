import EventModel

extension MarconiPlayer {
    /// The events the Marconi player reacts to (the seed's `Event`).
    public enum Event: Hashable, Sendable {
        /// Buffering began (the seed's `bufferingStarted(AVPlayerItem)`, without the item).
        case bufferingStarted
        /// Buffering ended; the item is ready to play with this meta.
        case bufferingEnded(Attributes)
        /// The player started playing; every row of the table ignores it.
        case startPlaying
        /// New stream metadata arrived.
        case newMetaHasCame(Attributes)
        /// The playing position moved, in seconds into the current item.
        case progressDidChanged(Double)
        /// The track changed to the one with this meta.
        case trackHasBeenChanged(Attributes)
        /// An error was caught, with its description if it had one.
        case catchTheError(description: String?)

        /// The event a recorded `marconi` record stands for, or `nil` for a `progress` record
        /// without a finite `progress` number, which has no position to report.
        ///
        /// A record without `meta` has the empty meta `[:]`; an `error` record without
        /// `error` is an error without description.
        public init?(_ record: MarconiRecord) {
            let meta = record.meta ?? [:]
            switch record.event {
            case .bufferingStarted: self = .bufferingStarted
            case .bufferingEnded: self = .bufferingEnded(meta)
            case .startPlaying: self = .startPlaying
            case .newMeta: self = .newMetaHasCame(meta)
            case .progress:
                guard let progress = record.progress, progress.isFinite else { return nil }
                self = .progressDidChanged(progress)
            case .trackChanged: self = .trackHasBeenChanged(meta)
            case .error: self = .catchTheError(description: record.error)
            }
        }
    }
}
