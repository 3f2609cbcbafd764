import EventModel
import Marconi
import Testing

private let a: Attributes = ["title": "A", "artist": "Artist A", "station": "WXYZ", "kind": "digital"]
private let b: Attributes = ["title": "B", "kind": "live"]

/// A record of player `p1`.
private func record(
    _ ts: Int64, _ kind: MarconiEventKind, meta: Attributes? = nil, progress: Double? = nil, error: String? = nil
) -> MarconiRecord {
    MarconiRecord(
        timestamp: Timestamp(milliseconds: ts), player: "p1", event: kind, meta: meta, progress: progress, error: error)
}

/// Replays `records` in order and finishes.
private func replay(_ records: [MarconiRecord]) -> (changes: [MarconiStateChange], items: [MarconiItemSummary]) {
    var replay = MarconiPlayerReplay(player: "p1")
    var changes: [MarconiStateChange] = []
    for record in records {
        if let change = replay.replay(record) { changes.append(change) }
    }
    return (changes, replay.finish())
}

/// An expected item.
private func item(
    _ meta: Attributes, first: Int64, last: Int64, buffering: Int64 = 0, playing: Int64, maxProgress: Double? = nil,
    trackChanges: Int64 = 0, errors: Int64 = 0
) -> MarconiItemSummary {
    var item = MarconiItemSummary(player: "p1", meta: meta, firstTimestamp: Timestamp(milliseconds: first))
    item.lastTimestamp = Timestamp(milliseconds: last)
    item.bufferingTime = buffering
    item.playingTime = playing
    item.maxProgress = maxProgress
    item.trackChanges = trackChanges
    item.errors = errors
    return item
}

@Suite("Marconi items")
struct MarconiPlayerReplayTests {
    @Test func oneItemRunsToThePlayersLastRecordAndIgnoredRecordsDoNotEndSpans() {
        let (_, items) = replay([
            record(1000, .bufferingStarted),
            record(1500, .bufferingEnded, meta: a),
            record(2000, .progress, progress: 1),
            record(4000, .progress, progress: 3),
            record(6000, .progress, progress: 2.5),  // accepted, lower than the max
            record(7000, .bufferingEnded, meta: a),  // continuePlaying → startPlaying(A): same item
            record(8000, .progress, progress: 2.5),  // startPlaying → continuePlaying(A, 2.5)
            record(8500, .bufferingStarted),
            record(8600, .bufferingEnded, meta: a),  // 100 ms of rebuffering, same item
            record(9000, .startPlaying),  // ignored: ends no span, but is the player's last record
        ])
        #expect(items == [item(a, first: 1500, last: 9000, buffering: 600, playing: 7000 + 400, maxProgress: 3)])
        #expect(items.first?.title == "A")
        #expect(items.first?.artist == "Artist A")
        #expect(items.first?.station == "WXYZ")
        #expect(items.first?.kind == "digital")
    }

    @Test func bufferingBeforeANewMetaGoesToTheNewItem() {
        let (_, items) = replay([
            record(1000, .bufferingEnded, meta: a),  // noPlaying → startPlaying(A): row 6
            record(2000, .progress, progress: 1),
            record(5000, .bufferingStarted),
            record(5800, .bufferingEnded, meta: b),
            record(7000, .progress, progress: 1),
        ])
        #expect(
            items == [
                item(a, first: 1000, last: 5800, playing: 4000, maxProgress: 1),
                item(b, first: 5800, last: 7000, buffering: 800, playing: 1200, maxProgress: 1),
            ])
        #expect(items.last?.artist == nil)
        #expect(items.last?.kind == "live")
    }

    @Test func rebufferingWithTheSameMetaContinuesTheItem() {
        let (_, items) = replay([
            record(1000, .bufferingStarted),
            record(1250, .bufferingEnded, meta: a),
            record(3000, .bufferingStarted),
            record(3400, .bufferingEnded, meta: a),
            record(4000, .progress, progress: 2),
            record(4500, .newMeta, meta: a),  // continuePlaying → startPlaying(A): same item (row 13)
            record(5000, .progress, progress: 4),
        ])
        #expect(items == [item(a, first: 1250, last: 5000, buffering: 650, playing: 1750 + 1600, maxProgress: 4)])
    }

    @Test func bufferingStillPendingAtTheEndIsDropped() {
        let (_, items) = replay([
            record(1000, .bufferingEnded, meta: a),
            record(2000, .bufferingStarted),
            record(2500, .bufferingStarted),  // ignored (row 1); the player's last record
        ])
        #expect(items == [item(a, first: 1000, last: 2500, playing: 1000)])
    }

    @Test func theSameMetaAfterAnErrorStartsANewItem() {
        let (_, items) = replay([
            record(1000, .bufferingEnded, meta: a),
            record(2000, .error, error: "boom"),
            record(2600, .newMeta, meta: a),  // row 11
            record(3000, .progress, progress: 4),
            record(4000, .progress, progress: 5),
        ])
        #expect(
            items == [
                item(a, first: 1000, last: 2000, playing: 1000, errors: 1),
                item(a, first: 2600, last: 4000, playing: 1400, maxProgress: 5),
            ])
    }

    @Test func errorsWithNoCurrentItemGoToTheNextItem() {
        let (_, items) = replay([
            record(1000, .bufferingStarted),
            record(1200, .error),  // buffering → error: no item yet, held; 200 ms of buffering held
            record(1250, .error, error: "again"),  // ignored (row 9): not counted
            record(1300, .bufferingStarted),
            record(1700, .bufferingEnded, meta: a),
            record(2700, .progress, progress: 1),
        ])
        #expect(items == [item(a, first: 1700, last: 2700, buffering: 600, playing: 1000, maxProgress: 1, errors: 1)])
    }

    @Test func heldBufferingAndErrorsWithoutALaterItemAreDropped() {
        let (changes, items) = replay([
            record(1000, .bufferingStarted),
            record(1500, .error, error: "boom"),
            record(3000, .progress, progress: 1),  // ignored (row 15)
        ])
        #expect(items.isEmpty)
        #expect(changes.map(\.stateName) == ["buffering", "error"])
    }

    @Test func anErrorWhileRebufferingEndsTheItemAndItsBufferingGoesToTheNext() {
        let (_, items) = replay([
            record(1000, .bufferingEnded, meta: a),
            record(3000, .bufferingStarted),
            record(3300, .error, error: "stall"),
            record(4000, .bufferingEnded, meta: a),  // error → startPlaying(A): row 6, a new item
            record(5000, .progress, progress: 1),
        ])
        #expect(
            items == [
                item(a, first: 1000, last: 3300, playing: 2000, errors: 1),
                item(a, first: 4000, last: 5000, buffering: 300, playing: 1000, maxProgress: 1),
            ])
    }

    @Test func trackChangesCountOnTheItemTheirStateBelongsTo() {
        let (_, items) = replay([
            record(1000, .bufferingEnded, meta: a),
            record(2000, .progress, progress: 10),
            record(3000, .trackChanged, meta: b),  // row 16: a new item B, counted on B
            record(3500, .trackChanged, meta: b),  // startPlaying(B, true) again: ignored, not counted
            record(4000, .progress, progress: 1),
            record(5000, .trackChanged, meta: b),  // row 16, same meta: B continues, counted
            record(5500, .trackChanged, meta: b),  // ignored
            record(6000, .startPlaying),
        ])
        #expect(
            items == [
                item(a, first: 1000, last: 3000, playing: 2000, maxProgress: 10),
                item(b, first: 3000, last: 6000, playing: 3000, maxProgress: 1, trackChanges: 2),
            ])
    }

    @Test func trackChangedWhenNotPlayingIsNotCounted() {
        let (_, items) = replay([
            record(1000, .bufferingStarted),
            record(1100, .trackChanged, meta: a),  // row 18: ignored
            record(1400, .bufferingEnded, meta: a),
            record(2000, .trackChanged, meta: a),  // row 17: startPlaying(A, false) → (A, true), counted
        ])
        #expect(items == [item(a, first: 1400, last: 2000, buffering: 400, playing: 600, trackChanges: 1)])
    }

    @Test func maxProgressIsTheLargestAcceptedProgress() {
        let (_, items) = replay([
            record(1000, .progress, progress: 99),  // ignored (row 15): not playing
            record(1100, .bufferingEnded, meta: a),
            record(1200, .progress, progress: 7.25),
            record(1300, .progress, progress: 2),
            record(1400, .progress),  // no number: no event
        ])
        #expect(items == [item(a, first: 1100, last: 1400, playing: 300, maxProgress: 7.25)])
    }

    @Test func anItemWithoutProgressHasNoMaxProgress() {
        let (_, items) = replay([record(1000, .bufferingEnded, meta: b), record(1000, .startPlaying)])
        #expect(items == [item(b, first: 1000, last: 1000, playing: 0)])
        #expect(items.first?.maxProgress == nil)
    }

    @Test func newMetaWhileStartPlayingSwitchesItems() {
        let (_, items) = replay([
            record(1000, .bufferingEnded, meta: a),
            record(1500, .newMeta, meta: a),  // row 5, same meta: ignored
            record(2000, .newMeta, meta: b),  // row 5: a new item
            record(2600, .newMeta, meta: a),  // row 5: a new item with A again
            record(3000, .startPlaying),
        ])
        #expect(
            items == [
                item(a, first: 1000, last: 2000, playing: 1000),
                item(b, first: 2000, last: 2600, playing: 600),
                item(a, first: 2600, last: 3000, playing: 400),
            ])
    }

    @Test func finishTwiceGivesTheItemsOnce() {
        var replay = MarconiPlayerReplay(player: "p1")
        replay.replay(record(1000, .bufferingEnded, meta: a))
        replay.replay(record(1500, .startPlaying))
        #expect(replay.finish() == [item(a, first: 1000, last: 1500, playing: 500)])
        #expect(replay.finish().isEmpty)
        replay.replay(record(2000, .progress, progress: 1))
        #expect(replay.finish() == [item(a, first: 2000, last: 2000, playing: 0, maxProgress: 1)])
    }

    @Test func finishDropsTheBufferingItCuts() {
        var replay = MarconiPlayerReplay(player: "p1")
        replay.replay(record(1000, .bufferingEnded, meta: a))
        replay.replay(record(1500, .bufferingStarted))
        replay.replay(record(2000, .bufferingStarted))  // ignored; the last record before finish
        #expect(replay.finish() == [item(a, first: 1000, last: 2000, playing: 500)])
        replay.replay(record(2600, .bufferingEnded, meta: b))
        replay.replay(record(3000, .startPlaying))
        // Only the buffering after the cut (2000 → 2600) is held for B.
        #expect(replay.finish() == [item(b, first: 2600, last: 3000, buffering: 600, playing: 400)])
    }

    @Test func aPlayerThatNeverPlaysHasNoItems() {
        #expect(replay([]).items.isEmpty)
        #expect(replay([record(1000, .newMeta, meta: a), record(2000, .startPlaying)]).items.isEmpty)
    }
}

@Suite("Marconi trace")
struct MarconiTraceTests {
    @Test func aLineOnlyWhenTheStateOrItsPayloadChanges() {
        let (changes, _) = replay([
            record(1, .bufferingStarted),  // buffering
            record(2, .bufferingStarted),  // ignored
            record(3, .bufferingEnded, meta: a),  // startPlaying(A, false)
            record(4, .bufferingEnded, meta: a),  // row 6 sets the same state: no line
            record(5, .newMeta, meta: a),  // row 5 guard: no line
            record(6, .progress, progress: 1),  // continuePlaying(A, 1)
            record(7, .progress, progress: 1),  // same payload: no line
            record(8, .progress, progress: 2),  // continuePlaying(A, 2)
            record(9, .trackChanged, meta: a),  // startPlaying(A, true)
            record(10, .trackChanged, meta: a),  // same: no line
            record(11, .bufferingEnded, meta: a),  // startPlaying(A, false): trackChanged differs
            record(12, .error, error: "x"),  // error("x")
            record(13, .error, error: "y"),  // ignored (row 9)
            record(14, .startPlaying),  // ignored (row 8)
            record(15, .newMeta, meta: b),  // startPlaying(B, false)
        ])
        #expect(changes.map(\.timestamp.milliseconds) == [1, 3, 6, 8, 9, 11, 12, 15])
        #expect(
            changes.map(\.state) == [
                .buffering, .startPlaying(a, trackChanged: false), .continuePlaying(a, progress: 1),
                .continuePlaying(a, progress: 2), .startPlaying(a, trackChanged: true),
                .startPlaying(a, trackChanged: false), .error(description: "x"), .startPlaying(b, trackChanged: false),
            ])
        #expect(changes.allSatisfy { $0.player == "p1" })
    }

    @Test func payloadsAreTheStatesFieldsInTraceOrder() {
        let at: Timestamp = 5
        #expect(MarconiStateChange(timestamp: at, player: "p", state: .noPlaying).payload.isEmpty)
        #expect(MarconiStateChange(timestamp: at, player: "p", state: .buffering).payload.isEmpty)
        let start = MarconiStateChange(timestamp: at, player: "p", state: .startPlaying(a, trackChanged: true))
        #expect(start.stateName == "startPlaying")
        #expect(start.payload == [.meta(a), .trackChanged(true)])
        #expect(start.payload.map(\.name) == ["meta", "trackChanged"])
        let playing = MarconiStateChange(timestamp: at, player: "p", state: .continuePlaying(b, progress: 1.5))
        #expect(playing.payload == [.meta(b), .progress(1.5)])
        #expect(playing.payload.map(\.name) == ["meta", "progress"])
        let error = MarconiStateChange(timestamp: at, player: "p", state: .error(description: nil))
        #expect(error.stateName == "error")
        #expect(error.payload == [.description(nil)])
        #expect(error.payload.map(\.name) == ["description"])
    }
}

/// Metadata values compare as values, not as JSON types: the seed's metadata is typed
/// (`duration: TimeInterval?`, MarconiMetaDatas.swift lines 16 and 29 at 0762f74, compared
/// field by field from line 186), so `180` and `180.0` are one item.
@Suite struct MarconiMetaValueTests {
    private let whole: Attributes = ["title": "A", "duration": 180]
    private let decimal: Attributes = ["title": "A", "duration": 180.0]

    @Test func theSameMetaWrittenAsAnIntegerOrADecimalIsOneItem() {
        let (changes, items) = replay([
            record(1000, .bufferingEnded, meta: whole),
            record(2000, .newMeta, meta: decimal),  // row 5: the same meta, ignored
            record(3000, .progress, progress: 2),
            record(4000, .trackChanged, meta: decimal),  // the same item again: no new row
            record(5000, .progress, progress: 1),
        ])
        #expect(items == [item(whole, first: 1000, last: 5000, playing: 4000, maxProgress: 2, trackChanges: 1)])
        #expect(changes.count == 4)
    }

    @Test func statesWithMetasThatDifferOnlyInNumberTypeAreTheSame() {
        let player = MarconiPlayer(state: .startPlaying(whole, trackChanged: false))
        var moved = player
        #expect(moved.transition(with: .newMetaHasCame(decimal)) == .ignored(by: .newMetaWhileStartPlaying))
        #expect(moved.state == player.state)
        #expect(
            MarconiPlayer.State.continuePlaying(whole, progress: 1).isSame(as: .continuePlaying(decimal, progress: 1)))
        #expect(
            !MarconiPlayer.State.continuePlaying(whole, progress: 1).isSame(as: .continuePlaying(decimal, progress: 2)))
        #expect(
            !MarconiPlayer.State.startPlaying(["duration": "180"], trackChanged: false).isSame(
                as: .startPlaying(whole, trackChanged: false)))
    }
}
