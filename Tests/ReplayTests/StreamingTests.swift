import EventModel
import Marconi
import OpenAVT
import Replay
import ReplayTestSupport
import Testing

/// The streaming engine: session timeouts, late records, resuming, and independence from interleaving.
struct StreamingTests {
    private static let minute: Int64 = 60_000

    private func radio(_ time: Int64, _ event: MarconiEventKind, player: String = "p1", title: String? = nil) -> Record
    {
        .marconi(
            MarconiRecord(
                timestamp: Timestamp(milliseconds: time), player: player, event: event,
                meta: title.map { ["title": .string($0), "station": "S", "kind": "live"] }))
    }

    @Test func twoPlayersAcrossRotatedFiles() {
        let hour: Int64 = 3_600_000
        let first = [
            radio(hour - 10 * Self.minute, .bufferingStarted, player: "a"),
            radio(hour - 10 * Self.minute + 500, .bufferingEnded, player: "a", title: "A1"),
            radio(hour - 5 * Self.minute, .bufferingStarted, player: "b"),
            radio(hour - 5 * Self.minute + 700, .bufferingEnded, player: "b", title: "B1"),
        ]
        let second = [
            radio(hour + Self.minute, .newMeta, player: "a", title: "A2"),
            radio(hour + 2 * Self.minute, .newMeta, player: "b", title: "B2"),
            radio(hour + 3 * Self.minute, .newMeta, player: "a", title: "A3"),
        ]
        let records =
            first.enumerated().map { ($1, SourcePosition(fileRank: 0, line: $0 + 1)) }
            + second.enumerated().map { ($1, SourcePosition(fileRank: 1, line: $0 + 1)) }
        let result = CollectedReplay(records)
        #expect(result.reports.map(\.key.id) == ["b", "a"])
        let items = result.marconiItems.map { "\($0.player):\($0.title ?? ""):\($0.playingTime)" }
        #expect(
            items == [
                "b:B1:\(7 * Self.minute - 700)", "b:B2:0", "a:A1:\(11 * Self.minute - 500)", "a:A2:\(2 * Self.minute)",
                "a:A3:0",
            ])
        #expect(result.marconiItems.first?.bufferingTime == 700)
    }

    @Test func aGapLongerThanTheTimeoutStartsANewSession() {
        let records: [Record] = [
            .avt(AVTRecord(timestamp: 0, instrument: "i", tracker: 0, action: "StreamLoad")),
            .avt(AVTRecord(timestamp: 1_000, instrument: "i", tracker: 0, action: "Start")),
            .avt(
                AVTRecord(
                    timestamp: Timestamp(milliseconds: 31 * Self.minute + 1_001), instrument: "i", tracker: 0,
                    action: "MediaRequest")),
            .avt(
                AVTRecord(
                    timestamp: Timestamp(milliseconds: 31 * Self.minute + 2_000), instrument: "i", tracker: 0,
                    action: "Start")),
        ]
        let result = CollectedReplay(lines: records)
        #expect(result.reports.map(\.closing) == [.timeout, .inputEnd])
        #expect(result.playbacks.map(\.playbackID) == ["i:0:p1", "i:1861001:p1"])
        #expect(result.playbacks.map(\.timedOut) == [true, false])
        // A fresh hub in the new session: its MediaRequest is accepted and counts the start time.
        #expect(result.playbacks.last?.startTime == 999)
    }

    @Test func sessionsClosingTogetherCloseInTheOrderOfTheirLatestRecord() {
        // "a" starts first but ends last, with "d" (ties by key); "b" and "c" end together. The
        // record at 20 minutes closes them all, its own session included, and starts "d" anew.
        let records: [(Record, Int64)] = [
            (radio(0, .bufferingStarted, player: "a"), 0),
            (radio(0, .bufferingStarted, player: "c"), 1),
            (radio(0, .bufferingStarted, player: "b"), 2),
            (radio(2 * Self.minute, .bufferingEnded, player: "a"), 3),
            (radio(3 * Self.minute, .bufferingEnded, player: "b"), 4),
            (radio(3 * Self.minute, .bufferingEnded, player: "c"), 5),
            (radio(4 * Self.minute, .bufferingStarted, player: "a"), 6),
            (radio(4 * Self.minute, .bufferingStarted, player: "d"), 7),
            (radio(20 * Self.minute, .bufferingEnded, player: "d"), 8),
        ]
        var engine = ReplayEngine(options: ReplayOptions(sessionTimeout: 10 * Self.minute))
        var closed: [[String]] = []
        for (record, line) in records {
            let sessions = engine.add(record, at: SourcePosition(fileRank: 0, line: Int(line) + 1))
            if !sessions.isEmpty { closed.append(sessions.map(\.key.id)) }
        }
        #expect(closed == [["b", "c", "a", "d"]])
        #expect(engine.finish().map(\.key.id) == ["d"])
    }

    @Test func aRecordLateByLessThanTheTimeoutReplaysInOrder() {
        let records: [Record] = [
            .avt(AVTRecord(timestamp: 1_000, instrument: "i", tracker: 0, action: "StreamLoad")),
            .avt(AVTRecord(timestamp: 9_000, instrument: "j", tracker: 0, action: "Ping")),
            .avt(
                AVTRecord(
                    timestamp: Timestamp(milliseconds: 20 * Self.minute), instrument: "j", tracker: 0, action: "Ping")),
            .avt(AVTRecord(timestamp: 2_000, instrument: "i", tracker: 0, action: "Start")),
        ]
        let result = CollectedReplay(lines: records)
        #expect(result.playbacks.first { $0.instrument == "i" }?.startTime == 1_000)
    }

    @Test func aRecordArrivingAfterItsSessionClosedStartsANewOne() {
        let records: [Record] = [
            .avt(AVTRecord(timestamp: 1_000, instrument: "i", tracker: 0, action: "StreamLoad")),
            .avt(
                AVTRecord(
                    timestamp: Timestamp(milliseconds: 40 * Self.minute), instrument: "j", tracker: 0, action: "Ping")),
            .avt(AVTRecord(timestamp: 2_000, instrument: "i", tracker: 0, action: "Start")),
        ]
        let result = CollectedReplay(lines: records)
        #expect(result.reports.map(\.key.id) == ["i", "i", "j"])
        #expect(result.reports.map(\.closing) == [.timeout, .inputEnd, .inputEnd])
    }

    @Test func resumingFromTheOpenSessionsGivesTheSameReports() {
        let records = Self.mixedRecords()
        let whole = CollectedReplay(lines: records, options: ReplayOptions(includeTrace: true))
        let cut = records.count / 2
        var firstRun = ReplayEngine(options: ReplayOptions(includeTrace: true))
        var reports: [SessionReport] = []
        for (index, record) in records[..<cut].enumerated() {
            reports += firstRun.add(record, at: SourcePosition(fileRank: 0, line: index + 1)).map { $0.replay() }
        }
        var secondRun = ReplayEngine(options: ReplayOptions(includeTrace: true))
        for (index, saved) in firstRun.openSessionRecords.enumerated() {
            secondRun.restore(saved.record, at: SourcePosition(fileRank: -1, line: index + 2))
        }
        if let watermark = firstRun.watermark { secondRun.resume(watermark: watermark) }
        for (index, record) in records[cut...].enumerated() {
            reports += secondRun.add(record, at: SourcePosition(fileRank: 1, line: index + 1)).map { $0.replay() }
        }
        reports += secondRun.finish().map { $0.replay() }
        // Each run counts its own records in the closing sequence; everything else is the same.
        func unsequenced(_ reports: [SessionReport]) -> [SessionReport] {
            reports.map { report in
                var report = report
                report.closeSequence = 0
                return report
            }
        }
        #expect(unsequenced(reports) == unsequenced(whole.reports))
    }

    /// Any interleaving of the sessions' records (each session's own order kept) gives the same reports.
    @Test(arguments: 0..<8)
    func interleavingChangesNothing(seed: UInt64) {
        let records = Self.mixedRecords()
        let reference = CollectedReplay(lines: records, options: ReplayOptions(includeTrace: true))
        var queues = Dictionary(grouping: records, by: { SessionKey(of: $0) }).sorted { $0.key < $1.key }.map(\.value)
        var generator = SplitMix(seed: seed)
        var shuffled: [Record] = []
        while !queues.isEmpty {
            let index = Int(generator.next() % UInt64(queues.count))
            shuffled.append(queues[index].removeFirst())
            if queues[index].isEmpty { queues.remove(at: index) }
        }
        let result = CollectedReplay(lines: shuffled, options: ReplayOptions(includeTrace: true))
        #expect(result.reports == reference.reports)
    }

    /// Two instruments, an app and a player, each with a few minutes of records.
    static func mixedRecords() -> [Record] {
        var records: [Record] = []
        for (offset, instrument) in ["i", "j"].enumerated() {
            let start = Int64(offset) * 7_000
            for (step, action) in ["MediaRequest", "StreamLoad", "Start", "Ping", "PauseBegin", "PauseFinish", "End"]
                .enumerated()
            {
                records.append(
                    .avt(
                        AVTRecord(
                            timestamp: Timestamp(milliseconds: start + Int64(step) * 20_000), instrument: instrument,
                            tracker: 0, action: action)))
            }
        }
        for (step, action) in [VPAction.open, .start, .pause, .start, .complete].enumerated() {
            records.append(
                .vp(
                    VPRecord(
                        timestamp: Timestamp(milliseconds: 3_000 + Int64(step) * 25_000), app: "a", name: "v",
                        action: action)))
        }
        records.append(.app(AppRecord(timestamp: 40_000, app: "a", event: .willResignActive)))
        for step in 0..<6 {
            let time = 5_000 + Int64(step) * 21_000
            records.append(
                .marconi(
                    MarconiRecord(
                        timestamp: Timestamp(milliseconds: time), player: "p",
                        event: step == 0 ? .bufferingStarted : .newMeta,
                        meta: step == 0 ? nil : ["title": .string("T\(step)")])))
        }
        return records.sorted { $0.timestamp < $1.timestamp }
    }
}
