import Testing

@testable import ReplayCLI

/// The rules between options, each refused with its own words before anything is read or
/// written (in process: `parseAsRoot` runs every `validate()`).
@Suite struct OptionRulesTests {
    static let sample = UsageErrorTests.sample

    @Test(
        arguments: [
            (
                ["--finish", sample],
                "Error: --finish goes with --state: without it, every run ends its lives at the end."
            ),
            (
                ["--replace-run", "--out", "/nonexistent/out", sample],
                "Error: --replace-run goes with --state: it replays the last run the state file recorded again."
            ),
            (
                ["--previous-merge", "/nonexistent/m", sample],
                "Error: --previous-merge goes with --shard and --state: it gives a shard of a nightly series the merge of the night before."
            ),
            (
                ["--shard", "2/3", "--graphite", "127.0.0.1:2003", sample],
                "Error: --shard writes one shard's reports: push the merged reports instead (avt-replay merge --influx/--graphite)."
            ),
            (["-", "-"], "Error: Standard input (-) can be read only once."),
            ([], "Error: Give at least one event log file, or - to read standard input."),
            (["--bucket", "30s", sample], "Error: --bucket must be from 1m to 1d."),
            (["--idle-gap", "500ms", sample], "Error: --idle-gap must be at least 1s."),
            (["--max-lateness", "2d", sample], "Error: --max-lateness must be at most 1d."),
            (["--since", "2025-11-21", "--until", "2025-11-20", sample], "Error: --since must be before --until."),
            (["--group-by", "title,title", sample], "Error: --group-by names title twice."),
            (["--breakdown-min-views", "0", sample], "Error: --breakdown-min-views must be at least 1."),
            (["--graphite", "localhost", sample], "Error: --graphite must be HOST:PORT, such as 127.0.0.1:2003."),
            (["merge", "--out", "/nonexistent/m"], "Error: Give the report folders of the shards to merge."),
            (
                ["partition", "--shards", "2", "--out", "/nonexistent/p"],
                "Error: Give the event-log files to partition."
            ),
            (
                ["partition", "--shards", "0", "--out", "/nonexistent/p", sample],
                "Error: --shards must be from 1 to 4096, not 0."
            ),
            (
                ["partition", "--shards", "2", "--out", "/nonexistent/p", "-"],
                "Error: partition reads files, not standard input."
            ),
            (
                ["flush", "--spool", "/nonexistent/s"],
                "Error: Name the server(s) to send to: --influx URL and/or --graphite HOST:PORT."
            ),
            // `--max-differences -1` is read as an option, not a value: the value comes with `=`.
            (["diff", "a", "b", "--max-differences=-1"], "Error: --max-differences must be 0 or more."),
        ] as [([String], String)])
    func aRuleBetweenOptionsIsRefusedInItsWords(arguments: [String], message: String) {
        #expect(UsageErrorTests.firstLine(of: arguments) == message)
    }
}
