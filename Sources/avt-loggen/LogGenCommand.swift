import ArgumentParser
import EventLog
import Glibc

/// `avt-loggen`: writes a deterministic, realistic event log (OpenAVT, Tentacles, Marconi)
/// for tests and benchmarks.
///
/// The same arguments always give byte-identical files: the only source of randomness is
/// a SplitMix64 generator seeded with `--seed`, and no wall clock is read.
@main
struct LogGenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "avt-loggen",
        abstract: "Write a deterministic, realistic event log: avt, vp, app and marconi records.",
        discussion: """
            Writes DIR/avt-YYYYMMDDHH.jsonl, one record per line (UTC hours from --start), \
            interleaved: OpenAVT instruments (avt: content, ads, pauses, seeks, rebuffers, errors, \
            exits before start), Tentacles app sessions (vp: value propositions opened, started, \
            paused, completed or canceled, a few prohibited changes and actions with no open \
            session; app: background and foreground) and Marconi players (marconi: live radio \
            with new metadata per song, on-demand items with progress every 10 s and track \
            changes, rebuffers, errors and recoveries); a few records arrive late. The files \
            are plain JSON Lines: compress them with gzip or pigz (pigz DIR/*.jsonl); avt-replay \
            reads both.
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

    @Option(
        help: ArgumentHelp(
            "Relative shares of the records by source: avt (OpenAVT), vp (value propositions and app lifecycle), marconi.",
            discussion: "Sources left out get none: --mix avt=1 writes avt records only.",
            valueName: "avt=N,vp=N,marconi=N"))
    var mix: String = "avt=80,vp=10,marconi=10"

    /// `--mix` parsed, or `nil` when it is not valid.
    private var parsedMix: (avt: Int, vp: Int, marconi: Int)? {
        var result = (avt: 0, vp: 0, marconi: 0)
        for part in mix.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, let value = Int(pair[1]), (0...1_000_000).contains(value) else { return nil }
            switch pair[0] {
            case "avt": result.avt = value
            case "vp": result.vp = value
            case "marconi": result.marconi = value
            default: return nil
            }
        }
        guard result.avt + result.vp + result.marconi > 0 else { return nil }
        return result
    }

    func validate() throws {
        guard records >= 0 else { throw ValidationError("--records must be 0 or more.") }
        guard (1...(24 * 366)).contains(files) else { throw ValidationError("--files must be from 1 to 8784.") }
        guard (0...1000).contains(late) else { throw ValidationError("--late must be from 0 to 1000.") }
        guard parsedMix != nil else {
            throw ValidationError(
                "--mix must be shares such as avt=80,vp=10,marconi=10 (whole numbers, at least one above 0).")
        }
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
        guard let startMilliseconds, let parsedMix else { throw ExitCode.validationFailure }
        if mkdir(out, 0o755) != 0 && errno != EEXIST {
            throw ValidationError("cannot create \(out): \(String(cString: strerror(errno)))")
        }
        let configuration = Configuration(
            records: records, seed: seed, files: files, directory: out, start: startMilliseconds, latePerMille: late,
            mix: parsedMix)
        let generator = Generator(configuration: configuration)
        do {
            try generator.run()
        } catch {
            throw ValidationError(error.description)
        }
        let average = generator.written > 0 ? Double(generator.bytesWritten) / Double(generator.written) : 0
        var summary = "avt-loggen: \(generator.written) records (\(generator.lateWritten) late), "
        summary += "\(generator.bytesWritten) bytes, \(Int(average.rounded())) bytes/record, "
        let byClass = generator.writtenByClass
        summary += "\(byClass[0]) avt, \(byClass[1]) vp and app, \(byClass[2]) marconi; "
        summary += "\(generator.instrumentsStarted) instruments (at most \(generator.maxActive) at once), "
        summary += "\(generator.appsStarted) app sessions, \(generator.playersStarted) players, "
        summary += "\(configuration.files) files in \(configuration.directory)\n"
        summary.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}
