import EventModel
import Testing

@testable import Replay

/// A session's OpenAVT records kept as bytes come back as they went in, in replay order.
struct AVTRecordLogTests {
    private let attributeSets: [Attributes] = [
        [:],
        ["duration": .int(120_000), "title": .string("Ünïcode ✓"), "isLive": .bool(false)],
        ["position": .double(12.5), "an attribute without a key number": .string("")],
        ["bitrate": .int(-1), "isAd": .bool(true), "empty": .string(""), "big": .double(.greatestFiniteMagnitude)],
    ]

    private func record(_ time: Int64, _ action: String, tracker: Int = 0, attributes: Int = 0) -> AVTRecord {
        AVTRecord(
            timestamp: Timestamp(milliseconds: time), instrument: "player-1", tracker: tracker, action: action,
            attributes: attributeSets[attributes % attributeSets.count])
    }

    private func replayed(_ log: AVTRecordLog, inReplayOrder: Bool) -> [(AVTRecord, SourcePosition)] {
        var records: [(AVTRecord, SourcePosition)] = []
        log.forEach(inReplayOrder: inReplayOrder) { records.append(($0.record(instrument: "player-1"), $0.position)) }
        return records
    }

    @Test func recordsInOrderComeBackUnchanged() {
        let actions = ["StreamLoad", "Start", "Ping", "Ping", "BufferBegin", "Ping", "BufferEnd", "Start", "End"]
        let records = actions.enumerated().map { record(Int64($0) * 1_000, $1, tracker: $0 % 3, attributes: $0) }
        var log = AVTRecordLog()
        for (index, record) in records.enumerated() {
            log.append(record, at: SourcePosition(fileRank: index / 4, line: index + 1))
        }
        #expect(log.count == records.count)
        let back = replayed(log, inReplayOrder: true)
        #expect(back.map(\.0) == records)
        #expect(back.map(\.0.packedAttributes) == records.map(\.packedAttributes))
        #expect(back.map(\.1.line) == Array(1...records.count))
        #expect(back.map(\.1.fileRank) == records.indices.map { $0 / 4 })
    }

    @Test func actionNamesMadeApartStillReplayUnderTheirNames() {
        // Longer than a small string, so that each `String` made from the bytes has storage
        // of its own: names are told apart by their storage first.
        let name = "AdSecondQuartileReached"
        let apart = [
            String(decoding: Array(name.utf8), as: UTF8.self), String(decoding: Array(name.utf8), as: UTF8.self),
        ]
        let names = [apart[0], "Ping", apart[1], "Ping", apart[0], "AdSecondQuartileReachedTwice"]
        var log = AVTRecordLog()
        for (index, action) in names.enumerated() {
            log.append(record(Int64(index), action), at: SourcePosition(fileRank: 0, line: index + 1))
        }
        var replayedNames: [String] = []
        var indexOfName: [String: Set<Int>] = [:]
        log.forEach(inReplayOrder: true) { entry in
            replayedNames.append(entry.action)
            indexOfName[entry.action, default: []].insert(entry.actionIndex)
        }
        #expect(replayedNames == names)
        // An index names one action: no two names share one.
        let indices = indexOfName.values.map(Array.init)
        #expect(Set(indices.joined()).count == indices.joined().count)
    }

    @Test func recordsOutOfOrderAreSortedByTimeThenPosition() {
        // Arrival order: times 3, 1, 2, 1, 1 at positions that make the ties' order the
        // reverse of their arrival order.
        let arrivals: [(AVTRecord, SourcePosition)] = [
            (record(3, "End"), SourcePosition(fileRank: 0, line: 1)),
            (record(1, "Tie c", attributes: 1), SourcePosition(fileRank: 1, line: 9)),
            (record(2, "Middle", attributes: 2), SourcePosition(fileRank: 0, line: 3)),
            (record(1, "Tie b", attributes: 3), SourcePosition(fileRank: 1, line: 2)),
            (record(1, "Tie a"), SourcePosition(fileRank: 0, line: 7)),
        ]
        var log = AVTRecordLog()
        for (record, position) in arrivals { log.append(record, at: position) }
        let back = replayed(log, inReplayOrder: false)
        #expect(back.map(\.0.action) == ["Tie a", "Tie b", "Tie c", "Middle", "End"])
        #expect(back.map(\.1.line) == [7, 2, 9, 3, 1])
        #expect(
            back.map(\.0.attributes) == [attributeSets[0], attributeSets[3], attributeSets[1], attributeSets[2], [:]])
    }

    /// Positions and trackers of any size come back, down to a restored record's rank -1.
    @Test func extremeFieldsComeBackUnchanged() {
        let records = [
            (record(-62_167_219_200_000, "A", tracker: 1023, attributes: 3), SourcePosition(fileRank: -1, line: 1)),
            (record(253_402_300_799_999, "B", tracker: 0), SourcePosition(fileRank: 70_000, line: .max)),
        ]
        var log = AVTRecordLog()
        for (record, position) in records { log.append(record, at: position) }
        let back = replayed(log, inReplayOrder: true)
        #expect(back.map(\.0) == records.map(\.0))
        #expect(back.map(\.1) == records.map(\.1))
        // Stored the other way round (each time stored as a step from the one before: the
        // largest step back), and sorted.
        var reversed = AVTRecordLog()
        for (record, position) in records.reversed() { reversed.append(record, at: position) }
        let sorted = replayed(reversed, inReplayOrder: false)
        #expect(sorted.map(\.0) == records.map(\.0))
        #expect(sorted.map(\.1) == records.map(\.1))
    }

    @Test func anOpenSessionsRecordsAreSavedInReplayOrder() {
        var engine = ReplayEngine()
        let arrivals = [record(5_000, "Start"), record(1_000, "StreamLoad", attributes: 1), record(5_000, "Ping")]
        for (index, record) in arrivals.enumerated() {
            _ = engine.add(.avt(record), at: SourcePosition(fileRank: 0, line: index + 1))
        }
        let saved = engine.openSessionRecords
        #expect(saved.map(\.record) == [.avt(arrivals[1]), .avt(arrivals[0]), .avt(arrivals[2])])
        #expect(saved.map(\.position.line) == [2, 1, 3])
    }
}
