import Foundation
import Testing

/// What makes the command line discoverable, tried as a user types it: the help of
/// `avt-replay --help`, usage errors that say what is expected, the completions of the form
/// people type, and the committed man page and completion scripts.
struct CLIExtrasTests {
    /// The committed files under `share/` (where `scripts/install-cli-extras.sh` installs them
    /// from), and the arguments that make each from the binary (none: the man page).
    static let committed: [(path: String, arguments: [String]?)] = [
        ("share/man/man1/avt-replay.1", nil),
        ("share/bash-completion/completions/avt-replay", ["--generate-completion-script", "bash"]),
        ("share/zsh/site-functions/_avt-replay", ["--generate-completion-script", "zsh"]),
        ("share/fish/vendor_completions.d/avt-replay.fish", ["--generate-completion-script", "fish"]),
    ]

    /// A committed file as the binary makes it now.
    static func generated(_ arguments: [String]?) throws -> String {
        let result = try CommandRunner.run(arguments ?? ["--experimental-dump-help"])
        #expect(result.status == 0, "\(result.standardError)")
        guard arguments == nil else { return result.standardOutput }
        return try ManPage.roff(fromDescription: Data(result.standardOutput.utf8))
    }

    @Test func helpShowsTheReplayOptionsInGroupsWithOutFirst() throws {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let help = try CommandRunner.run(arguments)
            #expect(help.status == 0, "\(arguments)")
            let lines = help.standardOutput.split(separator: "\n").map(String.init)
            let headers = lines.filter { $0.first?.isUppercase == true && $0.hasSuffix(":") && $0 == $0.uppercased() }
            #expect(
                headers == [
                    "ARGUMENTS:", "OUTPUT:", "INPUT:", "TIME:", "PUSH:", "NIGHTLY RUNS:", "SCALE:", "OPTIONS:",
                    "SUBCOMMANDS:",
                ],
                "\(arguments)")
            let firstOption = lines.first { $0.hasPrefix("  -") }
            #expect(firstOption?.hasPrefix("  --out <dir>") == true, "\(arguments)")
            #expect(help.standardOutput.contains("(default: reports)"))
            #expect(help.standardOutput.contains("--bucket <duration>"))
            #expect(help.standardOutput.contains("  merge "))
        }
        // The replay's own help has the same groups.
        let replay = try CommandRunner.run(["replay", "--help"]).standardOutput
        #expect(replay.contains("NIGHTLY RUNS:\n  --state <file>"))
    }

    /// The words of usage errors are `ReplayCLITests`' (in process); the process exits 2, with
    /// ArgumentParser's usage lines after them.
    @Test func aUsageErrorExitsTwoWithItsReason() throws {
        let result = try CommandRunner.run(["--bucket", "90"] + CommandRunner.samples)
        #expect(result.status == 2)
        #expect(result.standardError.contains("a duration needs a unit: 90m? (units ms s m h d)"))
        let misspelt = try CommandRunner.run(["--otu", "reports"] + CommandRunner.samples)
        #expect(misspelt.status == 2)
        #expect(misspelt.standardError.hasPrefix("Error: Unknown option '--otu'. Did you mean '--out'?\n"))
    }

    @Test func theCommittedManPageAndCompletionsAreTheBinarys() throws {
        let record = ProcessInfo.processInfo.environment["RECORD_GOLDEN"] != nil
        for (path, arguments) in Self.committed {
            let file = CommandRunner.packageRoot.appendingPathComponent(path)
            let made = try Self.generated(arguments)
            if record {
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(made.utf8).write(to: file)
            }
            let committed = try String(contentsOf: file, encoding: .utf8)
            #expect(
                committed == made,
                "\(path) is not what the binary makes: RECORD_GOLDEN=1 swift test --filter CLIExtrasTests writes it")
        }
        let page = try String(
            contentsOf: CommandRunner.packageRoot.appendingPathComponent("share/man/man1/avt-replay.1"), encoding: .utf8
        )
        #expect(page.contains(".SS OUTPUT\n.TP\n\\fB\\-\\-out\\fR \\fIdir\\fR\n"))
        #expect(page.contains("(default: 1h)"))
        #expect(page.contains(".SH EXIT STATUS\n.TP\n.B 0\n"))
        #expect(page.contains(".TP\n.B 8\nanother run holds the report folder"))
    }

    /// The bash completion, as bash calls it: the words typed, the word at the cursor.
    private func bashCompletions(_ words: [String]) throws -> [String] {
        let script = CommandRunner.packageRoot.appendingPathComponent("share/bash-completion/completions/avt-replay")
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let program = """
            shopt -s extglob
            source '\(script.path)'
            COMP_WORDS=(\(quoted))
            COMP_CWORD=\(words.count - 1)
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT="${#COMP_LINE}"
            complete -p avt-replay | grep -q -- '-F _avt-replay_default avt-replay$' || exit 3
            _avt-replay_default avt-replay "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try CommandRunner.run(
            ["--norc", "--noprofile", "-c", program], executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(result.status == 0, "\(words): \(result.standardError)")
        return result.standardOutput.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesTheReplayWithoutTheWordReplay() throws {
        #expect(try bashCompletions(["avt-replay", "--bu"]) == ["--bucket"])
        #expect(try bashCompletions(["avt-replay", "--out", "x", "--hub", ""]) == ["ads", "core"])
        #expect(try bashCompletions(["avt-replay", "me"]).contains("merge"))
        #expect(
            try bashCompletions(["avt-replay", "samples/avt-20251120"]).contains("samples/avt-2025112007.jsonl.gz"))
        // Subcommands complete as their own.
        #expect(try bashCompletions(["avt-replay", "merge", "--o"]) == ["--out"])
        #expect(try bashCompletions(["avt-replay", "check", "--ex"]) == ["--expect"])
        #expect(try bashCompletions(["avt-replay", "replay", "--bu"]) == ["--bucket"])
    }
}
