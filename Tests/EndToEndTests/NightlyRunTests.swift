import Foundation
import Testing

/// Nightly runs with `--state`: two runs over two halves give what one run over both gives.
struct NightlyRunTests {
    @Test func twoRunsWithStateGiveTheSameReportsAsOneRun() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = CommandRunner.samples
        let whole = folder.appendingPathComponent("whole")
        let first = folder.appendingPathComponent("first")
        let second = folder.appendingPathComponent("second")
        let state = folder.appendingPathComponent("open.state").path
        let wholeState = folder.appendingPathComponent("whole.state").path
        // Every event's metrics, which two runs split between them as they do the rows.
        let arguments = CommandRunner.mainArguments + ["--metrics", "events"]
        #expect(try CommandRunner.run(arguments + ["--out", whole.path, "--state", wholeState] + samples).status == 0)
        let day1 = try CommandRunner.run(arguments + ["--out", first.path, "--state", state, samples[0]])
        #expect(day1.status == 0)
        // What is open is said: on standard error and in run.json.
        #expect(day1.standardError.contains("lives carried over in \(state) (5 instruments with 4 open playbacks"))
        #expect(!day1.standardError.contains("nothing written"))
        let runJSON = try String(contentsOf: first.appendingPathComponent("run.json"), encoding: .utf8)
        #expect(runJSON.contains(#""carried":{"instruments":5,"openPlaybacks":4,"#))
        let page = try String(contentsOf: first.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(
            page.contains("Carried over to the next run (<code>--state</code>): 5 instruments with 4 open playbacks"))
        let day2 = try CommandRunner.run(arguments + ["--out", second.path, "--state", state, samples[1]])
        #expect(day2.status == 0)
        #expect(day2.standardError.contains("10 lives resumed from \(state)"))
        // Every report but summary.csv, aggregates.csv and report.html, which sum up each run's own
        // sessions. The rows come in the order they ended, so the nights' rows one after the
        // other are the one run's; a night writes the trace lines and points its lives still
        // had pending at its end, which one run writes a little later: the same lines.
        let perRun: Set = ["summary.csv", "aggregates.csv", "report.html"]
        let concatenated = SampleReplayTests.reportFiles.filter { !perRun.contains($0) }
        for name in concatenated {
            let expected = try lines(whole, name)
            let split = try lines(first, name) + (try lines(second, name)).dropFirst(name.hasSuffix(".csv") ? 1 : 0)
            #expect(Self.sameLines(name, split, expected), "\(name) differs")
            #expect(!expected.isEmpty || name == "rejects.jsonl", "\(name)")
        }
        // The sessions still open at the end are the same, kept for the next night.
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == Data(contentsOf: URL(fileURLWithPath: wholeState)))
        // The last run of a series, with no input, closes them: then the reports are those of a
        // run without state.
        let last = folder.appendingPathComponent("last")
        let finished = try CommandRunner.run(arguments + ["--out", last.path, "--state", state, "--finish"])
        #expect(finished.status == 0, "\(finished.standardError)")
        let plain = folder.appendingPathComponent("plain")
        #expect(try CommandRunner.run(arguments + ["--out", plain.path] + samples).status == 0)
        for name in concatenated {
            let expected = try lines(plain, name)
            let header = name.hasSuffix(".csv") ? 1 : 0
            let split =
                try lines(first, name) + (try lines(second, name)).dropFirst(header)
                + (try lines(last, name)).dropFirst(header)
            #expect(Self.sameLines(name, split, expected), "\(name) differs")
        }
        // Reruns over the same input give the same bytes.
        let again = folder.appendingPathComponent("again")
        #expect(try CommandRunner.run(arguments + ["--out", again.path] + samples).status == 0)
        for name in SampleReplayTests.reportFiles {
            #expect(try lines(again, name) == lines(plain, name), "\(name)")
        }
    }

    /// A playback that ends at 23:59 is in that night's report; one paused over midnight is in
    /// the next night's, once.
    @Test func aRowIsWrittenTheNightItEnds() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let midnight: Int64 = 1_763_683_200_000
        let minute: Int64 = 60_000
        func line(_ time: Int64, _ instrument: String, _ action: String) -> String {
            #"{"ts":\#(time),"instrument":"\#(instrument)","tracker":0,"action":"\#(action)"}"#
        }
        let night1 = [
            line(midnight - 60 * minute, "late-show", "MediaRequest"),
            line(midnight - 59 * minute, "late-show", "Start"),
            line(midnight - 30 * minute, "paused", "MediaRequest"), line(midnight - 29 * minute, "paused", "Start"),
            line(midnight - 20 * minute, "paused", "PauseBegin"), line(midnight - minute, "late-show", "End"),
        ]
        let night2 = [
            line(midnight + 30 * minute, "paused", "PauseFinish"), line(midnight + 40 * minute, "paused", "End"),
        ]
        let files = [("night1.jsonl", night1), ("night2.jsonl", night2)].map { name, lines in
            let file = folder.appendingPathComponent(name)
            _ = FileManager.default.createFile(
                atPath: file.path, contents: Data((lines.joined(separator: "\n") + "\n").utf8))
            return file.path
        }
        let state = folder.appendingPathComponent("open.state").path
        var rows: [[String]] = []
        for (night, file) in files.enumerated() {
            let out = folder.appendingPathComponent("night\(night + 1)")
            let result = try CommandRunner.run(["--out", out.path, "--state", state, file])
            #expect(result.status == 0, "\(result.standardError)")
            rows.append(try lines(out, "playbacks.csv").dropFirst().map { String($0.prefix { $0 != "," }) })
        }
        #expect(rows == [["late-show"], ["paused"]])
    }

    /// Whether the lines of a report written by a series of nights are those of one run: rows
    /// in the same order; trace lines and rejects the same, in any order; the same points,
    /// InfluxDB's each at its millisecond (a night ends its series of nanoseconds: see
    /// docs/time.md), Graphite's summed per path and second (one second of a life's points
    /// may be written by two nights, as two lines).
    static func sameLines(_ name: String, _ split: [Substring], _ whole: [Substring]) -> Bool {
        if name.hasSuffix(".csv") { return split == whole }
        if name == "metrics.influx" {
            func milliseconds(_ lines: [Substring]) -> [Substring] { lines.map { $0.dropLast(6) }.sorted() }
            return milliseconds(split) == milliseconds(whole)
        }
        if name == "metrics.graphite" {
            func sums(_ lines: [Substring]) -> [String: Double] {
                var sums: [String: Double] = [:]
                for line in lines {
                    let fields = line.split(separator: " ")
                    sums[fields[0] + " " + fields[2], default: 0] += Double(fields[1]) ?? .nan
                }
                return sums
            }
            return sums(split) == sums(whole)
        }
        return split.sorted() == whole.sorted()
    }

    /// A state file of the earlier format, which kept records, is refused with what to do.
    @Test func anOlderStateFileIsRefusedWithWhatToDo() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("old.state")
        let old = #"{"avtReplayState":3,"frontier":1763625572600,"lives":0,"waiting":0,"inputs":[]}"# + "\n"
        try Data(old.utf8).write(to: state)
        let out = folder.appendingPathComponent("out")
        let result = try CommandRunner.run(["--out", out.path, "--state", state.path] + CommandRunner.samples)
        #expect(result.status == 4)
        #expect(result.standardError.contains("is a state file of format 3, written by an earlier avt-replay"))
        #expect(result.standardError.contains("--state \(state.path) --finish"))
        #expect(try String(contentsOf: state, encoding: .utf8) == old)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("playbacks.csv").path))
    }

    @Test func aStateFileThatIsNotOneFailsWithoutWritingAnything() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("broken.state")
        try Data("not a state\n".utf8).write(to: state)
        let out = folder.appendingPathComponent("out")
        let result = try CommandRunner.run(["--out", out.path, "--state", state.path] + CommandRunner.samples)
        #expect(result.status == 4)
        #expect(result.standardError.contains("not an avt-replay state file"))
        #expect(try String(contentsOf: state, encoding: .utf8) == "not a state\n")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("playbacks.csv").path))
    }

    /// The bucket rows of a CSV file (not `all`), without their `partial` cell, and that cell.
    private func bucketRows(_ folder: URL, _ name: String) throws -> [(row: String, partial: Bool)] {
        let lines = try lines(folder, name)
        let header = lines.first.map(CSVLines.cells) ?? []
        let column = try #require(header.firstIndex(of: "partial"))
        return lines.dropFirst().filter { !$0.hasPrefix("all,") }.map { line in
            var row = CSVLines.cells(line)
            let partial = row.remove(at: column) == "true"
            return (row.joined(separator: "\u{1F}"), partial)
        }
    }

    /// The `--aggregate` lines of `metrics.influx`, by series and time, the last one written winning.
    private func aggregatePoints(_ folders: [URL]) throws -> [String: Substring] {
        var points: [String: Substring] = [:]
        for folder in folders {
            for line in try lines(folder, "metrics.influx") where line.contains("_aggregates,") {
                let fields = line.split(separator: " ")
                points[String(fields[0] + " " + fields[2])] = fields[1]
            }
        }
        return points
    }

    /// A bucket still open at the end of a night is marked partial and carried in the state:
    /// the next night writes it whole, and what it pushes last for each bucket is what one
    /// run over both nights pushes.
    @Test(arguments: [[], ["--group-by", "title"]])
    func openBucketsArePartialAndTheNextRunWritesThemWhole(groupBy: [String]) throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = CommandRunner.samples
        let state = folder.appendingPathComponent("open.state").path
        // Some lives end within the first night, others are still open at its end, with a
        // playback that began in the hour of the night's other rows: that hour stays open.
        let arguments = ["--aggregate", "--bucket", "1h", "--idle-gap", "10m"] + groupBy
        let whole = folder.appendingPathComponent("whole")
        #expect(try CommandRunner.run(arguments + ["--out", whole.path] + samples).status == 0)
        let first = folder.appendingPathComponent("first")
        #expect(try CommandRunner.run(arguments + ["--out", first.path, "--state", state, samples[0]]).status == 0)
        let second = folder.appendingPathComponent("second")
        let last = try CommandRunner.run(arguments + ["--out", second.path, "--state", state, "--finish", samples[1]])
        #expect(last.status == 0, "\(last.standardError)")
        for name in ["summary.csv", "aggregates.csv"] {
            let night1 = try bucketRows(first, name)
            let night2 = try bucketRows(second, name)
            let expected = try bucketRows(whole, name)
            #expect(night1.contains { $0.partial }, "\(name): night 1 leaves an open bucket")
            #expect(!night2.contains { $0.partial } && !expected.contains { $0.partial }, "\(name)")
            // The whole buckets of night 1 and every bucket of night 2 are one run's buckets.
            let split = night1.filter { !$0.partial }.map(\.row) + night2.map(\.row)
            #expect(split.sorted() == expected.map(\.row).sorted(), "\(name)")
        }
        let firstPage = try String(contentsOf: first.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(firstPage.contains("Partial") && firstPage.contains("<rect class=\"partial\""))
        #expect(try aggregatePoints([first, second]) == aggregatePoints([whole]))
    }

    /// The page's breakdown carries the open buckets as summary.csv does: night 2's table by
    /// title counts the views of its summary.csv's `all` rows, night 1's open bucket included.
    @Test func theBreakdownCarriesTheOpenBucketsAsTheSummaryDoes() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = CommandRunner.samples
        let state = folder.appendingPathComponent("open.state").path
        // Hour buckets: the first night's playbacks are in the bucket it leaves open.
        let arguments = ["--bucket", "1h", "--idle-gap", "10m", "--group-by", "title", "--breakdown-min-views", "1"]
        let first = folder.appendingPathComponent("first")
        #expect(try CommandRunner.run(arguments + ["--out", first.path, "--state", state, samples[0]]).status == 0)
        let second = folder.appendingPathComponent("second")
        let last = try CommandRunner.run(arguments + ["--out", second.path, "--state", state, "--finish", samples[1]])
        #expect(last.status == 0, "\(last.standardError)")
        let page = try String(contentsOf: second.appendingPathComponent("report.html"), encoding: .utf8)
        let allRows = try lines(second, "summary.csv").map(CSVLines.cells).filter { $0[0] == "all" && $0[2] != "0" }
        #expect(allRows.contains { $0[1] == "Episode 42" }, "a playback of night 1's open bucket")
        for row in allRows {
            let title = row[1].replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
                of: "\"", with: "&quot;")
            #expect(
                page.contains("data-value=\"\(title)\" data-col=\"views\" data-sort=\"\(row[2])\">\(row[2])</td>"),
                "\(row[1])")
        }
    }

    private func lines(_ folder: URL, _ name: String) throws -> [Substring] {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).split(separator: "\n")
    }
}
