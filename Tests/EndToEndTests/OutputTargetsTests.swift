import Foundation
import Testing

/// An output option never writes over what the run reads or keeps: the inputs, the state and
/// its previous state, the files of a report set; a usage error (exit 2) names the clash, and
/// nothing changes.
struct OutputTargetsTests {
    /// Runs `arguments` in `folder` and expects a usage error naming `clash`, with every file
    /// of the folder as it was.
    /// Every plain file under `folder`, with its bytes (links and folders by name alone).
    private func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in FileManager.default.subpaths(atPath: folder.path) ?? [] {
            var status = stat()
            let path = folder.appendingPathComponent(name).path
            guard lstat(path, &status) == 0 else { continue }
            files[name] = status.st_mode & S_IFMT == S_IFREG ? try Data(contentsOf: URL(fileURLWithPath: path)) : Data()
        }
        return files
    }

    private func expectRefused(_ arguments: [String], in folder: URL, naming clash: String) throws {
        let before = try snapshot(folder)
        let result = try CommandRunner.run(arguments, in: folder)
        #expect(result.status == 2, "\(arguments): \(result.standardError)")
        #expect(result.standardError.contains(clash), "\(arguments): \(result.standardError)")
        #expect(try snapshot(folder) == before, "\(arguments)")
    }

    @Test func outputOptionsNamingWhatTheRunReadsOrKeepsAreRefused() throws {
        let folder = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let logs = CommandRunner.samples.prefix(2).map { URL(fileURLWithPath: $0).lastPathComponent }
        for (log, sample) in zip(logs, CommandRunner.samples) {
            try FileManager.default.copyItem(atPath: sample, toPath: folder.appendingPathComponent(log).path)
        }
        #expect(try CommandRunner.run(["-q", "--out", "out", "--state", "st", logs[0]], in: folder).status == 0)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link-to-log").path, withDestinationPath: logs[0])
        // A forgotten value: --summary-json takes the first log as its file.
        try expectRefused(
            ["--out", "out", "--summary-json"] + logs, in: folder,
            naming: "--summary-json \(logs[0]) exists and is not a run summary")
        try expectRefused(
            ["--out", "out", "--summary-json", "link-to-log", logs[1]], in: folder, naming: "is not a plain file")
        try expectRefused(
            ["--out", "out", "--summary-json", logs[1], logs[1]], in: folder, naming: "is the input \(logs[1])")
        for kept in ["st", "st.previous"] {
            try expectRefused(
                ["--out", "out", "--state", "st", "--summary-json", kept, logs[1]], in: folder,
                naming: "--summary-json \(kept) is the")
        }
        try expectRefused(
            ["--out", "out", "--summary-json", "out/playbacks.csv", logs[1]], in: folder,
            naming: "is inside the report folder out")
        // A file of another kind, or something not a file.
        try expectRefused(
            ["--out", "o2", "--summary-json", "out/playbacks.csv", logs[1]], in: folder,
            naming: "exists and is not a run summary")
        try expectRefused(["--out", "o2", "--summary-json", "out", logs[1]], in: folder, naming: "is not a plain file")
        try expectRefused(["--out", "out", "--state", logs[1], logs[1]], in: folder, naming: "is the input")
        try expectRefused(["--out", ".", logs[1]], in: folder, naming: "--out . holds the input")
        try expectRefused(["--out", "out", "--state", "out/st", logs[1]], in: folder, naming: "holds the --state file")
        try expectRefused(["--out", logs[1], logs[1]], in: folder, naming: "--out \(logs[1]) is the input")
        try expectRefused(
            ["check", "--expect", "out", "--junit", logs[0], logs[1]], in: folder, naming: "--junit \(logs[0])")
        try expectRefused(
            ["check", "--expect", "out", "--junit", "out/summary.csv", logs[1]], in: folder,
            naming: "is inside the report folder out")
        try expectRefused(
            ["check", "--record", "--expect", ".", logs[1]], in: folder, naming: "--expect . holds the input")
        try expectRefused(
            ["partition", "--shards", "2", "--out", ".", logs[1]], in: folder, naming: "--out . holds the input")
        try expectRefused(["merge", "--out", "out/merged", "out"], in: folder, naming: "is inside the input out")
        // What the options may name: a new file, a run summary written before, standard output.
        #expect(
            try CommandRunner.run(["-q", "--out", "o3", "--summary-json", "s.json", logs[1]], in: folder).status == 0)
        #expect(
            try CommandRunner.run(["-q", "--out", "o3", "--summary-json", "s.json", logs[1]], in: folder).status == 0)
        let standardOutput = try CommandRunner.run(["-q", "--out", "o3", "--summary-json", "-", logs[1]], in: folder)
        #expect(standardOutput.standardOutput.hasPrefix(#"{"avtReplayRun":1"#))
    }
}
