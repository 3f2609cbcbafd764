import EventModel
import OpenAVT
import Replay
import ReplayTestSupport
import Testing
import ValueProposition

/// Value-proposition sessions through the replay engine: rows, order, middlewares per output, metrics.
struct VPReplayTests {
    private func vp(
        _ time: Int64, _ action: VPAction, app: String = "a1", name: String = "watchingVideo",
        attributes: Attributes = ["videoName": "v"]
    ) -> Record {
        .vp(
            VPRecord(
                timestamp: Timestamp(milliseconds: time), app: app, name: name, attributes: attributes, action: action))
    }

    private func run(
        _ records: [(Record, SourcePosition)], middlewares: MiddlewareChains = MiddlewareChains()
    ) -> CollectedReplay {
        CollectedReplay(records, options: ReplayOptions(includeTrace: true, middlewares: middlewares))
    }

    private func inFile(_ rank: Int, _ records: [Record]) -> [(Record, SourcePosition)] {
        records.enumerated().map { ($1, SourcePosition(fileRank: rank, line: $0 + 1)) }
    }

    @Test func aSessionSplitAcrossTwoFilesGivenInReverseOrderIsOneSession() {
        let first = inFile(0, [vp(1_000, .open), vp(3_000, .start)])
        let second = inFile(1, [vp(10_000, .pause), vp(12_000, .start), vp(20_000, .complete)])
        let result = run(second + first)
        #expect(result.vpSessions.count == 1)
        let row = result.vpSessions[0]
        #expect(row.sessionID == "a1:1000:v1")
        #expect(row.outcome == .completed)
        #expect(row.timeToStart == 2_000)
        #expect(row.activeTime == 7_000 + 8_000)
        #expect(row.pausedTime == 2_000)
        #expect(row.pauses == 1)
        #expect(row.duration == 19_000)
        #expect(row.endTimestamp == 20_000)
    }

    @Test func twoAppsInterleavedKeepTheirOwnSessions() {
        let records = inFile(
            0,
            [
                vp(1_000, .open, app: "b"), vp(1_500, .open, app: "a"), vp(2_000, .start, app: "b"),
                vp(2_500, .cancel, app: "a"), vp(3_000, .complete, app: "b"), vp(3_500, .start, app: "a"),
            ])
        let result = run(records)
        // Rows come out as their sessions end: a's canceled at 2500, b's completed at 3000.
        #expect(result.vpSessions.map(\.sessionID) == ["a:1500:v1", "b:1000:v1"])
        #expect(result.vpSessions.map(\.outcome) == [.canceled, .completed])
        let errors = result.trace.compactMap { line -> ValuePropositionError? in
            if case .vp(.error(let error)) = line { return error }
            return nil
        }
        #expect(errors.map(\.app) == ["a"])
        #expect(errors.first?.kind == .initialActionNeedsToBeOpen(action: .start))
        #expect(result.trace.map(\.timestamp) == [1_000, 2_000, 3_000, 1_500, 2_500, 3_500])
    }

    @Test func openSessionsCountUpToTheAppsLastRecord() {
        let records = inFile(
            0,
            [
                vp(1_000, .open), vp(2_000, .start), vp(4_000, .pause), vp(9_000, .open, name: "other"),
            ])
        let row = run(records).vpSessions[0]
        #expect(row.outcome == .open)
        #expect(row.endTimestamp == nil)
        #expect(row.activeTime == 2_000)
        #expect(row.pausedTime == 5_000)
        #expect(row.duration == 8_000)
    }

    /// A session Tentacles drops without an event when the app comes back (open, with
    /// nothing remembered) still has its row: outcome `dropped`, ended at the `didBecomeActive`,
    /// and a trace line that says so.
    @Test func aDroppedSessionKeepsItsRow() {
        let records = inFile(
            0,
            [
                vp(1_000, .open), vp(2_000, .start),
                .app(AppRecord(timestamp: 9_000, app: "a1", event: .didBecomeActive)),
                vp(10_000, .pause),
            ])
        let result = run(records)
        #expect(result.vpSessions.count == 1)
        let row = result.vpSessions[0]
        #expect(row.outcome == .dropped)
        #expect(row.endTimestamp == 9_000)
        #expect(row.endTrigger == "didBecomeActive")
        #expect(row.activeTime == 7_000)
        #expect(row.duration == 8_000)
        let dropped = result.trace.compactMap { line -> String? in
            if case .vp(.dropped(let dropped)) = line { return dropped.sessionID }
            return nil
        }
        #expect(dropped == [row.sessionID])
    }

    @Test func prohibitedChangesAreCountedOnTheirSession() {
        let row = run(inFile(0, [vp(1_000, .open), vp(1_100, .pause), vp(1_200, .complete), vp(1_300, .start)]))
            .vpSessions[0]
        #expect(row.prohibitedChanges == 2)
        #expect(row.timeToStart == 300)
    }

    @Test func middlewaresApplyPerOutputAndTheRowsIgnoreThem() {
        let records = inFile(0, [vp(1_000, .open), vp(2_000, .start), vp(5_000, .complete)])
        let chains = MiddlewareChains(
            all: [.duration(from: .opened, to: .completed)], trace: [.capitalisedAttributeKeys],
            metrics: [.skipNames(["watchingVideo"])])
        let result = run(records, middlewares: chains)
        guard case .vp(.event(let completed)) = result.trace.last else {
            Issue.record("no trace event")
            return
        }
        #expect(completed.attributes["Durationopenedcompleted"] == 4_000)
        #expect(completed.attributes["status"] == nil)
        #expect(completed.attributes["Status"] == "completed")
        #expect(result.points.isEmpty)
        #expect(result.vpSessions.first?.outcome == .completed)
    }

    @Test func metricsCountStatusesAndDurations() {
        let records = inFile(0, [vp(1_000, .open), vp(2_000, .start), vp(5_000, .complete)])
        let result = run(records, middlewares: MiddlewareChains(all: [.duration(from: .opened, to: .completed)]))
        #expect(
            result.points.map { "\($0.metric.name)=\($0.metric.value)@\($0.metric.timestamp.milliseconds)" } == [
                "Opened=int(1)@1000", "Started=int(1)@2000", "Completed=int(1)@5000", "SessionDuration=int(4000)@5000",
                "durationOpenedCompleted=int(4000)@5000",
            ])
        #expect(
            result.points.allSatisfy {
                $0.system == .vp && $0.tags == [MetricTag("app", "a1"), MetricTag("name", "watchingVideo")]
            })
        #expect(result.points.first?.stringFields == [MetricTag("session_id", "a1:1000:v1")])
    }

    @Test func aMetricsMiddlewareThatRenamesTheSessionKeepsItsDurationAndLosesItsRow() {
        let records = inFile(0, [vp(1_000, .open), vp(2_000, .start), vp(5_000, .complete)])
        let renamed = Middleware { event in
            var changed = event
            changed.sessionID = "elsewhere"
            return changed
        }
        let result = run(records, middlewares: MiddlewareChains(metrics: [renamed]))
        #expect(
            result.points.map { "\($0.metric.name)=\($0.metric.value)" } == [
                "Opened=int(1)", "Started=int(1)", "Completed=int(1)", "SessionDuration=int(4000)",
            ])
        #expect(result.points.allSatisfy { $0.rowIndex == nil })
        #expect(result.points.allSatisfy { $0.stringFields == [MetricTag("session_id", "elsewhere")] })
        // One origin for the renamed session's points, as for any session's.
        #expect(result.points.allSatisfy { $0.origin === result.points[0].origin })
        #expect(result.vpSessions.map(\.sessionID) == ["a1:1000:v1"])
    }
}
