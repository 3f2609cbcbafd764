import EventModel

/// Replays one Marconi player's records through ``MarconiPlayer`` and accounts the listening
/// per item (`marconi_items.csv`) and the state changes (`events.jsonl`).
///
/// Feed the player's records in replay order (time order, ties in line order) with
/// ``replay(_:)``, then call ``finish()``. Routing records by player and sorting them is the
/// caller's job; the record's `player` field is not looked at.
///
/// The rules (the event-log contract's "Decided details", made exact):
///
/// - **Accepted**: an event is accepted when the table changed the state
///   (``MarconiPlayer/Transition/changed(to:by:)``). An ignored record (a `break` row, row
///   5's failed `old != new`, a row that sets the state the player is in, a `progress`
///   record without a number) changes nothing: it neither ends a time span nor counts, and
///   only moves the player's last record.
/// - **Spans**: time in a state runs from the record that entered it to the next record
///   that changes the state, or to the player's last record at ``finish()``. Durations are
///   differences of record times in milliseconds (never negative).
/// - **Items**: an item is one meta value. When the player enters `startPlaying` or
///   `continuePlaying` (including from one of them to the other), the current item
///   continues if its meta equals the state's meta (`==` on `Attributes`); otherwise
///   the current item ends and a new one starts at that record. Entering `error` ends the
///   current item, so after an error even the same meta starts a new item. The item still
///   current at ``finish()`` ends at the player's last record. An item's `lastTimestamp` is
///   the time it ended, so consecutive items share that timestamp.
/// - **Playing time**: a span in `startPlaying`/`continuePlaying` goes to the current item
///   (there always is one while playing, and it cannot change within a span).
/// - **Buffering time**: a span in `buffering` is held, and given to the item that is
///   current once playing is next entered, after the item rule above (a rebuffer with the
///   same meta goes to the continuing item, buffering before a new meta to the new item);
///   held buffering survives an error. Buffering still held, or still running, at
///   ``finish()`` is dropped.
/// - **Progress**: `maxProgress` is the largest progress of an accepted `progress` event.
/// - **Track changes**: an accepted `trackChanged` counts on the item its resulting
///   `startPlaying` belongs to (the new item when the meta changed).
/// - **Errors**: an accepted error counts on the current item (and ends it); with no item
///   current it is held for the next item that starts. Errors still held at ``finish()``
///   belong to no item and are dropped.
public struct MarconiPlayerReplay: Sendable {
    /// The player instance the records belong to.
    public let player: String
    /// The state machine, in its current state.
    public private(set) var machine = MarconiPlayer()
    /// The items that have ended, in the order they started.
    private var endedItems: [MarconiItemSummary] = []
    /// The current item, if any.
    private var currentItem: MarconiItemSummary?
    /// The time of the record that entered the current state; `nil` before the first change.
    private var stateEnteredAt: Timestamp?
    /// The time of the player's last record so far.
    private var lastTimestamp: Timestamp?
    /// Buffering time waiting for playing to be entered.
    private var heldBufferingTime: Int64 = 0
    /// Errors caught while no item was current, waiting for the next item.
    private var heldErrors: Int64 = 0

    /// Creates a replay for `player`, in ``MarconiPlayer/State/noPlaying``.
    public init(player: String) {
        self.player = player
    }

    /// The player's current state.
    public var state: MarconiPlayer.State { machine.state }

    /// Replays one record of the player.
    ///
    /// - Parameter record: the player's next record in replay order.
    /// - Returns: the trace line when the record changed the state or its payload; `nil`
    ///   when the table ignored it.
    @discardableResult
    public mutating func replay(_ record: MarconiRecord) -> MarconiStateChange? {
        let now = record.timestamp
        lastTimestamp = now
        guard let event = MarconiPlayer.Event(record) else { return nil }
        let previous = machine.state
        guard case .changed(let next, _) = machine.transition(with: event) else { return nil }

        closeSpan(of: previous, at: now)
        stateEnteredAt = now
        switch next {
        case .startPlaying(let meta, _), .continuePlaying(let meta, _):
            enterPlaying(meta, at: now)
            if heldBufferingTime > 0 {
                currentItem?.bufferingTime += heldBufferingTime
                heldBufferingTime = 0
            }
            if case .trackHasBeenChanged = event {
                currentItem?.trackChanges += 1
            }
            if case .continuePlaying(_, let progress) = next, var item = currentItem {
                item.maxProgress = max(item.maxProgress ?? progress, progress)
                currentItem = item
            }
        case .error:
            if currentItem != nil {
                currentItem?.errors += 1
                endCurrentItem(at: now)
            } else {
                heldErrors += 1
            }
        case .noPlaying, .buffering:
            break
        }
        return MarconiStateChange(timestamp: now, player: player, state: next)
    }

    /// When the current item started, if there is one.
    public var currentItemStart: Timestamp? { currentItem?.firstTimestamp }

    /// Takes the items that have ended since the replay began (or since the last call), in the
    /// order they started: an item is final once the next item starts or an error ends it.
    public mutating func takeEndedItems() -> [MarconiItemSummary] {
        defer { endedItems = [] }
        return endedItems
    }

    /// Ends the replay: closes the running span at the player's last record, ends the current
    /// item there, and drops the buffering and errors still held.
    ///
    /// - Returns: every item since the replay began (or since the previous `finish()` or
    ///   ``takeEndedItems()``), in the order they started. Records replayed afterwards continue from the current state, and
    ///   the next item starts when playing is next entered.
    public mutating func finish() -> [MarconiItemSummary] {
        if let last = lastTimestamp {
            closeSpan(of: machine.state, at: last)
            stateEnteredAt = last
            endCurrentItem(at: last)
        }
        heldBufferingTime = 0
        heldErrors = 0
        defer { endedItems = [] }
        return endedItems
    }

    /// Adds the time since the current state was entered to where it belongs: playing time
    /// to the current item, buffering time to the held buffering.
    private mutating func closeSpan(of state: MarconiPlayer.State, at now: Timestamp) {
        guard let start = stateEnteredAt else { return }
        let elapsed = max(0, now.milliseconds(since: start))
        switch state {
        case .startPlaying, .continuePlaying:
            currentItem?.playingTime += elapsed
        case .buffering:
            heldBufferingTime += elapsed
        case .noPlaying, .error:
            break
        }
    }

    /// Applies the item rule on entering a playing state with `meta`.
    private mutating func enterPlaying(_ meta: Attributes, at now: Timestamp) {
        if let item = currentItem, item.meta.hasSameJSONValues(as: meta) { return }
        endCurrentItem(at: now)
        var item = MarconiItemSummary(player: player, meta: meta, firstTimestamp: now)
        item.errors = heldErrors
        heldErrors = 0
        currentItem = item
    }

    /// Ends the current item, if any, at `now`.
    private mutating func endCurrentItem(at now: Timestamp) {
        guard var item = currentItem else { return }
        item.lastTimestamp = now
        endedItems.append(item)
        currentItem = nil
    }
}

/// How a replay is kept in a `--state` file, so that one restored from it goes on exactly as
/// the replay it was saved from would have: the same state changes, and the same items at
/// ``MarconiPlayerReplay/finish()``.
///
/// Keys are short: `p` the player, `s` the machine's state (``MarconiPlayer``), `i` the ended
/// items (left out when none), `c` the current item, `t` the time the state was entered, `l`
/// the last record's time (each left out when `nil`), `b` the held buffering time and `e` the
/// held errors (left out when 0).
extension MarconiPlayerReplay: Codable {
    private enum CodingKeys: String, CodingKey {
        case player = "p"
        case machine = "s"
        case endedItems = "i"
        case currentItem = "c"
        case stateEnteredAt = "t"
        case lastTimestamp = "l"
        case heldBufferingTime = "b"
        case heldErrors = "e"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        player = try container.decode(String.self, forKey: .player)
        machine = try container.decode(MarconiPlayer.self, forKey: .machine)
        endedItems = try container.decodeIfPresent([MarconiItemSummary].self, forKey: .endedItems) ?? []
        currentItem = try container.decodeIfPresent(MarconiItemSummary.self, forKey: .currentItem)
        stateEnteredAt = try container.decodeIfPresent(Timestamp.self, forKey: .stateEnteredAt)
        lastTimestamp = try container.decodeIfPresent(Timestamp.self, forKey: .lastTimestamp)
        heldBufferingTime = try container.decodeIfPresent(Int64.self, forKey: .heldBufferingTime) ?? 0
        heldErrors = try container.decodeIfPresent(Int64.self, forKey: .heldErrors) ?? 0
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(player, forKey: .player)
        try container.encode(machine, forKey: .machine)
        if !endedItems.isEmpty { try container.encode(endedItems, forKey: .endedItems) }
        try container.encodeIfPresent(currentItem, forKey: .currentItem)
        try container.encodeIfPresent(stateEnteredAt, forKey: .stateEnteredAt)
        try container.encodeIfPresent(lastTimestamp, forKey: .lastTimestamp)
        if heldBufferingTime != 0 { try container.encode(heldBufferingTime, forKey: .heldBufferingTime) }
        if heldErrors != 0 { try container.encode(heldErrors, forKey: .heldErrors) }
    }
}
