import ReportDiff
import Testing

/// The comparison of hand-made report sets: each kind of difference, and the text it gives.
struct ReportComparisonTests {
    static let playbacksHeader = "instrument,tracker,playback_id,first_ts,title,start_time_ms,end_action\n"
    static let playbacks =
        playbacksHeader
        + "ios-1,0,ios-1:1000:p1,1000,Episode 42,1100,End\n"
        + "ios-1,0,ios-1:1000:p2,5000,\"Morning, Again\",,Stop\n"
        + "tv-2,0,tv-2:2000:p1,2000,Live,900,\n"

    static let trace = """
        {"ts":1000,"type":"avt","instrument":"ios-1","tracker":0,"action":"MediaRequest","attrs":{"countStarts":0,"title":"Episode 42"}}
        {"ts":2100,"type":"avt","instrument":"ios-1","tracker":0,"action":"Start","attrs":{"countStarts":1,"timeSinceMediaRequest":1100},"metrics":{"StartTime":1100,"NumPlays":1}}
        {"ts":2200,"type":"avt","instrument":"ios-1","tracker":1,"action":"AdBreakBegin","attrs":{"inAdBreakBlock":true}}
        {"ts":3000,"type":"vp","app":"a-1","name":"watchingVideo","attrs":{"status":"opened","opened":3000}}
        {"ts":4000,"type":"marconi","player":"radio-1","state":"startPlaying","meta":{"title":"Blue"},"trackChanged":false}

        """

    static let influx = """
        avt_openavt,instrument=ios-1,tracker=0 StartTime=1100i,playback_id="ios-1:1000:p1" 2100000000
        avt_openavt,instrument=ios-1,tracker=0 NumPlays=1i,playback_id="ios-1:1000:p1" 2100000001

        """

    static let rejects = """
        {"file":"samples/a.jsonl.gz","line":4,"reason":"\\"tracker\\" must be an integer","excerpt":"{\\"ts\\":3000"}
        {"file":"missing.jsonl.gz","line":null,"reason":"No such file or directory","excerpt":""}

        """

    static func set(_ files: [String: String]) -> ReportFiles {
        ReportFiles(files.mapValues { Array($0.utf8) })
    }

    static let expected = set([
        "playbacks.csv": playbacks, "events.jsonl": trace, "metrics.influx": influx, "rejects.jsonl": rejects,
        "summary.csv": "bucket,views,plays\n2025-11-20T07:00:00Z,3,2\nall,3,2\n",
    ])

    /// The expected set with `name` replaced by `contents`.
    static func edited(_ name: String, _ edit: (String) -> String) -> ReportFiles {
        var files = expected.contents.mapValues { String(decoding: $0, as: UTF8.self) }
        files[name] = edit(files[name] ?? "")
        return set(files)
    }

    static func replacing(_ old: String, with new: String) -> (String) -> String {
        { text in
            #expect(text.contains(old), "the edit must change something")
            return text.replacingOccurrences(old, new)
        }
    }

    @Test func identicalSetsHaveNoDifference() {
        let comparison = ReportComparison(before: Self.expected, after: Self.expected)
        #expect(comparison.isEmpty)
        #expect(comparison.differenceCount == 0)
        #expect(comparison.text(maxDifferencesPerFile: 5) == "")
        #expect(
            comparison.comparedFiles == [
                "playbacks.csv", "summary.csv", "metrics.influx", "rejects.jsonl", "events.jsonl",
            ])
    }

    @Test func aChangedValueNamesTheRowTheColumnAndBothValues() {
        let after = Self.edited("playbacks.csv", Self.replacing("Episode 42,1100,End", with: "Episode 42,1250,End"))
        let comparison = ReportComparison(before: Self.expected, after: after)
        #expect(comparison.files.map(\.file) == ["playbacks.csv"])
        #expect(
            comparison.files.first?.differences == [
                ReportDifference(
                    subject: "playback ios-1:1000:p1 of instrument ios-1",
                    change: .changed([ValueChange(name: "start_time_ms", before: "1100", after: "1250")]))
            ])
        #expect(
            comparison.text(maxDifferencesPerFile: 5) == """
                playbacks.csv: 1 difference
                  playback ios-1:1000:p1 of instrument ios-1: start_time_ms 1100 → 1250

                """)
    }

    @Test func anEmptiedCellAndAQuotedCellShowAsWritten() {
        let after = Self.edited(
            "playbacks.csv", Self.replacing("\"Morning, Again\",,Stop", with: "\"Morning, \"\"Again\"\"\",700,"))
        let differences = ReportComparison(before: Self.expected, after: after).files.first?.differences ?? []
        #expect(
            differences.map(\.description) == [
                "playback ios-1:1000:p2 of instrument ios-1: title Morning, Again → Morning, \"Again\", "
                    + "start_time_ms (empty) → 700, end_action Stop → (empty)"
            ])
    }

    @Test func aNewRowAndAMissingRowAreNamed() {
        let after = Self.edited("playbacks.csv") { text in
            text.replacingOccurrences("tv-2,0,tv-2:2000:p1,2000,Live,900,\n", "")
                + "tv-2,0,tv-2:2000:p2,2500,Live,950,End\n"
        }
        let differences = ReportComparison(before: Self.expected, after: after).files.first?.differences ?? []
        #expect(
            differences.map(\.description) == [
                "missing playback tv-2:2000:p1 of instrument tv-2", "new playback tv-2:2000:p2 of instrument tv-2",
            ])
    }

    @Test func rowsAreMatchedByKeyWhateverTheirPlace() {
        // A new first row shifts every other one: only the new row is a difference.
        let after = Self.edited(
            "playbacks.csv",
            Self.replacing(Self.playbacksHeader, with: Self.playbacksHeader + "and-3,0,and-3:500:p1,500,X,10,End\n"))
        let differences = ReportComparison(before: Self.expected, after: after).files.first?.differences ?? []
        #expect(differences.map(\.description) == ["new playback and-3:500:p1 of instrument and-3"])
    }

    @Test func aNewColumnIsOneDifferenceNotOnePerRow() {
        let after = Self.set([
            "summary.csv": "bucket,views,plays,concurrent_peak\n2025-11-20T07:00:00Z,3,2,2\nall,3,3,2\n"
        ])
        let before = Self.set(["summary.csv": "bucket,views,plays\n2025-11-20T07:00:00Z,3,2\nall,3,2\n"])
        let differences = ReportComparison(before: before, after: after).files.first?.differences ?? []
        #expect(differences.map(\.description) == ["new column concurrent_peak", "bucket all: plays 2 → 3"])
    }

    @Test func rowsInAnotherOrderAreADifferenceAtTheFirstLineThatMoved() {
        let before = Self.set(["summary.csv": "bucket,views\nb1,1\nb2,2\n"])
        let after = Self.set(["summary.csv": "bucket,views\nb2,2\nb1,1\n"])
        let differences = ReportComparison(before: before, after: after).files.first?.differences ?? []
        #expect(
            differences == [
                ReportDifference(
                    subject: "the same rows, in another order or written differently",
                    change: .rewritten(line: 2, before: "b1,1", after: "b2,2"))
            ])
    }

    @Test func aChangedTraceAttributeAndMetricNameTheEvent() {
        let after = Self.edited(
            "events.jsonl",
            Self.replacing(
                #""timeSinceMediaRequest":1100},"metrics":{"StartTime":1100"#,
                with: #""timeSinceMediaRequest":1250},"metrics":{"StartTime":1250"#))
        let comparison = ReportComparison(before: Self.expected, after: after)
        #expect(
            comparison.text(maxDifferencesPerFile: 5) == """
                events.jsonl: 1 difference
                  event 2 (Start at 2100) of instrument ios-1, tracker 0: attribute timeSinceMediaRequest 1100 → 1250, metric StartTime 1100 → 1250

                """)
    }

    @Test func traceEventsAreMatchedWithinTheirTrackerSoAnAddedEventIsOneDifference() {
        let after = Self.edited(
            "events.jsonl",
            Self.replacing(
                #"{"ts":2100,"#,
                with: #"{"ts":2050,"type":"avt","instrument":"ios-1","tracker":0,"action":"BufferBegin","attrs":{}}"#
                    + "\n" + #"{"ts":2100,"#))
        let differences = ReportComparison(before: Self.expected, after: after).files.first?.differences ?? []
        #expect(differences.map(\.description) == ["new event 2 (BufferBegin at 2050) of instrument ios-1, tracker 0"])
    }

    @Test func aTraceAttributeThatAppearsAndAMarconiAndVPChangeAreNamed() {
        var after = Self.edited(
            "events.jsonl", Self.replacing(#""title":"Blue"}"#, with: #""title":"Blue","artist":"Ana"}"#))
        var text = String(decoding: after.contents["events.jsonl"] ?? [], as: UTF8.self)
        text = text.replacingOccurrences(#""opened":3000"#, #""opened":3000.0"#)
        after.contents["events.jsonl"] = Array(text.utf8)
        let differences = ReportComparison(before: Self.expected, after: after).files.first?.differences ?? []
        #expect(
            differences.map(\.description) == [
                "event 1 (opened at 3000) of app a-1, value proposition watchingVideo: attribute opened 3000 → 3000.0",
                "event 1 (startPlaying at 4000) of player radio-1: meta artist (absent) → \"Ana\"",
            ])
    }

    @Test func aRejectedEventThatIsNowAcceptedIsAMissingAndANewEvent() {
        let before = Self.set([
            "events.jsonl":
                #"{"ts":1,"type":"avt","instrument":"i","tracker":0,"action":"End","attrs":{},"rejected":"no start"}"#
                + "\n"
        ])
        let after = Self.set([
            "events.jsonl": #"{"ts":1,"type":"avt","instrument":"i","tracker":0,"action":"End","attrs":{}}"# + "\n"
        ])
        let differences = ReportComparison(before: before, after: after).files.first?.differences ?? []
        #expect(
            differences.map(\.description) == [
                "missing event 1 (End, rejected at 1) of instrument i, tracker 0",
                "new event 1 (End at 1) of instrument i, tracker 0",
            ])
    }

    @Test func aChangedMetricLineIsCountedAsRemovedAndAdded() {
        let after = Self.edited("metrics.influx", Self.replacing("StartTime=1100i", with: "StartTime=1250i"))
        let comparison = ReportComparison(before: Self.expected, after: after)
        #expect(
            comparison.text(maxDifferencesPerFile: 5) == """
                metrics.influx: 1 line removed, 1 added
                  missing line: avt_openavt,instrument=ios-1,tracker=0 StartTime=1100i,playback_id="ios-1:1000:p1" 2100000000
                  new line: avt_openavt,instrument=ios-1,tracker=0 StartTime=1250i,playback_id="ios-1:1000:p1" 2100000000

                """)
    }

    @Test func aChangedRejectIsAChange() {
        let after = Self.edited("rejects.jsonl", Self.replacing("No such file or directory", with: "Permission denied"))
        let differences = ReportComparison(before: Self.expected, after: after).files.first?.differences ?? []
        #expect(
            differences.map(\.description) == [
                #"reject of missing.jsonl.gz (the whole file): reason "No such file or directory" → "Permission denied""#
            ])
        let fewer = Self.edited("rejects.jsonl") { String($0.split(separator: "\n")[1]) + "\n" }
        #expect(
            ReportComparison(before: Self.expected, after: fewer).files.first?.differences.map(\.description) == [
                "missing reject of samples/a.jsonl.gz:4"
            ])
    }

    @Test func aFileOnOneSideOnlyIsADifference() {
        var after = Self.expected
        after.contents["events.jsonl"] = nil
        after.contents["aggregates.csv"] = Array("bucket,system,metric,count\n".utf8)
        let comparison = ReportComparison(before: Self.expected, after: after)
        #expect(comparison.files.map(\.file) == ["aggregates.csv", "events.jsonl"])
        #expect(comparison.files.map { $0.differences.map(\.description) } == [["new file"], ["missing file"]])
    }

    @Test func theFirstDifferencesAreShownAndTheRestCountedPerFile() {
        let before = Self.set(["summary.csv": "bucket,views\n" + (1...8).map { "b\($0),1\n" }.joined()])
        let after = Self.set(["summary.csv": "bucket,views\n" + (1...8).map { "b\($0),2\n" }.joined()])
        let comparison = ReportComparison(before: before, after: after)
        #expect(comparison.differenceCount == 8)
        #expect(
            comparison.text(maxDifferencesPerFile: 3) == """
                summary.csv: 8 differences
                  bucket b1: views 1 → 2
                  bucket b2: views 1 → 2
                  bucket b3: views 1 → 2
                  ... and 5 more differences in summary.csv

                """)
        #expect(
            comparison.text(maxDifferencesPerFile: 0) == """
                summary.csv: 8 differences
                  ... and 8 more differences in summary.csv

                """)
    }

    @Test func aRepeatedKeyIsMatchedByOccurrence() {
        let header = "player,title,artist,station,kind,first_ts,playing_ms\n"
        let before = Self.set([
            "marconi_items.csv": header
                + "radio-1,Blue,Ana Lu,WXYZ,live,100,5000\nradio-1,Blue,Ana Lu,WXYZ,live,900,7000\n"
        ])
        let after = Self.set([
            "marconi_items.csv": header
                + "radio-1,Blue,Ana Lu,WXYZ,live,100,5000\nradio-1,Blue,Ana Lu,WXYZ,live,900,7500\n"
        ])
        #expect(
            ReportComparison(before: before, after: after).files.first?.differences.map(\.description) == [
                "item \"Blue\" by Ana Lu of player radio-1 (occurrence 2): playing_ms 7000 → 7500"
            ])
    }

    @Test func aFileThatIsNotWhatItsNameSaysIsComparedLineByLine() {
        let before = Self.set(["vp_sessions.csv": "no key columns here\n1\n"])
        let after = Self.set(["vp_sessions.csv": "no key columns here\n2\n"])
        #expect(
            ReportComparison(before: before, after: after).files.first?.differences.map(\.description) == [
                "missing line: 1", "new line: 2",
            ])
    }
}

extension String {
    fileprivate func replacingOccurrences(_ old: String, _ new: String) -> String {
        split(separator: old, omittingEmptySubsequences: false).joined(separator: new)
    }
}
