import Foundation
import Testing

/// The command's contract with cron jobs and scripts: exit codes, messages, rejects.jsonl.
struct CommandLineTests {
    @Test func aBadLineIsRejectedAndTheGoodOnesAroundItReplay() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("bad.jsonl")
        try Data(
            """
            {"ts":1000,"instrument":"i","tracker":0,"action":"StreamLoad","attrs":{"title":"T"}}
            {"ts":1500,"instrument":"i","tracker":0,"action":"Start"
            {"ts":2000,"instrument":"i","tracker":0,"action":"Start"}
            {"ts":3000,"instrument":"i","tracker":"zero","action":"End"}
            {"ts":4000,"instrument":"i","tracker":0,"action":"End"}

            """.utf8
        ).write(to: log)
        let out = folder.appendingPathComponent("out")
        let result = try CommandRunner.run(["--out", out.path, log.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("bad.jsonl:2: "))
        #expect(result.standardError.contains("bad.jsonl:4: \"tracker\" must be an integer"))
        #expect(result.standardError.contains("5 records: 3 replayed, 2 rejected"))
        let rejects = try String(contentsOf: out.appendingPathComponent("rejects.jsonl"), encoding: .utf8)
        let lines = rejects.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(
            lines.last?.hasPrefix(
                #"{"file":"\#(log.path)","line":4,"reason":"\"tracker\" must be an integer","excerpt":"{\"ts\":3000"#)
                == true)
        let playbacks = try String(contentsOf: out.appendingPathComponent("playbacks.csv"), encoding: .utf8)
        #expect(playbacks.contains("i,0,i:1000:p1,i:1000:s1,1000,4000,T,,1000,2000,"))
    }

    @Test func standardInputIsRead() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = #"{"ts":"1970-01-01T00:00:01Z","instrument":"i","tracker":0,"action":"StreamLoad"}"# + "\n"
        let result = try CommandRunner.run(
            ["--out", folder.path, "--quiet", "--metrics", "events", "-"], standardInput: Data(input.utf8))
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        let influx = try String(contentsOf: folder.appendingPathComponent("metrics.influx"), encoding: .utf8)
        // The instrument is a field: its points fall in the millisecond at FNV-1a("i") mod 10⁶ ns.
        #expect(influx == "avt_openavt,tracker=0 NumLoads=1i,instrument=\"i\",playback_id=\"i:1000:p1\" 1000667684\n")
    }

    @Test func aMissingFileIsReportedAndTheOthersStillReplay() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(["--out", folder.path, "/nonexistent/a.jsonl.gz"] + CommandRunner.samples)
        #expect(result.status == 1)
        #expect(result.standardError.contains("/nonexistent/a.jsonl.gz: "))
        let playbacks = try String(contentsOf: folder.appendingPathComponent("playbacks.csv"), encoding: .utf8)
        #expect(playbacks.split(separator: "\n").count == 8)
    }

    @Test func usageErrorsExitWithTwo() throws {
        #expect(try CommandRunner.run([]).status == 2)
        #expect(try CommandRunner.run(["--hub", "fancy", "x.jsonl"]).status == 2)
        #expect(try CommandRunner.run(["-", "-"]).status == 2)
    }

    @Test func anUnwritableOutputFolderExitsWithThree() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let blocker = folder.appendingPathComponent("file")
        try Data().write(to: blocker)
        let result = try CommandRunner.run(
            ["--out", blocker.appendingPathComponent("out").path] + CommandRunner.samples)
        #expect(result.status == 3)
        #expect(result.standardError.contains("cannot"))
    }

    @Test func helpShowsExamples() throws {
        let result = try CommandRunner.run(["--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("avt-replay logs/*.jsonl.gz"))
        #expect(result.standardOutput.contains("Exit status:\n  0  every input line was replayed"))
        #expect(result.standardOutput.contains("\n  8  another run holds the report folder"))
        #expect(result.standardOutput.contains("--group-by title,source_host"))
        #expect(result.standardOutput.contains("avt-replay check --expect expected/"))
        #expect(result.standardOutput.contains("diff "))
    }
}

/// The progress line: drawn on a terminal (a pseudo-terminal from `script`), absent otherwise.
struct ProgressLineTests {
    @Test func aTerminalGetsAProgressLineAndCronDoesNot() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out").path
        let files = CommandRunner.samples
        let (status, terminal) = try onATerminal(["--out", out] + files)
        #expect(status == 0)
        #expect(terminal.contains("\r\u{1B}[Kavt-replay: file 1/2 avt-2025112007.jsonl.gz"))
        #expect(terminal.contains("avt-replay: read 2 files"))
        let piped = try CommandRunner.run(["--out", out] + files)
        #expect(!piped.standardError.contains("file 1/2"))
        #expect(piped.standardError.split(separator: "\n").filter { $0.hasPrefix("avt-replay: read ") }.count == 1)
        #expect(!piped.standardError.contains("\r"))
    }

    /// Runs `arguments` on a pseudo-terminal; returns its exit status and what the terminal got.
    private func onATerminal(_ arguments: [String]) throws -> (status: Int32, terminal: String) {
        let command = ([CommandRunner.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = Pipe()
        try process.run()
        let terminal = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, terminal)
    }

    @Test func aWarningClearsTheProgressLineFirst() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The progress line is first drawn once the reader has read the first block of lines
        // (1,024) after the first record; the bad line comes blocks later, so it is printed
        // while the line is drawn.
        var log = ""
        for index in 0..<3_000 {
            log +=
                "{\"ts\":\(1_000 + index),\"instrument\":\"i\(index % 40)\",\"tracker\":0,\"action\":\"StreamLoad\"}\n"
        }
        log += "not json\n"
        let path = folder.appendingPathComponent("bad.jsonl")
        try Data(log.utf8).write(to: path)
        let (status, terminal) = try onATerminal(["--out", folder.appendingPathComponent("out").path, path.path])
        #expect(status == 1)
        let warning = "avt-replay: \(path.path):3001: not valid JSON"
        #expect(terminal.contains("\r\u{1B}[K" + warning), "\(terminal.debugDescription)")
        #expect(terminal.contains("\r\u{1B}[Kavt-replay: file 1/1 bad.jsonl"))
        // Every progress text is followed by the next clearing, never by another line.
        for piece in terminal.components(separatedBy: "\r\u{1B}[K") where piece.hasPrefix("avt-replay: file ") {
            #expect(!piece.contains("\n"), "\(piece.debugDescription)")
        }
    }
}

/// `--since` and `--until`: consecutive windows report each session once, whole.
struct TimeWindowTests {
    @Test func consecutiveWindowsPartitionTheSessions() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = CommandRunner.samples
        func rows(_ name: String, _ window: [String]) throws -> [Substring] {
            let out = folder.appendingPathComponent("out" + window.joined()).path
            #expect(try CommandRunner.run(["--out", out] + window + files).status == 0)
            return try String(contentsOfFile: out + "/" + name, encoding: .utf8).split(separator: "\n").dropFirst()
                .map { $0 }
        }
        for name in ["playbacks.csv", "vp_sessions.csv", "marconi_items.csv"] {
            let all = try rows(name, [])
            let early = try rows(name, ["--until", "2025-11-20T07:10:00Z"])
            let late = try rows(name, ["--since", "2025-11-20T07:10:00Z"])
            #expect(Set(early + late) == Set(all), "\(name)")
            #expect(early.count + late.count == all.count, "\(name)")
        }
        let tv = try rows("playbacks.csv", ["--since", "2025-11-20T07:50:00Z", "--until", "2025-11-20T08:00:00Z"])
        // The film started at 07:57 and ended at 08:22: whole, though it ends after --until.
        #expect(tv.count == 1)
        #expect(tv.first?.contains("1763625420000,1763626920000") == true)
        #expect(
            try CommandRunner.run(["--since", "2025-11-21T00:00:00Z", "--until", "2025-11-20T00:00:00Z"] + files).status
                == 2)
    }

    @Test func groupByTitleSplitsTheSummaryIntoOneRowGroupPerTitle() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("titles.jsonl")
        let lines = [("a", "Episode 1"), ("b", "Trailer"), ("c", "Episode 1")].map { instrument, title in
            #"{"ts":1000,"instrument":"\#(instrument)","tracker":0,"action":"MediaRequest","attrs":{"title":"\#(title)"}}"#
                + "\n"
                + #"{"ts":2500,"instrument":"\#(instrument)","tracker":0,"action":"Start"}"# + "\n"
        }
        try Data(lines.joined().utf8).write(to: log)
        let out = folder.appendingPathComponent("out")
        let result = try CommandRunner.run([
            "--out", out.path, "--quiet", "--group-by", "title", "--breakdown-min-views", "1", log.path,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let summary = try String(contentsOf: out.appendingPathComponent("summary.csv"), encoding: .utf8)
        let rows = summary.split(separator: "\n").map { $0.split(separator: ",").prefix(5).joined(separator: ",") }
        #expect(
            rows == [
                "bucket,title,views,plays,exits_before_start",
                "1970-01-01T00:00:00Z,Episode 1,2,2,0", "1970-01-01T00:00:00Z,Trailer,1,1,0",
                "all,Episode 1,2,2,0", "all,Trailer,1,1,0",
            ])
        // The page's headline and charts are not split: they are the same as without --group-by;
        // its breakdown has a table by title.
        let plain = folder.appendingPathComponent("plain")
        #expect(try CommandRunner.run(["--out", plain.path, "--quiet", log.path]).status == 0)
        func headline(_ folder: URL) throws -> Substring {
            let page = try String(contentsOf: folder.appendingPathComponent("report.html"), encoding: .utf8)
            return try #require(page.split(separator: "<section id=\"breakdown\">").first)
        }
        #expect(try headline(out) == headline(plain))
        #expect(try headline(out).contains("data-col=\"views\">3<"))
        let page = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(page.contains("<h3>By title</h3>"))
        #expect(page.contains("data-key=\"title\" data-value=\"Episode 1\" data-col=\"views\" data-sort=\"2\">2</td>"))
        #expect(
            !(try String(contentsOf: plain.appendingPathComponent("report.html"), encoding: .utf8)).contains("<h3>"))
        let twice = try CommandRunner.run([
            "--out", out.path, "--group-by", "title", "--group-by", "system,title", log.path,
        ])
        #expect(twice.status == 2)
        #expect(twice.standardError.contains("--group-by names title twice."))
    }
}
