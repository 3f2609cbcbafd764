import Foundation
import Testing

/// Refused and failed runs say what they refused, and where (issue 52.2, 52.3): a refused
/// run's rejects are kept beside the report folder it leaves untouched, every failure names its
/// file at every `-q` level, a missing spool is no success, and no secret is printed.
struct RefusalsTests {
    /// 1,000 lines, every 50th of them not JSON (20 rejects).
    static let mostlyGood: String =
        (0..<1_000).map { index in
            index % 50 == 7
                ? "not json \(index)"
                : #"{"ts":\#(1_763_622_300_000 + Int64(index)),"instrument":"i\#(index % 5)","tracker":0,"action":"Ping"}"#
        }.joined(separator: "\n") + "\n"

    @Test(arguments: [["--strict"], ["--max-rejects", "5"]])
    func aRefusedRunKeepsEveryRejectBesideTheUntouchedReports(option: [String]) throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("day.jsonl")
        try Data(Self.mostlyGood.utf8).write(to: log)
        let good = try CommandRunner.run(["--out", "reports", "--quiet"] + CommandRunner.samples, in: folder)
        #expect(good.status == 0)
        let reports = folder.appendingPathComponent("reports")
        let before = try FileManager.default.contentsOfDirectory(atPath: reports.path).sorted()
        let playbacks = try Data(contentsOf: reports.appendingPathComponent("playbacks.csv"))

        let refused = try CommandRunner.run(["--out", "reports"] + option + ["day.jsonl"], in: folder)
        #expect(refused.status == 4)
        let kept = folder.appendingPathComponent("reports.refused-rejects.jsonl")
        let lines = try String(contentsOf: kept, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 20)
        #expect(lines.last?.hasPrefix(#"{"file":"day.jsonl","line":958,"reason":"not valid JSON: "#) == true)
        #expect(
            refused.standardError.contains("... and 10 more rejected or late lines (see reports.refused-rejects.jsonl)")
        )
        #expect(refused.standardError.contains("every problem is listed in reports.refused-rejects.jsonl"))
        #expect(!refused.standardError.contains("(see rejects.jsonl)"))
        // The report folder is the good run's, byte for byte (its run.json aside).
        #expect(try FileManager.default.contentsOfDirectory(atPath: reports.path).sorted() == before)
        #expect(try Data(contentsOf: reports.appendingPathComponent("playbacks.csv")) == playbacks)

        // Named even with -qq; a run that publishes removes what a refused one kept.
        let silent = try CommandRunner.run(["--out", "reports", "-qq"] + option + ["day.jsonl"], in: folder)
        #expect(silent.status == 4)
        #expect(silent.standardError.contains("reports.refused-rejects.jsonl"), "\(silent.standardError)")
        let published = try CommandRunner.run(["--out", "reports", "-qq", "day.jsonl"], in: folder)
        #expect(published.status == 1)
        #expect(!FileManager.default.fileExists(atPath: kept.path))
    }

    @Test func noReadableInputNamesEveryFileEvenWithQQ() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(
            ["-qq", "--out", folder.appendingPathComponent("out").path, "logs/missing-1.jsonl", "missing-2.jsonl.gz"],
            in: folder)
        #expect(result.status == 6)
        #expect(result.standardError.contains("logs/missing-1.jsonl: cannot open"), "\(result.standardError)")
        #expect(result.standardError.contains("missing-2.jsonl.gz: cannot open"))
        #expect(result.standardError.contains("no input could be read: logs/missing-1.jsonl, missing-2.jsonl.gz"))
    }

    @Test func flushingASpoolThatDoesNotExistFails() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(
            ["flush", "--spool", "reprots.spool", "--influx", "http://127.0.0.1:9/write?db=telemetry"], in: folder)
        #expect(result.status == 2)
        #expect(result.standardError.contains("the spool reprots.spool does not exist"), "\(result.standardError)")
        #expect(!result.standardError.contains("batches delivered"))
        // An existing, empty spool is a flush with nothing to send.
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("reports.spool"), withIntermediateDirectories: true)
        let empty = try CommandRunner.run(
            ["flush", "--spool", "reports.spool", "--influx", "http://127.0.0.1:9/write?db=telemetry"], in: folder)
        #expect(empty.status == 0, "\(empty.standardError)")
        #expect(empty.standardError.contains("0 batches delivered"))
    }

    @Test(arguments: [
        (
            "http://avt:hunter2secret@127.0.0.1:8086/write?db=telemetry",
            "http://avt:***@127.0.0.1:8086/write?db=telemetry"
        ),
        ("http://127.0.0.1:8086/write?db=telemetry&u=avt&p=hunter2secret", "&p=***"),
        ("http://127.0.0.1:8086/api/v2/write?org=o&bucket=b&token=hunter2secret", "&token=***"),
        ("http://avt:hunter2secret@127.0.0.1:8086/write", "http://avt:***@127.0.0.1:8086/write"),
    ])
    func aURLWithAPasswordIsRefusedWithoutPrintingIt(url: String, shown: String) throws {
        for command in [
            ["--out", "/nonexistent/never", CommandRunner.samples[0]], ["flush"], ["merge", "/nonexistent/shard"],
        ] {
            let result = try CommandRunner.run(command + ["--influx", url])
            #expect(result.status == 2)
            #expect(!result.standardError.contains("hunter2secret"), "\(result.standardError)")
            #expect(result.standardError.contains(shown), "\(result.standardError)")
        }
    }
}
