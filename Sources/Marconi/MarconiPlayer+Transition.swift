extension MarconiPlayer {
    /// What one ``MarconiPlayer/transition(with:)`` did, and which row of the table decided it.
    public enum Transition: Hashable, Sendable {
        /// The row set a state other than the one the player was in; this is an accepted event.
        case changed(to: State, by: Row)
        /// The state stayed as it was: the row is a `break`, its condition failed, or it set
        /// the very state the player was already in. The event is not accepted.
        case ignored(by: Row)

        /// The row of the table that matched.
        public var row: Row {
            switch self {
            case .changed(_, let row), .ignored(let row): return row
            }
        }

        /// Whether the state changed (the event was accepted).
        public var isChange: Bool {
            if case .changed = self { return true }
            return false
        }
    }
}
