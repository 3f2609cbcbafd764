import Foundation
import Testing

/// The command line's conventions: the version, misspelt subcommands, durations, times, and
/// what `--quiet` hides.
struct ConventionsTests {
    @Test func versionIsAFlagAndASubcommand() throws {
        for arguments in [["--version"], ["version"]] {
            let result = try CommandRunner.run(arguments)
            #expect(result.status == 0)
            #expect(result.standardOutput.hasPrefix("avt-replay "), "\(arguments)")
            #expect(result.standardOutput.split(separator: ".").count == 3, "\(arguments)")
        }
    }

    @Test func completionScriptsNameEverySubcommand() throws {
        for shell in ["bash", "zsh", "fish"] {
            let result = try CommandRunner.run(["--generate-completion-script", shell])
            #expect(result.status == 0)
            for name in ["merge", "flush", "check", "diff", "version", "idle-gap"] {
                #expect(result.standardOutput.contains(name), "\(shell): \(name)")
            }
        }
    }

    @Test func aMisspeltSubcommandIsAUsageErrorThatWritesNothing() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let misspelt = try CommandRunner.run(["--out", out.path, "mrege", "a", "b"])
        #expect(misspelt.status == 2)
        #expect(misspelt.standardError.contains("'mrege' is neither a file nor a subcommand"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let help = try CommandRunner.run(["help", "mrege"])
        #expect(help.status == 2)
        #expect(help.standardError.contains("'mrege' is not a subcommand"))
        #expect(try CommandRunner.run(["help", "merge"]).status == 0)
    }

    @Test func durationsTakeGoForm() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func status(_ option: String, _ value: String) throws -> Int32 {
            let out = folder.appendingPathComponent(option + value).path
            return try CommandRunner.run(["-qq", "--out", out, option, value] + CommandRunner.samples).status
        }
        for value in ["90s", "1h30m", "2d", "1d12h", "1m30s500ms"] {
            #expect(try status("--idle-gap", value) == 0, "\(value)")
        }
        for value in ["1h30", "30m1h", "1m1m", "h", "0s", "-5m", "1.5h"] {
            #expect(try status("--idle-gap", value) == 2, "\(value)")
        }
        #expect(try status("--bucket", "1h30m") == 0)
    }

    @Test func sinceTakesADateAnRFC3339TimeAndEpochSecondsOrMilliseconds() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func playbacks(_ since: String) throws -> (rows: String, warnings: String) {
            let out = folder.appendingPathComponent(since).path
            let result = try CommandRunner.run(["-q", "--out", out, "--since", since] + CommandRunner.samples)
            #expect(result.status == 0, "\(since)")
            return (try String(contentsOfFile: out + "/playbacks.csv", encoding: .utf8), result.standardError)
        }
        // 2025-11-20T07:10:00Z, four ways.
        let rfc3339 = try playbacks("2025-11-20T07:10:00Z")
        #expect(try playbacks("1763622600").rows == rfc3339.rows)
        #expect(try playbacks("1763622600000").rows == rfc3339.rows)
        #expect(rfc3339.rows.split(separator: "\n").count == 4)
        // A date is its midnight, UTC: every playback of the samples is after it.
        #expect(try playbacks("2025-11-20").rows.split(separator: "\n").count == 8)
        #expect(rfc3339.warnings.isEmpty)
        // Seconds in 2100 and later, or milliseconds before 2000, could be the other unit.
        #expect(try playbacks("4102444800").warnings.contains("4102444800 is read as epoch seconds"))
        #expect(try playbacks("946684799999").warnings.contains("is read as epoch milliseconds"))
    }

    @Test func quietHidesTheSummaryNotTheWarningsAndTwiceHidesBoth() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("bad.jsonl")
        try Data(
            """
            {"ts":1000,"instrument":"i","tracker":0,"action":"StreamLoad"}
            not json

            """.utf8
        ).write(to: log)
        func standardError(_ flags: [String]) throws -> String {
            let result = try CommandRunner.run(flags + ["--out", folder.appendingPathComponent("out").path, log.path])
            #expect(result.status == 1)
            return result.standardError
        }
        let loud = try standardError([])
        #expect(loud.contains("bad.jsonl:2: not valid JSON"))
        #expect(loud.contains("avt-replay: read 1 file "))
        let quiet = try standardError(["-q"])
        #expect(quiet.contains("bad.jsonl:2: not valid JSON"))
        #expect(!quiet.contains("avt-replay: read "))
        #expect(try standardError(["-qq"]).isEmpty)
        #expect(try standardError(["--quiet", "--quiet"]).isEmpty)
    }
}
