import EventModel
import Marconi
import ReportEncoding
import Testing

@Suite("marconi_items.csv")
struct MarconiItemsReportTests {
    @Test func headerHasTheContractColumnsInOrder() {
        #expect(
            text(MarconiItemsReport.encode([]))
                == "player,title,artist,station,kind,first_ts,last_ts,buffering_ms,playing_ms,max_progress_s,"
                + "track_changes,errors\n")
    }

    @Test func rowsAreWrittenInTheOrderGiven() {
        var first = MarconiItemSummary(
            player: "p1", meta: ["title": "Song, live", "artist": "Say \"hi\"", "station": "WXYZ", "kind": "digital"],
            firstTimestamp: 1_763_622_902_125)
        first.lastTimestamp = 1_763_622_932_125
        first.bufferingTime = 850
        first.playingTime = 29_150
        first.maxProgress = 28.5
        first.trackChanges = 1
        first.errors = 2
        var second = MarconiItemSummary(player: "p1", meta: ["title": 7, "kind": "live"], firstTimestamp: 1000)
        second.playingTime = 0
        var third = MarconiItemSummary(player: "p2", meta: [:], firstTimestamp: 5)
        third.lastTimestamp = 10
        third.maxProgress = 100
        let lines = text(MarconiItemsReport.encode([first, second, third])).split(separator: "\n").dropFirst()
        #expect(
            Array(lines) == [
                "p1,\"Song, live\",\"Say \"\"hi\"\"\",WXYZ,digital,1763622902125,1763622932125,850,29150,28.5,1,2",
                "p1,7,,,live,1000,1000,0,0,,0,0",
                "p2,,,,,5,10,0,0,100.0,0,0",
            ])
    }

    @Test func maxProgressIsTheShortestRoundTripForm() {
        var item = MarconiItemSummary(player: "p", meta: [:], firstTimestamp: 0)
        var cells: [String] = []
        for progress in [0.1, 1.0 / 3.0, 0.00001, 12.0] {
            item.maxProgress = progress
            let row = text(MarconiItemsReport.encode([item])).split(separator: "\n")[1]
            cells.append(String(row.split(separator: ",", omittingEmptySubsequences: false)[9]))
        }
        #expect(cells == ["0.1", "0.3333333333333333", "1e-05", "12.0"])
    }
}
