import EventModel
import OpenAVT
import Replay
import ReportEncoding
import Testing

/// `--metrics playbacks`: a point per report row, tagged by the `--group-by` values only.
struct RowMetricsTests {
    private func report() -> SessionReport {
        var report = SessionReport(key: SessionKey(system: .openavt, id: "i"), closing: .inputEnd)
        let first = Timestamp(milliseconds: 1_763_622_000_000)
        var started = PlaybackSummary(instrument: "i", tracker: 0, playbackID: "i:1:p1", firstTimestamp: first)
        started.title = "Film \"Night, Day\""
        started.groupAttributes[.title] = .string("Film \"Night, Day\"")
        started.didStart = true
        started.startup = 1_250
        started.startTime = 1_250
        started.playTime = 60_000
        started.endAction = "End"
        started.hasContentEvents = true
        var never = PlaybackSummary(instrument: "i", tracker: 1, playbackID: "i:1:p2", firstTimestamp: first)
        never.hasContentEvents = true
        report.playbacks = [started, never]
        return report
    }

    @Test func aPlaybackIsAPointOfNumbersAndIdsWithTheGroupAsTags() {
        var rows = RowMetrics(prefix: "avt", groupBy: GroupBy(["title"]))
        var buffer: [UInt8] = []
        rows.appendInflux(report(), into: &buffer)
        let lines = text(buffer).split(separator: "\n")
        #expect(lines.count == 2)
        // The group's `title` is a tag renamed apart from the `title` field; a cell that is
        // empty in playbacks.csv (no startup) is no field.
        #expect(
            lines.first?.hasPrefix(
                #"avt_playbacks,group_title=Film\ "Night\,\ Day" instrument="i",playback_id="i:1:p1",tracker=0i,"#)
                == true)
        #expect(lines.first?.contains(#",startup_ms=1250i,start_time_ms=1250i,play_time_ms=60000i,"#) == true)
        #expect(lines.first?.contains(#",started=true,exit_before_start=false,"#) == true)
        #expect(lines.first?.contains(#",end_action="End","#) == true)
        #expect(lines.first?.contains(",midstream_errors=0i 1763622000000") == true)
        #expect(lines.last?.hasPrefix(#"avt_playbacks instrument="i",playback_id="i:1:p2",tracker=1i,"#) == true)
        #expect(lines.last?.contains("startup_ms") == false)
        #expect(lines.last?.contains("exit_before_start=true") == true)
    }

    @Test func rowsOfOneMillisecondGetTimesOfTheirOwn() {
        var rows = RowMetrics(prefix: "", groupBy: .none)
        var buffer: [UInt8] = []
        rows.appendInflux(report(), into: &buffer)
        let times = text(buffer).split(separator: "\n").compactMap { $0.split(separator: " ").last }
        #expect(times.count == 2)
        #expect(Set(times).count == 2)
        #expect(times.allSatisfy { $0.hasPrefix("1763622000000") && $0.count == 19 })
    }
}
