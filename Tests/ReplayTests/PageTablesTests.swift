import EventModel
import Foundation
import Marconi
import Replay
import Testing

/// The value-proposition and radio tables of report.html: counted by name and by station,
/// merged, and carried in a shard's state.
struct PageTablesTests {
    private func session(_ name: String, _ id: String, outcome: VPSessionSummary.Outcome, startedAfter: Int64?)
        -> VPSessionSummary
    {
        var session = VPSessionSummary(
            app: "a", name: name, sessionID: id, attributes: [:], openedTimestamp: Timestamp(milliseconds: 1000))
        session.outcome = outcome
        session.firstStartedTimestamp = startedAfter.map { Timestamp(milliseconds: 1000 + $0) }
        return session
    }

    private func item(_ station: String?, playing: Int64, buffering: Int64, errors: Int64) -> MarconiItemSummary {
        var item = MarconiItemSummary(
            player: "p", meta: station.map { ["station": .string($0)] } ?? [:], firstTimestamp: 0)
        item.playingTime = playing
        item.bufferingTime = buffering
        item.errors = errors
        return item
    }

    private func report(_ sessions: [VPSessionSummary] = [], _ items: [MarconiItemSummary] = []) -> SessionReport {
        var report = SessionReport(key: SessionKey(system: .vp, id: "a"), closing: .inputEnd)
        report.vpSessions = sessions
        report.marconiItems = items
        return report
    }

    @Test func sessionsCountByNameMostSessionsFirstThenName() throws {
        var byName = VPSessionsByName()
        byName.add(
            report([
                session("watch", "1", outcome: .completed, startedAfter: 300),
                session("browse", "2", outcome: .canceled, startedAfter: nil),
                session("watch", "3", outcome: .open, startedAfter: 500),
                session("buy", "4", outcome: .completed, startedAfter: 100),
            ]))
        let rows = byName.rows
        #expect(rows.map(\.name) == ["watch", "browse", "buy"])
        #expect(rows[0].sessions == 2 && rows[0].completed == 1 && rows[0].started == 2)
        #expect(rows[0].timeToStartSum == 800)
        #expect(rows[1].sessions == 1 && rows[1].completed == 0 && rows[1].started == 0)
        // A shard's rows, through its state, merge into the same counts as one pass over both.
        var other = VPSessionsByName()
        other.add(report([session("buy", "5", outcome: .canceled, startedAfter: 50)]))
        let decoded = try JSONDecoder().decode(VPSessionsByName.self, from: JSONEncoder().encode(other))
        byName.merge(decoded)
        #expect(byName.rows.map(\.name) == ["buy", "watch", "browse"])
        #expect(byName.rows[0].sessions == 2 && byName.rows[0].timeToStartSum == 150)
    }

    @Test func itemsCountByStationMostItemsFirstThenStation() throws {
        var byStation = MarconiItemsByStation()
        byStation.add(
            report(
                [],
                [
                    item("Radio B", playing: 1000, buffering: 100, errors: 0),
                    item(nil, playing: 10, buffering: 0, errors: 1),
                    item("Radio A", playing: 2000, buffering: 0, errors: 2),
                    item("Radio B", playing: 500, buffering: 50, errors: 1),
                ]))
        #expect(byStation.rows.map(\.station) == ["Radio B", "", "Radio A"])
        #expect(byStation.rows[0].items == 2 && byStation.rows[0].playingTime == 1500)
        #expect(byStation.rows[0].bufferingTime == 150 && byStation.rows[0].errors == 1)
        let json = try JSONEncoder().encode(byStation)
        var merged = try JSONDecoder().decode(MarconiItemsByStation.self, from: json)
        merged.merge(byStation)
        #expect(merged.rows.map(\.station) == ["Radio B", "", "Radio A"])
        #expect(merged.rows[0].items == 4 && merged.rows[2].errors == 4)
    }
}
