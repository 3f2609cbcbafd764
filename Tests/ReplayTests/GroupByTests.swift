import EventModel
import OpenAVT
import Replay
import ReplayTestSupport
import Testing

/// `--group-by`: dimension values per playback, session and item, and the rows they split.
struct GroupByTests {
    private func playback(
        _ instrument: String, at start: Int64, title: String?, source: String? = nil
    ) -> [Record] {
        var attributes: Attributes = [:]
        if let title { attributes[.title] = .string(title) }
        if let source { attributes[.source] = .string(source) }
        return [
            AVTRecord(
                timestamp: Timestamp(milliseconds: start), instrument: instrument, tracker: 0, action: "MediaRequest",
                attributes: attributes),
            AVTRecord(
                timestamp: Timestamp(milliseconds: start + 1_000), instrument: instrument, tracker: 0, action: "Start"),
            AVTRecord(
                timestamp: Timestamp(milliseconds: start + 5_000), instrument: instrument, tracker: 0, action: "End"),
        ].map(Record.avt)
    }

    private func reports(_ records: [Record], groupBy: GroupBy) -> [SessionReport] {
        CollectedReplay(lines: records, options: ReplayOptions(groupBy: groupBy)).reports
    }

    @Test func twoTitlesGiveTwoRowGroupsWithTheirCounts() {
        let groupBy = GroupBy(["title"])
        var summary = KPISummary(bucket: 3_600_000, groupBy: groupBy)
        let records =
            playback("a", at: 0, title: "Episode 1") + playback("b", at: 100, title: "Trailer")
            + playback("c", at: 200, title: "Episode 1") + playback("d", at: 3_600_000, title: "Trailer")
        for report in reports(records, groupBy: groupBy) { summary.add(report) }
        let rows = summary.rows
        #expect(rows.map { $0.bucket?.milliseconds } == [0, 0, 3_600_000, nil, nil])
        #expect(rows.map(\.group) == [["Episode 1"], ["Trailer"], ["Trailer"], ["Episode 1"], ["Trailer"]])
        #expect(rows.map(\.kpis.views) == [2, 1, 1, 2, 2])
        #expect(rows.map(\.kpis.plays) == [2, 1, 1, 2, 2])
        // a and c overlap; b is alone in its group.
        #expect(rows.map(\.peakConcurrent) == [2, 1, 1, 2, 1])
    }

    @Test func aMissingValueIsEmptyAndSortsFirstByteWise() {
        let groupBy = GroupBy(["title", "source_host"])
        var summary = KPISummary(bucket: 3_600_000, groupBy: groupBy)
        let records =
            playback("a", at: 0, title: "alpha", source: "https://CDN.example:8443/a.m3u8")
            + playback("b", at: 0, title: "Zulu", source: "relative/b.m3u8")
            + playback("c", at: 0, title: nil)
        for report in reports(records, groupBy: groupBy) { summary.add(report) }
        // Byte-wise: "" < "Zulu" < "alpha" (upper case before lower case).
        #expect(
            summary.rows.filter { $0.bucket == nil }.map(\.group) == [
                ["", ""], ["Zulu", ""], ["alpha", "cdn.example"],
            ])
    }

    @Test func withoutDimensionsAnEmptyInputStillHasAnAllRow() {
        #expect(KPISummary(bucket: 60_000).rows.map(\.group) == [[]])
        #expect(KPISummary(bucket: 60_000, groupBy: GroupBy(["title"])).rows.isEmpty)
    }

    @Test func sessionsAndItemsHaveTheirOwnFields() throws {
        let groupBy = GroupBy(["system", "name", "station", "platform"])
        let records: [Record] = [
            .vp(
                VPRecord(
                    timestamp: Timestamp(milliseconds: 0), app: "app-1", name: "watchingVideo",
                    attributes: ["platform": "tvOS"], action: .open)),
            .marconi(
                MarconiRecord(
                    timestamp: Timestamp(milliseconds: 0), player: "radio", event: .bufferingEnded,
                    meta: ["title": "Blue", "station": "WXYZ"])),
        ]
        let collected = reports(records, groupBy: groupBy)
        let session = try #require(collected.flatMap(\.vpSessions).first)
        let item = try #require(collected.flatMap(\.marconiItems).first)
        #expect(groupBy.values(of: session) == ["vp", "watchingVideo", "", "tvOS"])
        #expect(groupBy.values(of: item) == ["marconi", "", "WXYZ", ""])
    }

    @Test func metricsCountInTheGroupOfTheirPlayback() {
        let groupBy = GroupBy(["title"])
        var aggregates = MetricAggregates(bucket: 3_600_000, groupBy: groupBy)
        let records = playback("a", at: 0, title: "A") + playback("b", at: 0, title: "B")
        for report in reports(records, groupBy: groupBy) { aggregates.add(report) }
        let plays = aggregates.rows.filter { $0.key.name == "NumPlays" }
        #expect(plays.map(\.key.group) == [["A"], ["B"]])
        #expect(plays.map(\.aggregate.count) == [1, 1])
    }

    @Test func theHostOfASourceURL() {
        #expect(GroupBy.host(ofURL: "https://cdn.example/v/42.m3u8") == "cdn.example")
        #expect(GroupBy.host(ofURL: "https://user:pw@CDN.Example:8443?x=1") == "cdn.example")
        #expect(GroupBy.host(ofURL: "http://[::1]:8080/a") == "::1")
        #expect(GroupBy.host(ofURL: "cdn.example/v/42.m3u8") == "")
    }
}
