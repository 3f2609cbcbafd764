import ArgumentParser
import EventLog
import Glibc

/// `avt-loggen`: writes a deterministic, realistic OpenAVT event log for tests and benchmarks.
///
/// The same arguments always give byte-identical files: the only source of randomness is
/// a SplitMix64 generator seeded with `--seed`, and no wall clock is read.
@main
struct LogGenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "avt-loggen",
        abstract: "Write a deterministic, realistic OpenAVT event log.",
        discussion: """
            Writes DIR/avt-YYYYMMDDHH.jsonl, one avt record per line (UTC hours from --start): \
            interleaved instruments with content, ads, pauses, seeks, rebuffers, errors and exits \
            before start; a few records arrive late. The files are plain JSON Lines: compress them \
            with gzip or pigz (pigz DIR/*.jsonl); avt-replay reads both.
            """
    )

    @Option(help: "Number of records to write (exactly).")
    var records: Int

    @Option(help: "Directory for the files (created if missing).")
    var out: String

    @Option(help: "Seed of the generator.")
    var seed: UInt64 = 42

    @Option(help: "Number of hourly files.")
    var files: Int = 24

    @Option(help: "Start of the first hour: epoch milliseconds or an RFC 3339 time.")
    var start: String = "2025-11-20T00:00:00Z"

    @Option(help: "Records per thousand that arrive late, 2 to 25 s after later records.")
    var late: Int = 5

    func validate() throws {
        guard records >= 0 else { throw ValidationError("--records must be 0 or more.") }
        guard (1...(24 * 366)).contains(files) else { throw ValidationError("--files must be from 1 to 8784.") }
        guard (0...1000).contains(late) else { throw ValidationError("--late must be from 0 to 1000.") }
        guard startMilliseconds != nil else {
            throw ValidationError(
                "--start must be epoch milliseconds or an RFC 3339 time such as 2025-11-20T00:00:00Z.")
        }
    }

    private var startMilliseconds: Int64? {
        if let milliseconds = Int64(start) { return milliseconds }
        return try? RFC3339.milliseconds(start).get()
    }

    func run() throws {
        guard let startMilliseconds else { throw ExitCode.validationFailure }
        if mkdir(out, 0o755) != 0 && errno != EEXIST {
            throw ValidationError("cannot create \(out): \(String(cString: strerror(errno)))")
        }
        let configuration = Configuration(
            records: records, seed: seed, files: files, directory: out, start: startMilliseconds, latePerMille: late)
        let generator = Generator(configuration: configuration)
        do {
            try generator.run()
        } catch {
            throw ValidationError(error.description)
        }
        let average = generator.written > 0 ? Double(generator.bytesWritten) / Double(generator.written) : 0
        var summary = "avt-loggen: \(generator.written) records (\(generator.lateWritten) late), "
        summary += "\(generator.bytesWritten) bytes, \(Int(average.rounded())) bytes/record, "
        summary += "\(generator.instrumentsStarted) instruments (at most \(generator.maxActive) at once), "
        summary += "\(configuration.files) files in \(configuration.directory)\n"
        summary.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}
