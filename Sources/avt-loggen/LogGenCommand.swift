import ArgumentParser
import EventLog
import Glibc

/// `avt-loggen`: writes a deterministic, realistic event log (OpenAVT, Tentacles, Marconi)
/// for tests and benchmarks.
///
/// The same arguments always give byte-identical files: the only source of randomness is
/// a SplitMix64 generator seeded with `--seed`, and no wall clock is read. `--layout` and
/// `--shuffle-names` only decide which file each line goes to: every layout gets the same
/// lines. `--pauses` makes a share of the sources go quiet once for a long while; `--always-on`
/// makes a share of them come back every few hours for the whole period.
@main
struct LogGenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "avt-loggen",
        abstract: "Write a deterministic, realistic event log: avt, vp, app and marconi records.",
        discussion: """
            Writes one record per line, over --files UTC hours from --start, interleaved: \
            OpenAVT instruments (avt: content, ads, pauses, seeks, rebuffers, errors, exits before \
            start), Tentacles app sessions (vp: value propositions opened, started, paused, \
            completed or canceled, a few prohibited changes and actions with no open session; \
            app: background and foreground) and Marconi players (marconi: live radio with new \
            metadata per song, on-demand items with progress every 10 s and track changes, \
            rebuffers, errors and recoveries); a few records arrive late.

            --layout splits the same lines into files in one of four ways: hourly \
            (DIR/avt-YYYYMMDDHH.jsonl, by the hour a record is written in), hosts:N \
            (DIR/host-1.jsonl ... DIR/host-N.jsonl, each covering the whole period: a source \
            uploads a batch every 10 to 30 s of its time, each batch, late records written in \
            it included, to one host drawn from the source's id and the batch number), apps \
            (DIR/app-PREFIX.jsonl, by the prefix of the source id: ios, android, web, tvos, roku, \
            a for app sessions, radio and pod for players) or single (DIR/all.jsonl). Within a \
            file, lines keep the order they are written in (mostly time order). Only the files \
            differ: the lines are the same in every layout for the same --records, --seed, \
            --files, --start, --late, --mix, pause and always-on options. --shuffle-names prefixes every name \
            with a tag drawn from the seed (DIR/x3f9a-avt-2025112007.jsonl), so that name order \
            is not time order.

            --pauses P makes P per cent of the instruments, app sessions and players go quiet \
            once, at a random moment between their first and last record, for 45 minutes to 5 \
            hours (or --pause-length minutes), and then carry on as if nothing happened: every \
            later record of theirs comes that much later. Other sources are started meanwhile, \
            so --records and the daily curve still hold; a pause is seen only if the log goes on \
            past its end (long pauses need enough --files hours). With 0 (the default) nothing \
            changes.

            --always-on P makes P per cent of the instruments, app sessions and players that start \
            in the first 24 hours never go idle for long: when their session ends, they come back \
            1 to 4 hours later (of their own time) for a short one, a playback watched for 20 s to \
            5 minutes, one value proposition (the app back to the foreground first if it was left \
            in the background) or 1 to 5 minutes of listening, and again after each, to the end of \
            the log. Their lives never reach a 12-hour idle gap, and write rows every day: a \
            multi-day log (--files 720 for 30 days) keeps about as many of them every day after \
            the first. Resting between sessions, they do not count as active, so --records and the \
            daily curve still hold. With 0 (the default) nothing changes.

            The files are plain JSON Lines: compress them with gzip or pigz (pigz DIR/*.jsonl); \
            avt-replay reads both.
            """
    )

    @Option(help: "Number of records to write (exactly).")
    var records: Int

    @Option(help: "Directory for the files (created if missing).")
    var out: String

    @Option(help: "Seed of the generator.")
    var seed: UInt64 = 42

    /// The length of the simulated period in hours; the hourly layout writes a file for each.
    @Option(help: "Number of hours the log covers: the number of files with --layout hourly.")
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

    /// How the lines are split into files; see ``Layout``.
    @Option(
        help: ArgumentHelp(
            "How the records are split into files: hourly, hosts:N (N from 1 to 256), apps or single.",
            discussion: "Every layout gets the same lines; only which file each goes to differs.",
            valueName: "hourly|hosts:N|apps|single"))
    var layout: String = "hourly"

    /// Prefixes the file names with a tag drawn from the seed, so that name order is not time order.
    @Flag(help: "Prefix every file name with a tag drawn from --seed (xHHHH-), so that name order is not time order.")
    var shuffleNames = false

    /// The share of the sources that go quiet once, in per cent.
    @Option(
        help: ArgumentHelp(
            "Per cent of the instruments, app sessions and players that go quiet once, for 45 min to 5 h.",
            discussion: "All their later records come that much later; 0 changes nothing.", valueName: "P"))
    var pauses: Int = 0

    /// A fixed pause length in minutes instead of a random one, for tests.
    @Option(help: ArgumentHelp("Length of every pause in minutes (1 to 10080), instead of 45 to 300.", valueName: "D"))
    var pauseLength: Int?

    /// The share of the sources of the first day that never go idle for long, in per cent.
    @Option(
        help: ArgumentHelp(
            "Per cent of the instruments, app sessions and players of the first 24 hours that come back every 1 to 4 h.",
            discussion: "A short session each time, to the end of the log; 0 changes nothing.", valueName: "P"))
    var alwaysOn: Int = 0

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
        guard Layout(argument: layout) != nil else {
            throw ValidationError("--layout must be hourly, hosts:N (N from 1 to \(Layout.maxHosts)), apps or single.")
        }
        guard (0...100).contains(pauses) else { throw ValidationError("--pauses must be from 0 to 100.") }
        guard (0...100).contains(alwaysOn) else { throw ValidationError("--always-on must be from 0 to 100.") }
        if let pauseLength, !(1...10_080).contains(pauseLength) {
            throw ValidationError("--pause-length must be from 1 to 10080 minutes.")
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
        guard let startMilliseconds, let parsedMix, let parsedLayout = Layout(argument: layout) else {
            throw ExitCode.validationFailure
        }
        if mkdir(out, 0o755) != 0 && errno != EEXIST {
            throw ValidationError("cannot create \(out): \(String(cString: strerror(errno)))")
        }
        let configuration = Configuration(
            records: records, seed: seed, files: files, directory: out, start: startMilliseconds, latePerMille: late,
            mix: parsedMix, layout: parsedLayout, shuffleNames: shuffleNames, pausePercent: pauses,
            pauseLength: pauseLength.map { Int64($0) * 60_000 }, alwaysOnPercent: alwaysOn)
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
        if pauses > 0 {
            summary += "\(generator.pausesPlanned) given a pause (\(generator.pausesBegun) begun, "
            summary += "\(generator.pausesEnded) over), "
        }
        if alwaysOn > 0 {
            summary += "\(generator.alwaysOnSources) always on (\(generator.alwaysOnSessions) sessions after a rest), "
        }
        summary += "\(generator.fileCount) file\(generator.fileCount == 1 ? "" : "s")"
        if parsedLayout != .hourly || shuffleNames {
            summary += " (\(parsedLayout.description)\(shuffleNames ? ", shuffled names" : ""))"
        }
        summary += " in \(configuration.directory)\n"
        summary.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}
