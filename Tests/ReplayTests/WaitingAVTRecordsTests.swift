import EventModel
import Testing

@testable import Replay

/// A life's waiting OpenAVT records, kept back to back in one buffer, come out as they went
/// in: time, tracker, action and attributes, in order.
@Suite struct WaitingAVTRecordsTests {
    private let codes = ActionCodes()

    private func record(_ milliseconds: Int64, tracker: Int, action: String, _ attributes: Attributes) -> AVTRecord {
        AVTRecord(
            timestamp: Timestamp(milliseconds: milliseconds), instrument: "ios-1", tracker: tracker, action: action,
            attributes: attributes)
    }

    private func drained(_ log: inout WaitingAVTRecords, keepingCapacity: Bool) -> [AVTRecord] {
        var out: [AVTRecord] = []
        log.drain(keepingCapacity: keepingCapacity) { entry in
            out.append(
                AVTRecord(
                    timestamp: entry.timestamp, instrument: "ios-1", tracker: entry.tracker, action: entry.action.name,
                    packedAttributes: PackedAttributes(packedBytes: entry.attributes)))
        }
        return out
    }

    @Test func recordsComeOutAsTheyWentIn() {
        let records = [
            record(1_000, tracker: 0, action: "Start", ["position": 0, "title": "Épisode 1"]),
            record(1_000, tracker: 1023, action: "AdBegin", [:]),
            record(-5, tracker: 2, action: "MyOwnAction", ["long": .string(String(repeating: "x", count: 5_000))]),
            record(Int64.max, tracker: 0, action: "Start", ["ratio": 0.25, "isLive": true]),
        ]
        var log = WaitingAVTRecords()
        for record in records { log.append(record, codes: codes) }
        #expect(log.count == 4)
        #expect(drained(&log, keepingCapacity: true) == records)
        #expect(log.count == 0)
        // Emptied, it takes new records and forgets the old actions.
        log.append(records[2], codes: codes)
        #expect(drained(&log, keepingCapacity: false) == [records[2]])
        #expect(drained(&log, keepingCapacity: false).isEmpty)
    }

    /// The buffer grows as records come, many times over, and keeps them whole, also when
    /// its memory is kept for the next ones.
    @Test func aGrowingBufferKeepsEveryRecord() {
        let records = (0..<600).map { index in
            record(
                Int64(index), tracker: index % 3, action: "Ping",
                ["position": .int(Int64(index)), "title": .string("t\(index)")])
        }
        var log = WaitingAVTRecords()
        for record in records { log.append(record, codes: codes) }
        #expect(drained(&log, keepingCapacity: true) == records)
        for record in records.reversed() { log.append(record, codes: codes) }
        #expect(drained(&log, keepingCapacity: false) == records.reversed())
    }

    /// An action is OpenAVT's own where the name is one of its actions, however its string was
    /// made.
    @Test func actionsAreOpenAVTsOwn() {
        var log = WaitingAVTRecords()
        let madeApart = String("Sta") + String("rt")
        log.append(record(1, tracker: 0, action: "Start", [:]), codes: codes)
        log.append(record(2, tracker: 0, action: madeApart, [:]), codes: codes)
        log.append(record(3, tracker: 0, action: "Custom", [:]), codes: codes)
        var actions: [Action] = []
        log.drain(keepingCapacity: false) { actions.append($0.action) }
        #expect(actions == [.start, .start, Action(name: "Custom")])
    }

    /// Each record's own action, even when the string of an earlier record's name was let go
    /// and its memory (and so its words) went to the next name: OpenAVT's own actions keep
    /// their own strings, not the record's.
    @Test func aNameWhoseStringWasLetGoIsNotTakenForTheNext() {
        var log = WaitingAVTRecords()
        var expected: [String] = []
        for index in 0..<100 {
            // 16 bytes each: strings with memory of their own, let go at the end of each turn.
            var name = index.isMultiple(of: 2) ? "AdSecond" : "Custom"
            name.append(index.isMultiple(of: 2) ? "Quartile" : String(1_000_000_000 + index))
            expected.append(index.isMultiple(of: 2) ? "AdSecondQuartile" : "Custom\(1_000_000_000 + index)")
            log.append(record(Int64(index), tracker: 0, action: name, [:]), codes: codes)
        }
        var actions: [String] = []
        log.drain(keepingCapacity: false) { actions.append($0.action.name) }
        #expect(actions == expected)
    }

    /// Logs that share their action numbers each give their own records' actions back, OpenAVT's
    /// and custom ones alike, also after one of them was emptied.
    @Test func logsSharingNumbersKeepTheirOwnActions() {
        var first = WaitingAVTRecords()
        var second = WaitingAVTRecords()
        first.append(record(1, tracker: 0, action: "MyOwnAction", [:]), codes: codes)
        second.append(record(1, tracker: 0, action: "OtherAction", [:]), codes: codes)
        first.append(record(2, tracker: 0, action: "QualityChangeDown", [:]), codes: codes)
        second.append(record(2, tracker: 0, action: "Quality" + "ChangeDown", [:]), codes: codes)
        var actions: [Action] = []
        first.drain(keepingCapacity: true) { actions.append($0.action) }
        first.append(record(3, tracker: 0, action: "Third", [:]), codes: codes)
        second.drain(keepingCapacity: true) { actions.append($0.action) }
        first.drain(keepingCapacity: true) { actions.append($0.action) }
        #expect(
            actions.map(\.name) == ["MyOwnAction", "QualityChangeDown", "OtherAction", "QualityChangeDown", "Third"])
        #expect(actions[1] == .qualityChangeDown && actions[1].standard == .qualityChangeDown)
        #expect(actions[3].standard == .qualityChangeDown)
    }
}
