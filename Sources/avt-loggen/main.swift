import Glibc

/// avt-loggen: writes a deterministic, realistic OpenAVT event log for tests and benchmarks.
///
/// The same arguments always give byte-identical files: the only source of randomness is
/// a SplitMix64 generator seeded with `--seed`, and no wall clock is read.

let usage = """
    usage: avt-loggen --records N --out DIR [--seed S] [--files F] [--start TIME] [--late PER_MILLE]

      --records N     number of records to write (exactly)
      --out DIR       directory for the files (created if missing)
      --seed S        seed of the generator (default 42)
      --files F       number of hourly files (default 24)
      --start TIME    start of the first hour: epoch milliseconds or YYYY-MM-DDTHH:MM:SSZ
                      (default 2025-11-20T00:00:00Z = 1763596800000)
      --late P        records per thousand that arrive late, 2-25 s after later records (default 5)

    Writes DIR/avt-YYYYMMDDHH.jsonl, one `avt` record per line (UTC hours from --start).
    The files are plain JSON Lines: compress them with `gzip` or `pigz` if needed, e.g.
    `pigz DIR/*.jsonl`; avt-replay reads both.

    """

func fail(_ message: String) -> Never {
    var text = "avt-loggen: " + message + "\n"
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    exit(2)
}

var configuration = Configuration(records: -1, seed: 42, files: 24, directory: "", start: 1_763_596_800_000)
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if argument == "-h" || argument == "--help" {
        print(usage, terminator: "")
        exit(0)
    }
    guard let value = arguments.popFirst() else { fail("\(argument) needs a value\n\n" + usage) }
    switch argument {
    case "--records":
        guard let records = Int(value), records >= 0 else { fail("--records: not a count: \(value)") }
        configuration.records = records
    case "--seed":
        guard let seed = UInt64(value) ?? Int64(value).map({ UInt64(bitPattern: $0) }) else {
            fail("--seed: not an integer: \(value)")
        }
        configuration.seed = seed
    case "--files":
        guard let files = Int(value), files > 0, files <= 24 * 366 else {
            fail("--files: not a count from 1: \(value)")
        }
        configuration.files = files
    case "--out":
        configuration.directory = value
    case "--start":
        if let milliseconds = Int64(value) {
            configuration.start = milliseconds
        } else if let milliseconds = CivilTime.parseUTC(value) {
            configuration.start = milliseconds
        } else {
            fail("--start: not epoch milliseconds or YYYY-MM-DDTHH:MM:SSZ: \(value)")
        }
    case "--late":
        guard let late = Int(value), (0...1000).contains(late) else {
            fail("--late: not a number from 0 to 1000: \(value)")
        }
        configuration.latePerMille = late
    default:
        fail("unknown option \(argument)\n\n" + usage)
    }
}
guard configuration.records >= 0, !configuration.directory.isEmpty else {
    fail("--records and --out are required\n\n" + usage)
}
if mkdir(configuration.directory, 0o755) != 0 && errno != EEXIST {
    fail("cannot create \(configuration.directory): errno \(errno)")
}

let generator = Generator(configuration: configuration)
do {
    try generator.run()
} catch {
    fail(error.description)
}
let average = generator.written > 0 ? Double(generator.bytesWritten) / Double(generator.written) : 0
var summary =
    "avt-loggen: \(generator.written) records (\(generator.lateWritten) late), \(generator.bytesWritten) bytes"
summary +=
    ", \(Int(average.rounded())) bytes/record, \(generator.instrumentsStarted) instruments (at most \(generator.maxActive) at once)"
summary += ", \(configuration.files) files in \(configuration.directory)\n"
summary.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
