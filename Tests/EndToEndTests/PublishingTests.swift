import Foundation
import Testing

/// A run replaces the reports only when it succeeds: staged beside them, the state written,
/// then published; a run that reads no input, cannot write its state, or is killed at any
/// step leaves the previous reports byte-identical.
struct PublishingTests {
    private func reports(in folder: URL) throws -> [String: Data] {
        try BadInputTests.contents(of: folder)
    }

    @Test func aRunThatReadsNoInputLeavesThePreviousReports() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        #expect(try CommandRunner.run(["--out", out.path] + CommandRunner.samples).status == 0)
        let before = try reports(in: out)
        // A glob that matched nothing, and a missing file.
        for arguments in [[folder.appendingPathComponent("logs/*.jsonl.gz").path], ["/nonexistent/a.jsonl"]] {
            let result = try CommandRunner.run(["--out", out.path] + arguments)
            #expect(result.status == 6, "\(arguments)")
            #expect(result.standardError.contains("no input could be read"))
            #expect(try reports(in: out) == before)
        }
        // A misspelt subcommand is a usage error before any work.
        let misspelt = try CommandRunner.run(["--out", out.path, "verison"])
        #expect(misspelt.status == 2)
        #expect(try reports(in: out) == before)
    }

    @Test func aStateThatCannotBeWrittenLeavesThePreviousReports() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        #expect(try CommandRunner.run(["--out", out.path] + CommandRunner.samples).status == 0)
        let before = try reports(in: out)
        let file = folder.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let result = try CommandRunner.run(
            ["--out", out.path, "--trace", "--state", file.appendingPathComponent("state").path]
                + CommandRunner.samples)
        #expect(result.status == 3)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0 != "run.json" }.sorted()
                == before.keys.sorted())
        #expect(try reports(in: out) == before)
    }

    /// The files under a folder, by path relative to it, links not followed.
    static func tree(_ folder: URL) -> [String] {
        let names = FileManager.default.subpaths(atPath: folder.path) ?? []
        return names.filter { name in
            var status = stat()
            return lstat(folder.appendingPathComponent(name).path, &status) == 0 && status.st_mode & S_IFMT != S_IFDIR
        }.sorted()
    }

    /// A series of two nights, with `--state` and metrics for a server that is down (so
    /// that they are spooled), killed before each step of the second night that changes the
    /// disk in turn (``DiskStep``), then run again: whatever the step, the report folder
    /// holds one night's whole set, the next run goes on to the reports, state and previous
    /// state of an unbroken series, `--replace-run` too, and nothing temporary is left.
    @Test func aRunKilledBeforeAnyStepLeavesOneWholeSetAndGoesOn() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (first, second) = (CommandRunner.samples[0], CommandRunner.samples[1])
        let down = ["--influx", "http://127.0.0.1:9/write?db=telemetry"]
        func night(_ base: URL, _ input: String, _ extra: [String] = [], kill step: Int? = nil) throws
            -> CommandRunner.Output
        {
            try CommandRunner.run(
                [
                    "-q", "--out", base.appendingPathComponent("out").path, "--state",
                    base.appendingPathComponent("st").path,
                ] + down + extra + [input],
                environment: step.map { ["AVT_REPLAY_KILL_AT": String($0)] } ?? [:])
        }
        func files(_ base: URL) throws -> (reports: [String: Data], state: Data, previous: Data) {
            (
                try reports(in: base.appendingPathComponent("out")),
                try Data(contentsOf: base.appendingPathComponent("st")),
                try Data(contentsOf: base.appendingPathComponent("st.previous"))
            )
        }
        // The unbroken series.
        let clean = folder.appendingPathComponent("clean")
        #expect(try night(clean, first).status == 5)
        let afterFirst = try files(clean)
        let base = folder.appendingPathComponent("base")
        try FileManager.default.copyItem(at: clean, to: base)
        #expect(try night(clean, second).status == 5)
        let afterSecond = try files(clean)
        #expect(afterSecond.previous == afterFirst.state)
        let expectedTree = Self.tree(clean).filter { !$0.hasPrefix("out.spool/") }
        // A third night, for the cron job that comes after a killed night.
        let third = folder.appendingPathComponent("night-3.jsonl").path
        try Data(
            #"{"ts":1763711000000,"instrument":"tv-n3","tracker":0,"action":"MediaRequest","attrs":{"title":"N3"}}"#
                .utf8
        ).write(to: URL(fileURLWithPath: third))
        let afterThird: (reports: [String: Data], state: Data, previous: Data)
        do {
            let series = folder.appendingPathComponent("series")
            try FileManager.default.copyItem(at: clean, to: series)
            #expect(try night(series, third).status == 5)
            afterThird = try files(series)
        }
        var step = 1
        while step < 200 {
            let work = folder.appendingPathComponent("step-\(step)")
            try FileManager.default.copyItem(at: base, to: work)
            let killed = try night(work, second, kill: step)
            if killed.status != SIGKILL {
                #expect(killed.status == 5)
                break
            }
            let message = killed.standardError
            let left = try reports(in: work.appendingPathComponent("out"))
            #expect(left == afterFirst.reports || left == afterSecond.reports, "\(message)")
            // Killed after its state was committed, the night is done; before, it is made again.
            let done = try Data(contentsOf: work.appendingPathComponent("st")) == afterSecond.state
            // The next night's run goes on to the unbroken series when the night is done, and
            // is refused, naming the night to run again, when it is not.
            let next = folder.appendingPathComponent("next-\(step)")
            try FileManager.default.copyItem(at: work, to: next)
            let nextNight = try night(next, third)
            // Killed before its record of the run was written (its first steps), a run has
            // changed nothing: the next night goes on from the night before, as if it had not run.
            let traceless =
                !done && !FileManager.default.fileExists(atPath: work.appendingPathComponent("st.pending").path)
            if traceless {
                #expect(left == afterFirst.reports, "\(message)")
                #expect(nextNight.status == 5, "\(message): \(nextNight.standardError)")
            } else if done {
                #expect(nextNight.status == 5, "\(message): \(nextNight.standardError)")
                #expect(try files(next) == afterThird, "\(message)")
            } else {
                #expect(nextNight.status == 4, "\(message): \(nextNight.standardError)")
                #expect(
                    nextNight.standardError.contains("Run it again first"), "\(message): \(nextNight.standardError)")
                #expect(try Data(contentsOf: next.appendingPathComponent("st")) == afterFirst.state, "\(message)")
            }
            try FileManager.default.removeItem(at: next)
            let again = try night(work, second)
            #expect(again.status == (done ? 4 : 5), "\(message): \(again.standardError)")
            #expect(try files(work) == afterSecond, "\(message)")
            #expect(Self.tree(work).filter { !$0.hasPrefix("out.spool/") } == expectedTree, "\(message)")
            #expect(!Self.tree(work).contains { $0.contains(".tmp") }, "\(message)")
            // Every batch kept is one night's metrics whole (the samples' fit in one batch).
            let spool = work.appendingPathComponent("out.spool")
            for name in Self.tree(spool) where name.hasSuffix(".influx") {
                let batch = try Data(contentsOf: spool.appendingPathComponent(name))
                #expect(
                    [afterFirst.reports["metrics.influx"], afterSecond.reports["metrics.influx"]].contains(batch),
                    "\(message): \(name)")
            }
            let replaced = try night(work, second, ["--replace-run"])
            #expect(replaced.status == 5, "\(message): \(replaced.standardError)")
            #expect(try files(work) == afterSecond, "\(message)")
            try FileManager.default.removeItem(at: work)
            step += 1
        }
        // Every report file is created and renamed, the folder swapped, the state committed:
        // a run of far fewer steps would not have been killed where it matters.
        #expect(step > 25)
    }

    /// Two runs on one report folder or one state file: while the first is stopped before
    /// any one of its steps, the second is refused at once (exit 8), naming the first, and
    /// writes nothing; the first then ends as if alone.
    @Test func aSecondRunOnTheSameFolderOrStateIsRefused() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = CommandRunner.samples[0]
        let clean = folder.appendingPathComponent("clean")
        let cleanState = folder.appendingPathComponent("clean.st").path
        #expect(
            try CommandRunner.run(["-q", "--out", clean.path, "--state", cleanState, "--finish", input]).status == 0)
        let expected = try reports(in: clean)
        var step = 1
        while step < 100 {
            let out = folder.appendingPathComponent("out-\(step)")
            let state = folder.appendingPathComponent("st-\(step)").path
            let paused = Process()
            paused.executableURL = CommandRunner.binary
            paused.arguments = ["-q", "--out", out.path, "--state", state, "--finish", input]
            paused.environment = ProcessInfo.processInfo.environment.merging(["AVT_REPLAY_PAUSE_AT": String(step)]) {
                _, new in new
            }
            let errors = Pipe()
            paused.standardError = errors
            try paused.run()
            // The run says it stops before stopping, or ends without reaching the step.
            let said = errors.fileHandleForReading.readData(ofLength: 1)
            if said.isEmpty {
                paused.waitUntilExit()
                #expect(paused.terminationStatus == 0)
                break
            }
            for (other, what) in [
                (["--out", out.path, input], "the reports in \(out.path)"),
                (
                    ["--out", folder.appendingPathComponent("elsewhere").path, "--state", state, input],
                    "the state \(state)"
                ),
            ] {
                let refused = try CommandRunner.run(["-q"] + other)
                #expect(refused.status == 8, "step \(step): \(refused.standardError)")
                #expect(
                    refused.standardError.contains(
                        "another avt-replay run (pid \(paused.processIdentifier)) is writing \(what)"),
                    "\(refused.standardError)")
            }
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("elsewhere/run.json").path))
            kill(paused.processIdentifier, SIGCONT)
            _ = errors.fileHandleForReading.readDataToEndOfFile()
            paused.waitUntilExit()
            #expect(paused.terminationStatus == 0, "step \(step)")
            #expect(try reports(in: out) == expected, "step \(step)")
            step += 1
        }
        #expect(step > 15)
    }

    /// Whether this process may mount a file system (root, outside a container that forbids it).
    static let canMount: Bool = {
        guard let folder = try? CommandRunner.makeTemporaryFolder() else { return false }
        defer { try? FileManager.default.removeItem(at: folder) }
        guard mount(tmpfs: folder, size: "64k") else { return false }
        unmount(folder)
        return true
    }()

    @discardableResult
    static func mount(tmpfs folder: URL, size: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/mount")
        process.arguments = ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", folder.path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    static func unmount(_ folder: URL) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/umount")
        process.arguments = [folder.path]
        try? process.run()
        process.waitUntilExit()
    }

    /// Fills the file system of `folder` with one file, up to its last byte.
    static func fill(_ folder: URL) throws -> URL {
        let filler = folder.appendingPathComponent("filler")
        _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        defer { try? handle.close() }
        var chunk = Data(count: 64 << 10)
        while !chunk.isEmpty {
            do {
                try handle.write(contentsOf: chunk)
            } catch {
                chunk = Data(count: chunk.count / 2)
            }
        }
        return filler
    }

    /// A run whose reports or whose state find their disk full (a small tmpfs each) fails
    /// with exit 3, leaving the reports, the state and its previous state as they were and
    /// nothing of its own; with room again, the same run goes on to an unbroken series.
    @Test(.enabled(if: canMount, "needs to mount a tmpfs"))
    func aFullDiskLeavesTheReportsAndTheStateAsTheyWere() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (first, second) = (CommandRunner.samples[0], CommandRunner.samples[1])
        let clean = folder.appendingPathComponent("clean")
        func night(_ out: URL, _ state: URL, _ input: String) throws -> CommandRunner.Output {
            try CommandRunner.run(["-q", "--out", out.path, "--state", state.path, input])
        }
        #expect(try night(clean.appendingPathComponent("out"), clean.appendingPathComponent("st"), first).status == 0)
        #expect(try night(clean.appendingPathComponent("out"), clean.appendingPathComponent("st"), second).status == 0)
        let expected = try reports(in: clean.appendingPathComponent("out"))
        for full in ["reports", "state"] {
            let (reportsDisk, stateDisk) = (
                folder.appendingPathComponent("r-\(full)"), folder.appendingPathComponent("s-\(full)")
            )
            for disk in [reportsDisk, stateDisk] {
                try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
                #expect(Self.mount(tmpfs: disk, size: "1m"))
            }
            defer { for disk in [reportsDisk, stateDisk] { Self.unmount(disk) } }
            let (out, state) = (reportsDisk.appendingPathComponent("out"), stateDisk.appendingPathComponent("st"))
            #expect(try night(out, state, first).status == 0)
            let before = (
                reports: try reports(in: out), state: try Data(contentsOf: state),
                previous: try Data(contentsOf: URL(fileURLWithPath: state.path + ".previous")),
                trees: [Self.tree(reportsDisk), Self.tree(stateDisk)]
            )
            let filler = try Self.fill(full == "reports" ? reportsDisk : stateDisk)
            let failed = try night(out, state, second)
            #expect(failed.status == 3, "\(full): \(failed.standardError)")
            #expect(failed.standardError.contains("No space left on device"), "\(failed.standardError)")
            #expect(try reports(in: out) == before.reports)
            #expect(try Data(contentsOf: state) == before.state)
            #expect(try Data(contentsOf: URL(fileURLWithPath: state.path + ".previous")) == before.previous)
            #expect(
                [Self.tree(reportsDisk), Self.tree(stateDisk)].map {
                    $0.filter { $0 != "filler" && $0 != "out/run.json" }
                }
                    == before.trees.map { $0.filter { $0 != "out/run.json" } }, "\(full)")
            try FileManager.default.removeItem(at: filler)
            #expect(try night(out, state, second).status == 0)
            #expect(try reports(in: out) == expected)
            #expect(try Data(contentsOf: state) == Data(contentsOf: clean.appendingPathComponent("st")))
        }
    }

    /// Where the file system cannot swap two folders (`AVT_REPLAY_SWITCH=rename` stands in for
    /// one), the report folder is renamed aside and the new set renamed in: killed before any
    /// step, a run leaves no folder or one whole set, and the next run finishes the switch.
    @Test func withoutASwapAKilledSwitchIsFinishedByTheNextRun() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (first, second) = (CommandRunner.samples[0], CommandRunner.samples[1])
        let rename = ["AVT_REPLAY_SWITCH": "rename"]
        func run(_ out: URL, _ input: String, _ environment: [String: String]) throws -> Int32 {
            try CommandRunner.run(["-q", "--out", out.path, input], environment: environment).status
        }
        let clean = folder.appendingPathComponent("clean")
        #expect(try run(clean, first, rename) == 0)
        let old = try reports(in: clean)
        #expect(try run(clean, second, rename) == 0)
        let new = try reports(in: clean)
        #expect(old != new)
        var step = 1
        while step < 100 {
            let out = folder.appendingPathComponent("out-\(step)")
            #expect(try run(out, first, [:]) == 0)
            let status = try run(out, second, rename.merging(["AVT_REPLAY_KILL_AT": String(step)]) { $1 })
            guard status == SIGKILL else { break }
            if FileManager.default.fileExists(atPath: out.path) {
                let left = try reports(in: out)
                #expect(left == old || left == new, "step \(step)")
            }
            // The next run, whatever it replays, first finishes the switch.
            #expect(try run(out, second, rename) == 0)
            #expect(try reports(in: out) == new, "step \(step)")
            // The run that ended removed its workspace, the lock with it.
            #expect(
                !FileManager.default.fileExists(atPath: folder.appendingPathComponent(".out-\(step).avt-replay").path),
                "step \(step)")
            step += 1
        }
        #expect(step > 15)
    }

    /// A report folder keeps the files of its user, linked into each new set; a folder of
    /// theirs inside, the current folder and a file are refused before any work (exit 3); a
    /// spool an earlier version kept inside is moved beside it.
    @Test func theReportFolderKeepsItsUsersFilesAndRefusesWhatItCannotKeep() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = CommandRunner.samples[0]
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(
            at: out.appendingPathComponent("spool"), withIntermediateDirectories: true)
        try Data("batch\n".utf8).write(to: out.appendingPathComponent("spool/00000001.influx"))
        try Data("notes\n".utf8).write(to: out.appendingPathComponent("NOTES.md"))
        try Data("stale\n".utf8).write(to: out.appendingPathComponent("events.jsonl"))
        let moved = try CommandRunner.run(["--out", out.path, input])
        #expect(moved.status == 0)
        #expect(moved.standardError.contains("was moved to \(out.path).spool"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: out.path + ".spool/00000001.influx")) == Data("batch\n".utf8))
        #expect(try Data(contentsOf: out.appendingPathComponent("NOTES.md")) == Data("notes\n".utf8))
        // A report file the run did not write (no --trace) is not carried over from the set before.
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("events.jsonl").path))
        let before = try reports(in: out)
        try FileManager.default.createDirectory(
            at: out.appendingPathComponent("mine"), withIntermediateDirectories: true)
        let refused = try CommandRunner.run(["--out", out.path, input])
        #expect(refused.status == 3)
        #expect(refused.standardError.contains("holds the folder mine"))
        try FileManager.default.removeItem(at: out.appendingPathComponent("mine"))
        #expect(try reports(in: out) == before)
        let file = folder.appendingPathComponent("a-file")
        try Data().write(to: file)
        #expect(try CommandRunner.run(["--out", file.path, input]).status == 3)
        // CommandRunner runs in the package's folder (the input on standard input: a folder
        // holding an input is refused before, OutputTargetsTests).
        let current = try CommandRunner.run(
            ["--out", ".", "-"], standardInput: try Data(contentsOf: URL(fileURLWithPath: input)))
        #expect(current.status == 3)
        #expect(current.standardError.contains("is the current folder or holds it"))
    }
}
