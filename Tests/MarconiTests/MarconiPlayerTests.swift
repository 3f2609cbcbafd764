import EventModel
import Marconi
import Testing

private let a: Attributes = ["title": "A", "kind": "digital"]
private let b: Attributes = ["title": "B", "kind": "digital"]

/// One row of a transition test: the state before, the event, and what the machine must do.
struct TransitionCase: Sendable, CustomTestStringConvertible {
    var before: MarconiPlayer.State
    var event: MarconiPlayer.Event
    var expected: MarconiPlayer.Transition

    init(_ before: MarconiPlayer.State, _ event: MarconiPlayer.Event, _ expected: MarconiPlayer.Transition) {
        self.before = before
        self.event = event
        self.expected = expected
    }

    var testDescription: String { "\(before) + \(event) → \(expected)" }
}

@Suite("Marconi transition table")
struct MarconiPlayerTests {
    /// Every row of the seed's table, with each branch of row 5 and the states each catch-all row reaches.
    static let rows: [TransitionCase] = [
        // Row 1: (.buffering, .bufferingStarted): break.
        .init(.buffering, .bufferingStarted, .ignored(by: .bufferingStartedWhileBuffering)),
        // Row 2: (_, .bufferingStarted): buffering.
        .init(.noPlaying, .bufferingStarted, .changed(to: .buffering, by: .bufferingStarted)),
        .init(
            .startPlaying(a, trackChanged: false), .bufferingStarted, .changed(to: .buffering, by: .bufferingStarted)),
        .init(.continuePlaying(a, progress: 3), .bufferingStarted, .changed(to: .buffering, by: .bufferingStarted)),
        .init(.error(description: "x"), .bufferingStarted, .changed(to: .buffering, by: .bufferingStarted)),
        // Row 3: (.buffering, .bufferingEnded(meta)): startPlaying(meta, false).
        .init(
            .buffering, .bufferingEnded(a),
            .changed(to: .startPlaying(a, trackChanged: false), by: .bufferingEndedWhileBuffering)),
        // Row 4: (.buffering, .newMetaHasCame): break.
        .init(.buffering, .newMetaHasCame(a), .ignored(by: .newMetaWhileBuffering)),
        // Row 5: (.startPlaying(old, _), .newMetaHasCame(new)): startPlaying(new, false) only if old != new.
        .init(
            .startPlaying(a, trackChanged: true), .newMetaHasCame(b),
            .changed(to: .startPlaying(b, trackChanged: false), by: .newMetaWhileStartPlaying)),
        .init(.startPlaying(a, trackChanged: true), .newMetaHasCame(a), .ignored(by: .newMetaWhileStartPlaying)),
        // Row 6: (_, .bufferingEnded(new)): startPlaying(new, false).
        .init(.noPlaying, .bufferingEnded(a), .changed(to: .startPlaying(a, trackChanged: false), by: .bufferingEnded)),
        .init(
            .startPlaying(a, trackChanged: true), .bufferingEnded(a),
            .changed(to: .startPlaying(a, trackChanged: false), by: .bufferingEnded)),
        .init(.startPlaying(a, trackChanged: false), .bufferingEnded(a), .ignored(by: .bufferingEnded)),
        .init(
            .continuePlaying(a, progress: 3), .bufferingEnded(b),
            .changed(to: .startPlaying(b, trackChanged: false), by: .bufferingEnded)),
        .init(
            .error(description: nil), .bufferingEnded(a),
            .changed(to: .startPlaying(a, trackChanged: false), by: .bufferingEnded)),
        // Row 7: (.noPlaying, .newMetaHasCame): break.
        .init(.noPlaying, .newMetaHasCame(a), .ignored(by: .newMetaWhileNoPlaying)),
        // Row 8: (_, .startPlaying): break, in every state.
        .init(.noPlaying, .startPlaying, .ignored(by: .startPlaying)),
        .init(.buffering, .startPlaying, .ignored(by: .startPlaying)),
        .init(.startPlaying(a, trackChanged: false), .startPlaying, .ignored(by: .startPlaying)),
        .init(.continuePlaying(a, progress: 3), .startPlaying, .ignored(by: .startPlaying)),
        .init(.error(description: "x"), .startPlaying, .ignored(by: .startPlaying)),
        // Row 9: (.error, .catchTheError): break, whatever the new description.
        .init(.error(description: "x"), .catchTheError(description: "y"), .ignored(by: .errorWhileError)),
        .init(.error(description: nil), .catchTheError(description: "y"), .ignored(by: .errorWhileError)),
        // Row 10: (_, .catchTheError(description)): error(description).
        .init(.noPlaying, .catchTheError(description: "x"), .changed(to: .error(description: "x"), by: .error)),
        .init(.buffering, .catchTheError(description: nil), .changed(to: .error(description: nil), by: .error)),
        .init(
            .startPlaying(a, trackChanged: false), .catchTheError(description: "x"),
            .changed(to: .error(description: "x"), by: .error)),
        .init(
            .continuePlaying(a, progress: 3), .catchTheError(description: "x"),
            .changed(to: .error(description: "x"), by: .error)),
        // Row 11: (.error, .newMetaHasCame(new)): startPlaying(new, false).
        .init(
            .error(description: "x"), .newMetaHasCame(a),
            .changed(to: .startPlaying(a, trackChanged: false), by: .newMetaAfterError)),
        // Row 12: (.startPlaying(meta, _), .progressDidChanged(p)): continuePlaying(meta, p).
        .init(
            .startPlaying(a, trackChanged: true), .progressDidChanged(3),
            .changed(to: .continuePlaying(a, progress: 3), by: .progressWhileStartPlaying)),
        // Row 13: (.continuePlaying, .newMetaHasCame(new)): startPlaying(new, false), even for the same meta.
        .init(
            .continuePlaying(a, progress: 3), .newMetaHasCame(a),
            .changed(to: .startPlaying(a, trackChanged: false), by: .newMetaWhileContinuePlaying)),
        .init(
            .continuePlaying(a, progress: 3), .newMetaHasCame(b),
            .changed(to: .startPlaying(b, trackChanged: false), by: .newMetaWhileContinuePlaying)),
        // Row 14: (.continuePlaying(meta, _), .progressDidChanged(p)): continuePlaying(meta, p).
        .init(
            .continuePlaying(a, progress: 3), .progressDidChanged(4),
            .changed(to: .continuePlaying(a, progress: 4), by: .progressWhileContinuePlaying)),
        .init(
            .continuePlaying(a, progress: 3), .progressDidChanged(1),
            .changed(to: .continuePlaying(a, progress: 1), by: .progressWhileContinuePlaying)),
        .init(.continuePlaying(a, progress: 3), .progressDidChanged(3), .ignored(by: .progressWhileContinuePlaying)),
        // Row 15: (_, .progressDidChanged): break when not playing.
        .init(.noPlaying, .progressDidChanged(3), .ignored(by: .progressWhileNotPlaying)),
        .init(.buffering, .progressDidChanged(3), .ignored(by: .progressWhileNotPlaying)),
        .init(.error(description: "x"), .progressDidChanged(3), .ignored(by: .progressWhileNotPlaying)),
        // Row 16: (.continuePlaying, .trackHasBeenChanged(new)): startPlaying(new, true).
        .init(
            .continuePlaying(a, progress: 3), .trackHasBeenChanged(b),
            .changed(to: .startPlaying(b, trackChanged: true), by: .trackChangedWhileContinuePlaying)),
        .init(
            .continuePlaying(a, progress: 3), .trackHasBeenChanged(a),
            .changed(to: .startPlaying(a, trackChanged: true), by: .trackChangedWhileContinuePlaying)),
        // Row 17: (.startPlaying, .trackHasBeenChanged(new)): startPlaying(new, true).
        .init(
            .startPlaying(a, trackChanged: false), .trackHasBeenChanged(b),
            .changed(to: .startPlaying(b, trackChanged: true), by: .trackChangedWhileStartPlaying)),
        .init(
            .startPlaying(a, trackChanged: false), .trackHasBeenChanged(a),
            .changed(to: .startPlaying(a, trackChanged: true), by: .trackChangedWhileStartPlaying)),
        .init(
            .startPlaying(a, trackChanged: true), .trackHasBeenChanged(a), .ignored(by: .trackChangedWhileStartPlaying)),
        // Row 18: (_, .trackHasBeenChanged): break when not playing.
        .init(.noPlaying, .trackHasBeenChanged(a), .ignored(by: .trackChangedWhileNotPlaying)),
        .init(.buffering, .trackHasBeenChanged(a), .ignored(by: .trackChangedWhileNotPlaying)),
        .init(.error(description: "x"), .trackHasBeenChanged(a), .ignored(by: .trackChangedWhileNotPlaying)),
    ]

    @Test(arguments: rows)
    func transitionFollowsTheTable(_ row: TransitionCase) {
        var player = MarconiPlayer(state: row.before)
        let outcome = player.transition(with: row.event)
        #expect(outcome == row.expected)
        switch row.expected {
        case .changed(let next, _):
            #expect(player.state == next)
            #expect(outcome.isChange)
        case .ignored:
            #expect(player.state == row.before)
            #expect(!outcome.isChange)
        }
    }

    @Test func everyRowIsCoveredByTheTableTest() {
        let covered = Set(Self.rows.map(\.expected.row))
        #expect(covered == Set(MarconiPlayer.Row.allCases))
        #expect(MarconiPlayer.Row.allCases.map(\.rawValue) == Array(1...18))
    }

    /// Pairs where a later row would also match; the earlier one must decide.
    static let firstMatchCases: [TransitionCase] = [
        // Row 1 before row 2: a second bufferingStarted is not a new buffering.
        .init(.buffering, .bufferingStarted, .ignored(by: .bufferingStartedWhileBuffering)),
        // Row 3 before row 6.
        .init(
            .buffering, .bufferingEnded(b),
            .changed(to: .startPlaying(b, trackChanged: false), by: .bufferingEndedWhileBuffering)),
        // Row 9 before row 10: the first error's description stays.
        .init(.error(description: "first"), .catchTheError(description: "second"), .ignored(by: .errorWhileError)),
        // Row 12 before row 15, row 14 before row 15.
        .init(
            .startPlaying(a, trackChanged: false), .progressDidChanged(2),
            .changed(to: .continuePlaying(a, progress: 2), by: .progressWhileStartPlaying)),
        .init(
            .continuePlaying(a, progress: 1), .progressDidChanged(2),
            .changed(to: .continuePlaying(a, progress: 2), by: .progressWhileContinuePlaying)),
        // Rows 16 and 17 before row 18.
        .init(
            .continuePlaying(a, progress: 1), .trackHasBeenChanged(b),
            .changed(to: .startPlaying(b, trackChanged: true), by: .trackChangedWhileContinuePlaying)),
        .init(
            .startPlaying(a, trackChanged: false), .trackHasBeenChanged(b),
            .changed(to: .startPlaying(b, trackChanged: true), by: .trackChangedWhileStartPlaying)),
    ]

    @Test(arguments: firstMatchCases)
    func earlierRowWins(_ row: TransitionCase) {
        var player = MarconiPlayer(state: row.before)
        #expect(player.transition(with: row.event) == row.expected)
        let later = Self.matchingRows(row.before, row.event).dropFirst()
        #expect(!later.isEmpty, "a later row matches too")
    }

    static let sampleStates: [MarconiPlayer.State] = [
        .noPlaying, .buffering, .startPlaying(a, trackChanged: false), .startPlaying(a, trackChanged: true),
        .continuePlaying(a, progress: 3), .error(description: "x"), .error(description: nil),
    ]
    static let sampleEvents: [MarconiPlayer.Event] = [
        .bufferingStarted, .bufferingEnded(a), .bufferingEnded(b), .startPlaying, .newMetaHasCame(a),
        .newMetaHasCame(b), .progressDidChanged(3), .progressDidChanged(7), .trackHasBeenChanged(a),
        .trackHasBeenChanged(b), .catchTheError(description: "y"), .catchTheError(description: nil),
    ]

    /// The rows whose pattern matches, in table order, written from the seed's patterns alone
    /// (no guards, no order), to check that the machine always takes the first one.
    static func matchingRows(_ state: MarconiPlayer.State, _ event: MarconiPlayer.Event) -> [MarconiPlayer.Row] {
        MarconiPlayer.Row.allCases.filter { row in
            switch (row, state, event) {
            case (.bufferingStartedWhileBuffering, .buffering, .bufferingStarted): return true
            case (.bufferingStarted, _, .bufferingStarted): return true
            case (.bufferingEndedWhileBuffering, .buffering, .bufferingEnded): return true
            case (.newMetaWhileBuffering, .buffering, .newMetaHasCame): return true
            case (.newMetaWhileStartPlaying, .startPlaying, .newMetaHasCame): return true
            case (.bufferingEnded, _, .bufferingEnded): return true
            case (.newMetaWhileNoPlaying, .noPlaying, .newMetaHasCame): return true
            case (.startPlaying, _, .startPlaying): return true
            case (.errorWhileError, .error, .catchTheError): return true
            case (.error, _, .catchTheError): return true
            case (.newMetaAfterError, .error, .newMetaHasCame): return true
            case (.progressWhileStartPlaying, .startPlaying, .progressDidChanged): return true
            case (.newMetaWhileContinuePlaying, .continuePlaying, .newMetaHasCame): return true
            case (.progressWhileContinuePlaying, .continuePlaying, .progressDidChanged): return true
            case (.progressWhileNotPlaying, _, .progressDidChanged): return true
            case (.trackChangedWhileContinuePlaying, .continuePlaying, .trackHasBeenChanged): return true
            case (.trackChangedWhileStartPlaying, .startPlaying, .trackHasBeenChanged): return true
            case (.trackChangedWhileNotPlaying, _, .trackHasBeenChanged): return true
            default: return false
            }
        }
    }

    @Test func theFirstMatchingRowDecidesForEveryStateAndEvent() {
        for state in Self.sampleStates {
            for event in Self.sampleEvents {
                var player = MarconiPlayer(state: state)
                let outcome = player.transition(with: event)
                #expect(outcome.row == Self.matchingRows(state, event).first, "\(state) + \(event)")
            }
        }
    }

    @Test func aNewPlayerIsNotPlaying() {
        #expect(MarconiPlayer().state == .noPlaying)
    }

    @Test func stateNamesAreTheTraceNames() {
        #expect(
            Self.sampleStates.map(\.name) == [
                "noPlaying", "buffering", "startPlaying", "startPlaying", "continuePlaying", "error", "error",
            ])
        #expect(Self.sampleStates.map(\.isPlaying) == [false, false, true, true, true, false, false])
        #expect(MarconiPlayer.State.continuePlaying(b, progress: 1).meta == b)
        #expect(MarconiPlayer.State.buffering.meta == nil)
    }
}

@Suite("Marconi events from records")
struct MarconiEventTests {
    private func record(
        _ kind: MarconiEventKind, meta: Attributes? = nil, progress: Double? = nil, error: String? = nil
    ) -> MarconiRecord {
        MarconiRecord(timestamp: 1000, player: "p1", event: kind, meta: meta, progress: progress, error: error)
    }

    @Test func eachRecordEventMapsToItsPlayerEvent() {
        #expect(MarconiPlayer.Event(record(.bufferingStarted, meta: a)) == .bufferingStarted)
        #expect(MarconiPlayer.Event(record(.bufferingEnded, meta: a)) == .bufferingEnded(a))
        #expect(MarconiPlayer.Event(record(.startPlaying, meta: a)) == .startPlaying)
        #expect(MarconiPlayer.Event(record(.newMeta, meta: a)) == .newMetaHasCame(a))
        #expect(MarconiPlayer.Event(record(.progress, progress: 12.5)) == .progressDidChanged(12.5))
        #expect(MarconiPlayer.Event(record(.trackChanged, meta: b)) == .trackHasBeenChanged(b))
        #expect(MarconiPlayer.Event(record(.error, error: "boom")) == .catchTheError(description: "boom"))
    }

    @Test func missingFieldsGiveEmptyMetaAndNoDescription() {
        #expect(MarconiPlayer.Event(record(.bufferingEnded)) == .bufferingEnded([:]))
        #expect(MarconiPlayer.Event(record(.newMeta)) == .newMetaHasCame([:]))
        #expect(MarconiPlayer.Event(record(.trackChanged)) == .trackHasBeenChanged([:]))
        #expect(MarconiPlayer.Event(record(.error)) == .catchTheError(description: nil))
    }

    @Test func progressWithoutAFiniteNumberIsNoEvent() {
        #expect(MarconiPlayer.Event(record(.progress)) == nil)
        #expect(MarconiPlayer.Event(record(.progress, progress: .nan)) == nil)
        #expect(MarconiPlayer.Event(record(.progress, progress: .infinity)) == nil)
    }
}
