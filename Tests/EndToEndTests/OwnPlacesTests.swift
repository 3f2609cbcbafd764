import Foundation
import Testing

/// The tool's own places (the workspace beside the report folder, the locks, the state's
/// files, the spool's batches) are never followed through a link, and a run leaves nothing
/// in them when it ends; the report folder keeps its mode, owner and group.
struct OwnPlacesTests {
    /// The names in a folder, hidden ones too.
    private static func names(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    private static func status(_ path: String) -> stat {
        var status = stat()
        _ = lstat(path, &status)
        return status
    }

    @Test func aRunThatEndsLeavesNothingBesideTheReportFolder() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out").path
        let state = folder.appendingPathComponent("st").path
        // A run that reads no input creates nothing: no folder, no run.json, no workspace, no lock.
        let none = try CommandRunner.run(["--out", out, "--state", state, "/nonexistent/a.jsonl"])
        #expect(none.status == 6, "\(none.standardError)")
        #expect(Self.names(folder) == [])
        // Nor the folders above a new report folder.
        let deep = folder.appendingPathComponent("a/b/out").path
        #expect(try CommandRunner.run(["--out", deep, "/nonexistent/a.jsonl"]).status == 6)
        #expect(Self.names(folder) == [])
        let done = try CommandRunner.run(["-q", "--out", out, "--state", state, CommandRunner.samples[0]])
        #expect(done.status == 0, "\(done.standardError)")
        #expect(Self.names(folder) == ["out", "st", "st.previous"])
        // A run that fails on an existing folder says so in its run.json there, and leaves nothing else.
        let failed = try CommandRunner.run(["--out", out, "/nonexistent/a.jsonl"])
        #expect(failed.status == 6)
        #expect(Self.names(folder) == ["out", "st", "st.previous"])
        #expect(try String(contentsOfFile: out + "/run.json", encoding: .utf8).contains(#""exitStatus":6"#))
    }

    @Test func aWorkspaceThatIsALinkIsRefusedNotFollowed() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("victim")
        try FileManager.default.createDirectory(
            at: victim.appendingPathComponent("next"), withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: victim.appendingPathComponent("next/precious"))
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent(".out.avt-replay").path, withDestinationPath: victim.path)
        let result = try CommandRunner.run(
            ["--out", folder.appendingPathComponent("out").path, CommandRunner.samples[0]])
        #expect(result.status == 3, "\(result.standardError)")
        #expect(result.standardError.contains("is a link or not a folder"), "\(result.standardError)")
        #expect(try String(contentsOf: victim.appendingPathComponent("next/precious"), encoding: .utf8) == "keep")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    @Test func lockFilesThatAreLinksAreRefusedNotWritten() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("victim")
        try Data("keep".utf8).write(to: victim)
        let workspace = folder.appendingPathComponent(".out.avt-replay")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: workspace.appendingPathComponent("lock").path, withDestinationPath: victim.path)
        let out = folder.appendingPathComponent("out").path
        let planted = try CommandRunner.run(["--out", out, CommandRunner.samples[0]])
        #expect(planted.status == 3, "\(planted.standardError)")
        #expect(planted.standardError.contains("is a symbolic link, which avt-replay does not follow"))
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep")
        try FileManager.default.removeItem(at: workspace)
        // The state's lock.
        let state = folder.appendingPathComponent("st").path
        try FileManager.default.createSymbolicLink(atPath: state + ".lock", withDestinationPath: victim.path)
        let stateLock = try CommandRunner.run(["--out", out, "--state", state, CommandRunner.samples[0]])
        #expect(stateLock.status == 3, "\(stateLock.standardError)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep")
        #expect(!FileManager.default.fileExists(atPath: state))
        // A state that is a link or a device: refused, and no lock made beside it.
        try FileManager.default.createSymbolicLink(atPath: state, withDestinationPath: victim.path)
        let link = try CommandRunner.run(["--out", out, "--state", state, CommandRunner.samples[0]])
        #expect(link.status == 3, "\(link.standardError)")
        #expect(link.standardError.contains("--state \(state) is a symbolic link"), "\(link.standardError)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep")
        let device = try CommandRunner.run(["--out", out, "--state", "/dev/null", CommandRunner.samples[0]])
        #expect(device.status == 3, "\(device.standardError)")
        #expect(device.standardError.contains("--state /dev/null is not a plain file"), "\(device.standardError)")
        #expect(!FileManager.default.fileExists(atPath: "/dev/null.lock"))
    }

    /// A folder made private, group-owned and setgid for a team stays so run after run, and
    /// the files written into it take its group.
    @Test func theReportFolderKeepsItsModeOwnerAndGroup() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out").path
        #expect(try CommandRunner.run(["-q", "--out", out, CommandRunner.samples[0]]).status == 0)
        let isRoot = getuid() == 0
        // As root, any owner and group; otherwise this process's own group.
        let (owner, group) = isRoot ? (uid_t(4242), gid_t(4343)) : (getuid(), getgid())
        #expect(chown(out, owner, group) == 0)
        #expect(chmod(out, 0o2750) == 0)
        #expect(try CommandRunner.run(["-q", "--out", out, CommandRunner.samples[1]]).status == 0)
        let kept = Self.status(out)
        #expect(kept.st_mode & 0o7777 == 0o2750)
        #expect(kept.st_uid == owner)
        #expect(kept.st_gid == group)
        for name in Self.names(URL(fileURLWithPath: out)) {
            #expect(Self.status(out + "/" + name).st_gid == group, "\(name)")
        }
    }

    /// `flush` sends no link planted in the spool, nor anything but a plain file: it names it.
    @Test func aLinkInTheSpoolIsNotSent() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spool = folder.appendingPathComponent("spool")
        try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true)
        let secret = folder.appendingPathComponent("secret")
        try Data("avt_openavt value=1i 1\n".utf8).write(to: secret)
        try FileManager.default.createSymbolicLink(
            atPath: spool.appendingPathComponent("00000001.influx").path, withDestinationPath: secret.path)
        // Nothing listens on the discard port: a batch sent would be "cannot connect".
        let result = try CommandRunner.run([
            "flush", "--spool", spool.path, "--influx", "http://127.0.0.1:9/write?db=t",
        ])
        #expect(result.status == 5, "\(result.standardError)")
        #expect(result.standardError.contains("is a symbolic link, which avt-replay does not follow"))
        #expect(!result.standardError.contains("cannot connect"), "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: secret.path))
    }
}

/// SIGINT and SIGTERM stop a run with one line and exit 130 or 143: before its commit, with
/// what it wrote removed and the previous reports and state as they were; during it, once
/// the reports and the state are both this run's.
struct InterruptionTests {
    @Test func anInterruptedRunLeavesThePreviousReportsAndStateOrCommitsWhole() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (first, second) = (CommandRunner.samples[0], CommandRunner.samples[1])
        func night(_ base: URL, _ input: String, _ environment: [String: String] = [:]) throws -> CommandRunner.Output {
            try CommandRunner.run(["-q", "--out", "out", "--state", "st", input], environment: environment, in: base)
        }
        func files(_ base: URL) throws -> [String: Data] {
            var files = try BadInputTests.contents(of: base.appendingPathComponent("out"))
            for name in ["st", "st.previous"] {
                files[name] = try Data(contentsOf: base.appendingPathComponent(name))
            }
            return files
        }
        let base = folder.appendingPathComponent("base")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        #expect(try night(base, first).status == 0)
        let before = try files(base)
        let clean = folder.appendingPathComponent("clean")
        try FileManager.default.copyItem(at: base, to: clean)
        #expect(try night(clean, second).status == 0)
        let after = try files(clean)
        let expectedTree = PublishingTests.tree(clean).filter { $0 != "out/run.json" }
        var (step, interrupted, committed) = (1, 0, 0)
        while step < 200 {
            let work = folder.appendingPathComponent("step-\(step)")
            try FileManager.default.copyItem(at: base, to: work)
            let (name, signal) = step % 2 == 0 ? ("INT", SIGINT) : ("TERM", SIGTERM)
            let result = try night(work, second, ["AVT_REPLAY_SIGNAL_AT": String(step), "AVT_REPLAY_SIGNAL": name])
            if result.status == 0 { break }
            let message = result.standardError
            #expect(result.status == 128 + signal, "\(message)")
            let lines = message.split(separator: "\n").filter { !$0.contains("AVT_REPLAY_SIGNAL_AT") }
            if message.contains("the previous reports and state are as they were") {
                interrupted += 1
                #expect(
                    lines == ["avt-replay: interrupted (SIG\(name)): the previous reports and state are as they were"])
                #expect(try files(work) == before, "\(message)")
                #expect(try night(work, second).status == 0, "\(message)")
            } else {
                committed += 1
                #expect(message.contains("as it committed: the reports and state are this run's"), "\(message)")
                #expect(try files(work) == after, "\(message)")
                // The night is done: the same run again is a rerun.
                #expect(try night(work, second).status == 4, "\(message)")
            }
            // Nothing temporary left, no workspace, no lock.
            #expect(PublishingTests.tree(work).filter { $0 != "out/run.json" } == expectedTree, "\(message)")
            #expect(try files(work) == after, "\(message)")
            try FileManager.default.removeItem(at: work)
            step += 1
        }
        #expect(interrupted > 10 && committed > 2, "\(interrupted) interrupted, \(committed) committed")
    }
}
