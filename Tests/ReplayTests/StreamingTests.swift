import EventModel
import Foundation
import Marconi
import OpenAVT
import Replay
import ReplayTestSupport
import Testing

/// The live engine: lives, the idle gap, late records, hand-overs, resuming, and independence from interleaving.
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
        #expect(result.reports.filter(\.isLast).map(\.key.id) == ["b", "a"])
        let items = result.marconiItems.map { "\($0.player):\($0.title ?? ""):\($0.playingTime)" }
        // Items come out as they end: when the next one starts, then the last ones as the input ends.
        #expect(
            items == [
                "a:A1:\(11 * Self.minute - 500)", "b:B1:\(7 * Self.minute - 700)", "a:A2:\(2 * Self.minute)", "b:B2:0",
                "a:A3:0",
            ])
        #expect(result.marconiItems.map(\.bufferingTime).prefix(2) == [500, 700])
    }

    private func avt(_ time: Int64, _ action: String, instrument: String = "i", tracker: Int = 0) -> Record {
        .avt(
            AVTRecord(
                timestamp: Timestamp(milliseconds: time), instrument: instrument, tracker: tracker, action: action))
    }

    /// A playback with a pause of `pause` milliseconds in its middle, and another instrument
    /// that keeps the clock moving meanwhile.
    private func pausedPlayback(pause: Int64) -> [Record] {
        var records = [
            avt(0, "MediaRequest"), avt(500, "StreamLoad"), avt(2_000, "Start"), avt(30_000, "Ping"),
            avt(60_000, "PauseBegin"),
        ]
        let resumed = 60_000 + pause
        records += [avt(resumed, "PauseFinish"), avt(resumed + 30_000, "Ping"), avt(resumed + 60_000, "End")]
        var time: Int64 = 1_000
        while time < resumed + 60_000 {
            records.append(avt(time, "Ping", instrument: "other"))
            time += 10 * Self.minute
        }
        return records.sorted { $0.timestamp < $1.timestamp }
    }

    /// A pause shorter than the idle gap changes no row: the same playback, whole, as with no gap at all.
    @Test(arguments: [45 * minute, 3 * 60 * minute, 10 * 60 * minute])
    func aPauseShorterThanTheIdleGapChangesNothing(pause: Int64) throws {
        let result = CollectedReplay(lines: pausedPlayback(pause: pause))
        let unbounded = CollectedReplay(
            lines: pausedPlayback(pause: pause), options: ReplayOptions(idleGap: .max / 4))
        let playback = try #require(result.playbacks.first { $0.instrument == "i" })
        #expect(result.playbacks.count { $0.instrument == "i" } == 1)
        #expect(playback.endAction == "End")
        #expect(playback.timedOut == false)
        #expect(playback.pauseTime == pause)
        #expect(result.playbacks == unbounded.playbacks)
        #expect(result.reports.allSatisfy { $0.closing != .idleGap })
    }

    /// A life idle past the flush delay forgets the origins it kept for reuse; the points after
    /// the pause get the same origin again, for an instrument's playback and an app's session.
    @Test func pointsAfterAnIdlePauseHaveTheOriginOfThoseBefore() throws {
        let pause = 45 * Self.minute
        var records = pausedPlayback(pause: pause)
        for (time, action) in [
            (0, VPAction.open), (1_000, .start), (60_000 + pause, .pause), (61_000 + pause, .start),
            (62_000 + pause, .complete),
        ] {
            records.append(
                .vp(VPRecord(timestamp: Timestamp(milliseconds: time), app: "a", name: "v", action: action)))
        }
        let result = CollectedReplay(lines: records.sorted { $0.timestamp < $1.timestamp })
        #expect(result.reports.contains { $0.key.id == "i" && $0.closing == nil })
        let playback = result.points.filter { $0.origin.source == "i" }
        #expect(playback.contains { $0.metric.timestamp.milliseconds < 60_000 })
        #expect(playback.contains { $0.metric.timestamp.milliseconds > pause })
        #expect(Set(playback.map(\.origin)).count == 1)
        let origin = try #require(playback.first?.origin)
        #expect(origin.tags == [MetricTag("instrument", "i"), MetricTag("tracker", "0")])
        #expect(origin.path == ["i"])
        #expect(origin.stringFields == [MetricTag("playback_id", "i:0:p1")])
        let session = result.points.filter { $0.origin.source == "a" }
        #expect(
            session.map(\.metric.name) == ["Opened", "Started", "Paused", "Started", "Completed", "SessionDuration"])
        #expect(Set(session.map(\.origin)).count == 1)
        #expect(session.first?.origin.stringFields == [MetricTag("session_id", "a:0:v1")])
    }

    @Test func aSilenceLongerThanTheIdleGapStartsANewLife() {
        let day = 24 * 60 * Self.minute
        let records = [
            avt(0, "StreamLoad"), avt(1_000, "Start"), avt(2 * day + 1_001, "MediaRequest"),
            avt(2 * day + 2_000, "Start"),
        ]
        let result = CollectedReplay(lines: records)
        #expect(result.reports.compactMap(\.closing) == [.idleGap, .inputEnd])
        #expect(result.playbacks.map(\.playbackID) == ["i:0:p1", "i:\(2 * day + 1_001):p1"])
        #expect(result.playbacks.map(\.timedOut) == [true, false])
        // A fresh hub in the new life: its MediaRequest is accepted and counts the start time.
        #expect(result.playbacks.last?.startTime == 999)
    }

    @Test func livesEndingTogetherEndInTheOrderOfTheirLatestRecord() {
        // "a" starts first but ends last, with "d" (ties by key); "b" and "c" end together. The
        // record at 20 minutes ends them all, its own life included, and starts "d" anew.
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
        var engine = ReplayEngine(options: ReplayOptions(idleGap: 10 * Self.minute))
        var ended: [[String]] = []
        for (record, line) in records {
            guard case .replayed(let reports) = engine.add(record, at: SourcePosition(fileRank: 0, line: Int(line) + 1))
            else { continue }
            let last = reports.filter(\.isLast)
            if !last.isEmpty { ended.append(last.map(\.key.id)) }
        }
        #expect(ended == [["b", "c", "a", "d"]])
        #expect(engine.finish().map(\.key.id) == ["d"])
    }

    @Test func aRecordOlderThanItsLifesLatestIsLate() {
        var engine = ReplayEngine()
        _ = engine.add(avt(1_000, "StreamLoad"), at: SourcePosition(fileRank: 0, line: 1))
        _ = engine.add(avt(5_000, "Start"), at: SourcePosition(fileRank: 0, line: 2))
        guard
            case .late(let by, let record, _) = engine.add(avt(2_000, "Ping"), at: SourcePosition(fileRank: 0, line: 3))
        else {
            Issue.record("not late")
            return
        }
        #expect(by == 3_000)
        #expect(record.timestamp == 2_000)
        #expect(engine.lateRecords == 1)
        // A late record of another instrument, with nothing later, is replayed.
        guard
            case .replayed = engine.add(
                avt(1_500, "StreamLoad", instrument: "j"), at: SourcePosition(fileRank: 0, line: 4))
        else {
            Issue.record("not replayed")
            return
        }
    }

    @Test func anIdleLifeHandsOverItsOutputsAfterTheFlushDelay() {
        var engine = ReplayEngine(options: ReplayOptions(includeTrace: true))
        _ = engine.add(avt(0, "StreamLoad"), at: SourcePosition(fileRank: 0, line: 1))
        _ = engine.add(avt(1_000, "Start"), at: SourcePosition(fileRank: 0, line: 2))
        guard
            case .replayed(let early) = engine.add(
                avt(ReplayEngine.flushDelay, "Ping", instrument: "j"), at: SourcePosition(fileRank: 0, line: 3))
        else { return }
        #expect(early.isEmpty)
        guard
            case .replayed(let due) = engine.add(
                avt(ReplayEngine.flushDelay + 1_001, "Ping", instrument: "j"), at: SourcePosition(fileRank: 0, line: 4))
        else { return }
        #expect(due.map(\.key.id) == ["i"])
        #expect(due.first?.trace.count == 2)
        #expect(due.first?.isLast == false)
    }

    /// A run cut anywhere, its open lives kept as their state (encoded as a `--state` file
    /// does) and restored into a second run, writes the rows of one run, in the same order,
    /// and the same trace lines and points (those pending at the cut written by the first run).
    @Test(arguments: [false, true])
    func resumingFromTheOpenLivesStateGivesTheSameRows(groupBy: Bool) throws {
        let records = Self.mixedRecords().sorted { $0.timestamp < $1.timestamp }
        let options = ReplayOptions(includeTrace: true, groupBy: groupBy ? GroupBy(["title"]) : .none)
        let whole = CollectedReplay(lines: records, options: options)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for cut in 1..<records.count {
            var firstRun = ReplayEngine(options: options)
            var reports: [SessionReport] = []
            for (index, record) in records[..<cut].enumerated() {
                if case .replayed(let due) = firstRun.add(record, at: SourcePosition(fileRank: 0, line: index + 1)) {
                    reports += due
                }
            }
            firstRun.handOverPending { reports.append($0) }
            // As a state file keeps them (`StateEncoder`).
            func encoded(_ lives: [ReplayEngine.OpenLife]) throws -> [[UInt8]] {
                try lives.map { life in
                    var bytes: [UInt8] = []
                    try StateEncoder().encode(life, into: &bytes)
                    return bytes
                }
            }
            let saved = try encoded(firstRun.openLives)
            var secondRun = ReplayEngine(options: options)
            var decoder = StateDecoder()
            decoder.userInfo[ReplayEngine.RestoredLife.contextKey] = secondRun.restoringContext
            for life in saved {
                secondRun.restore(
                    try life.withUnsafeBytes { try decoder.decode(ReplayEngine.RestoredLife.self, from: $0) })
            }
            secondRun.resume(frontier: firstRun.frontier)
            // The restored lives write the same state again.
            #expect(try encoded(secondRun.openLives) == saved, "cut \(cut)")
            for (index, record) in records[cut...].enumerated() {
                if case .replayed(let due) = secondRun.add(record, at: SourcePosition(fileRank: 1, line: index + 1)) {
                    reports += due
                }
            }
            reports += secondRun.finish()
            #expect(reports.flatMap(\.playbacks) == whole.playbacks, "cut \(cut)")
            #expect(reports.flatMap(\.vpSessions) == whole.vpSessions, "cut \(cut)")
            #expect(reports.flatMap(\.marconiItems) == whole.marconiItems, "cut \(cut)")
            #expect(Set(reports.flatMap(\.trace)) == Set(whole.reports.flatMap(\.trace)), "cut \(cut)")
            #expect(reports.flatMap(\.trace).count == whole.reports.flatMap(\.trace).count, "cut \(cut)")
            #expect(
                reports.flatMap(\.points).sorted(by: Self.pointOrder)
                    == whole.reports.flatMap(\.points).sorted(by: Self.pointOrder), "cut \(cut)")
            var aggregates = MetricAggregates(bucket: options.bucket, groupBy: options.groupBy)
            var wholeAggregates = aggregates
            for report in reports { aggregates.add(report) }
            for report in whole.reports { wholeAggregates.add(report) }
            #expect(try encoder.encode(aggregates.state) == encoder.encode(wholeAggregates.state), "cut \(cut)")
        }
    }

    private static func pointOrder(_ a: MetricPoint, _ b: MetricPoint) -> Bool {
        (a.metric.timestamp, a.source, a.metric.name, a.rowIndex ?? -1) < (
            b.metric.timestamp, b.source, b.metric.name, b.rowIndex ?? -1
        )
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
        // The same reports in the same order; their records' lines differ.
        func withoutLines(_ reports: [SessionReport]) -> [SessionReport] {
            reports.map { report in
                var report = report
                report.order.position = SourcePosition(fileRank: 0, line: 0)
                return report
            }
        }
        #expect(withoutLines(result.reports) == withoutLines(reference.reports))
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
