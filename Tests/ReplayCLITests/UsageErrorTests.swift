import ArgumentParser
import EventModel
import Foundation
import Testing

@testable import ReplayCLI

/// Usage errors as the command line reports them, parsed in process (the exit status, 2, is
/// `EndToEndTests`' to check: it needs the process).
@Suite struct UsageErrorTests {
    /// A sample log, so that the replay's checks of its inputs pass.
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples/avt-2025112007.jsonl.gz").path

    /// The first line of what `avt-replay ARGUMENTS` says, or `nil` when they parse.
    static func firstLine(of arguments: [String]) -> String? {
        do {
            _ = try AvtReplayCommand.parseAsRoot(arguments)
            return nil
        } catch {
            let cause = UsageError.cause(of: error, parsing: arguments, as: AvtReplayCommand.self)
            return AvtReplayCommand.fullMessage(for: cause).split(separator: "\n").first.map(String.init)
        }
    }

    @Test func aValueSaysWhatIsExpected() {
        #expect(
            Self.firstLine(of: ["--bucket", "90", Self.sample])
                == "Error: The value '90' is invalid for '--bucket <duration>': a duration needs a unit: 90m? "
                + "(units ms s m h d)")
        #expect(
            Self.firstLine(of: ["--idle-gap", "30m1h", Self.sample])?.hasSuffix(
                "units go largest first, each once, as in 1d12h or 1h30m") == true)
        #expect(
            Self.firstLine(of: ["--max-lateness", "1.5h", Self.sample])?.hasSuffix(
                ": whole numbers only: 1h30m, not 1.5h (units ms s m h d)") == true)
        #expect(
            Self.firstLine(of: ["--since", "yesterday", Self.sample])
                == "Error: The value 'yesterday' is invalid for '--since <time>': a time is a date (2025-11-20, "
                + "midnight UTC), an RFC 3339 time (2025-11-20T07:00:00Z) or epoch seconds or milliseconds")
        #expect(
            Self.firstLine(of: ["--shard", "2-3", Self.sample])
                == "Error: The value '2-3' is invalid for '--shard <k/n>': a shard is K/N, two whole numbers, as in "
                + "2/3 (the second of three)")
        #expect(
            Self.firstLine(of: ["partition", "--max-lateness", "0s", "--out", "x", Self.sample])?.hasSuffix(
                "a duration must be longer than 0") == true)
    }

    @Test(arguments: ["0/3", "4/3", "1/0", "-1/3", "x/3", "1/3/3"])
    func aShardOutsideOneToNIsRefusedNamingTheOption(shard: String) {
        let line = Self.firstLine(of: ["--shard", shard, "--out", "/nonexistent/never", Self.sample])
        #expect(line?.hasPrefix("Error: ") == true && line?.contains("--shard") == true, "\(line ?? "parsed")")
    }

    @Test func aMisspeltOptionComesBeforeWhatItCaused() {
        // `reports` is taken as an input: the replay's check of its inputs fails first.
        #expect(
            Self.firstLine(of: ["--otu", "reports", Self.sample])
                == "Error: Unknown option '--otu'. Did you mean '--out'?")
        #expect(
            Self.firstLine(of: ["--outt", "x", Self.sample]) == "Error: Unknown option '--outt'. Did you mean '--out'?")
        #expect(
            Self.firstLine(of: ["merge", "--otu", "x", "a", "b"])
                == "Error: Unknown option '--otu'. Did you mean '--out'?")
        #expect(Self.firstLine(of: ["--frobnicate", "x", Self.sample]) == "Error: Unknown option '--frobnicate'")
    }

    @Test func aFailedCheckWithNothingBehindItIsReportedItself() {
        #expect(
            Self.firstLine(of: ["--threads", "0", Self.sample]) == "Error: --threads must be from 1 to 256, not 0.")
        #expect(Self.firstLine(of: ["merge"]) == "Error: Give the report folders of the shards to merge.")
    }

    @Test func optionsParseToTheirValues() throws {
        let command = try ReplayCommand.parse([
            "--bucket", "1h30m", "--since", "2025-11-20", "--until", "1763625600", "--shard", "2/3", "--idle-gap", "2d",
            "--max-lateness", "1m30s500ms", Self.sample,
        ])
        #expect(command.replay.bucket.milliseconds == 5_400_000)
        #expect(command.replay.since?.timestamp.milliseconds == 1_763_596_800_000)
        #expect(command.replay.until?.timestamp.milliseconds == 1_763_625_600_000)
        #expect(command.shard?.index == 2 && command.shard?.count == 3)
        #expect(command.replay.idleGap.milliseconds == 172_800_000)
        #expect(command.replay.maxLateness.milliseconds == 90_500)
        #expect(command.replay.files == [Self.sample])
    }

    @Test func theChecksCanBeTurnedOffForTheSecondParse() throws {
        #expect(Self.firstLine(of: ["--finish", Self.sample]) != nil)
        try UsageError.$checksValues.withValue(false) {
            _ = try AvtReplayCommand.parseAsRoot(["--finish", Self.sample])
        }
        #expect(UsageError.checksValues)
    }
}
