import Foundation
import Testing

/// Every number read back from a file avt-replay wrote is checked (docs/time.md, "What a state
/// file is checked for"): a state with a flipped bit in any part, one written with other
/// options, one of the previous format, and a number out of range in the state, a shard's
/// `summary.state` or `sessions.index`, `merge.state` or `partition.json`, each refused with
/// exit 4 and a message naming the file and the part, field or option; never a trap, and
/// nothing written.
struct StateIntegrityTests {
    /// The options of the series of these tests: a night of the samples leaves lives open, and
    /// buckets (the open buckets' line).
    static let options = ["--quiet", "--bucket", "1h", "--idle-gap", "10m"]

    /// A folder with the state of the first sample night (`open.state`).
    private struct Night {
        let root: URL
        var state: String { root.appendingPathComponent("open.state").path }
        var out: String { root.appendingPathComponent("second").path }

        init() throws {
            root = try CommandRunner.makeTemporaryFolder()
            let first = try CommandRunner.run(
                StateIntegrityTests.options + [
                    "--out", root.appendingPathComponent("first").path, "--state", state, CommandRunner.samples[0],
                ])
            #expect(first.status == 0, "\(first.standardError)")
        }

        /// The second night, from the state as it now is, with `extra` options.
        func second(_ extra: [String] = [], options: [String] = StateIntegrityTests.options) throws
            -> CommandRunner.Output
        {
            try CommandRunner.run(options + extra + ["--out", out, "--state", state, CommandRunner.samples[1]])
        }

        /// Whether the second night wrote no reports.
        var wroteNothing: Bool {
            !FileManager.default.fileExists(atPath: (out as NSString).appendingPathComponent("playbacks.csv"))
        }

        func remove() {
            try? FileManager.default.removeItem(at: root)
        }
    }

    /// The parts of a state file: its text lines and each life's frame, as byte ranges.
    private static func parts(of bytes: [UInt8]) -> [(name: String, range: Range<Int>)] {
        guard let header = bytes.firstIndex(of: UInt8(ascii: "\n")),
            let carried = bytes[(header + 1)...].firstIndex(of: UInt8(ascii: "\n"))
        else { return [] }
        var parts = [
            ("the header (line 1)", 0..<header + 1), ("the open buckets' line (line 2)", header + 1..<carried + 1),
        ]
        var offset = carried + 1
        while offset + 8 <= bytes.count {
            let length = (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
            parts.append(("open life \(parts.count - 1)", offset..<offset + length + 8))
            offset += length + 8
        }
        return parts
    }

    @Test func aFlippedBitInAnyPartOfTheStateIsRefusedNamingThePart() throws {
        let night = try Night()
        defer { night.remove() }
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: night.state)))
        let parts = Self.parts(of: original)
        #expect(parts.count == 5, "a header, the open buckets and three lives")
        #expect(parts.last?.range.upperBound == original.count)
        for (name, range) in parts {
            // Its first bytes (a frame's length), one in the middle, its last (a line's newline,
            // a frame's checksum), and "5", the version, in the header.
            var offsets = [range.lowerBound, range.lowerBound + 1, range.lowerBound + 4, range.upperBound - 1]
            offsets += [(range.lowerBound + range.upperBound) / 2, range.upperBound - 2]
            if range.lowerBound == 0 { offsets.append(#"{"avtReplayState":"#.utf8.count) }
            for (number, offset) in offsets.enumerated() {
                var flipped = original
                flipped[offset] ^= 1 << UInt8(number % 8)
                try Data(flipped).write(to: URL(fileURLWithPath: night.state))
                let result = try night.second()
                #expect(result.status == 4, "\(name), byte \(offset): \(result.standardError)")
                #expect(result.standardError.contains("\(night.state): \(name)"), "\(result.standardError)")
                #expect(result.standardError.contains("damaged"), "\(result.standardError)")
                #expect(!result.standardError.contains("Fatal error"))
                #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: night.state))) == flipped)
                #expect(night.wroteNothing)
            }
        }
        // The state as written goes on.
        try Data(original).write(to: URL(fileURLWithPath: night.state))
        let result = try night.second()
        #expect(result.status == 0, "\(result.standardError)")
    }

    /// A state whose header is damaged can still be replaced: `--replace-run` goes on from the
    /// state before the last run, and gives the state that run gave.
    @Test func aDamagedStateIsReplacedFromTheStateBefore() throws {
        let night = try Night()
        defer { night.remove() }
        let second = try night.second()
        #expect(second.status == 0, "\(second.standardError)")
        let state = URL(fileURLWithPath: night.state)
        let good = try Data(contentsOf: state)
        var damaged = [UInt8](good)
        damaged[10] ^= 0x08
        try Data(damaged).write(to: state)
        let refused = try night.second()
        #expect(refused.status == 4)
        #expect(refused.standardError.contains("the header (line 1) is damaged"), "\(refused.standardError)")
        #expect(refused.standardError.contains("(--replace-run, docs/reruns.md)"))
        let replaced = try CommandRunner.run(
            ["--bucket", "1h", "--idle-gap", "10m", "--replace-run", "--out", night.out, "--state", night.state]
                + [CommandRunner.samples[1]])
        #expect(replaced.status == 0, "\(replaced.standardError)")
        #expect(replaced.standardError.contains("--replace-run: \(night.state): the header (line 1) is damaged"))
        #expect(replaced.standardError.contains("replaying the last run again, from \(night.state).previous"))
        #expect(try Data(contentsOf: state) == good)
    }

    /// Each option that shapes the replay, as the series gives it and as another run does.
    static let optionChanges: [(option: String, changed: [String], written: String, given: String)] = [
        ("hub", ["--hub", "core"], "--hub ads", "--hub core"),
        ("prefix", ["--prefix", "web"], "--prefix avt", "--prefix web"),
        (
            "tentacles", ["--tentacles", "domain-activity"], "--tentacles value-proposition",
            "--tentacles domain-activity"
        ),
        ("idle-gap", ["--idle-gap", "20m"], "--idle-gap 10m", "--idle-gap 20m"),
        ("metrics", ["--metrics", "events"], "--metrics aggregates", "--metrics events"),
        ("bucket", ["--bucket", "30m"], "--bucket 1h", "--bucket 30m"),
        ("group-by", ["--group-by", "title"], "no --group-by", "--group-by title"),
        (
            "vp-middleware", ["--vp-duration", "open:complete"], "no --vp-middleware",
            "--vp-middleware duration:open:complete"
        ),
    ]

    @Test(arguments: optionChanges.indices)
    func aRunWithAnotherOptionIsRefusedNamingItAndBothValues(change: Int) throws {
        let (option, changed, written, given) = Self.optionChanges[change]
        let night = try Night()
        defer { night.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: night.state))
        // The later option of the same name wins: the series' options, one changed.
        let result = try night.second(changed)
        #expect(result.status == 4, "--\(option): \(result.standardError)")
        #expect(
            result.standardError.contains(
                "\(night.state): this state was written with \(written); this run gives \(given)"),
            "\(result.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: night.state)) == before)
        #expect(night.wroteNothing)
    }

    /// `--finish` and `--replace-run` go on with the series' options, and are refused with others.
    @Test func finishAndReplaceRunGoOnWithTheSeriesOptionsOnly() throws {
        let night = try Night()
        defer { night.remove() }
        #expect(try night.second().status == 0)
        let replaced = try night.second(["--replace-run", "--prefix", "web"])
        #expect(replaced.status == 4)
        #expect(
            replaced.standardError.contains("this state was written with --prefix avt; this run gives --prefix web"))
        #expect(replaced.standardError.contains("\(night.state).previous"), "the state it goes on from")
        #expect(try night.second(["--replace-run"]).status == 0)
        let finish = ["--out", night.root.appendingPathComponent("finish").path, "--state", night.state, "--finish"]
        let refused = try CommandRunner.run(["--quiet", "--bucket", "1h"] + finish)
        #expect(refused.status == 4)
        #expect(
            refused.standardError.contains("this state was written with --idle-gap 10m; this run gives --idle-gap 12h"))
        let finished = try CommandRunner.run(Self.options + finish)
        #expect(finished.status == 0, "\(finished.standardError)")
    }

    /// A state of format 4 (no checksums, no options) is refused with how to carry the series
    /// over, and left as it was.
    @Test func aStateOfTheFormatBeforeIsRefusedWithHowToCarryTheSeriesOver() throws {
        let night = try Night()
        defer { night.remove() }
        let old =
            #"{"avtReplayState":4,"frontier":1763625572600,"released":1763625572600,"lives":0,"inputs":[]}"# + "\n"
        try Data(old.utf8).write(to: URL(fileURLWithPath: night.state))
        let result = try night.second()
        #expect(result.status == 4)
        #expect(result.standardError.contains("\(night.state) is a state file of format 4"), "\(result.standardError)")
        #expect(result.standardError.contains("Carry the series over: end it with the version that wrote the state"))
        #expect(result.standardError.contains("avt-replay --state \(night.state) --finish"))
        #expect(try String(contentsOf: URL(fileURLWithPath: night.state), encoding: .utf8) == old)
        #expect(night.wroteNothing)
    }

    // MARK: Numbers out of range

    /// The state with its text line `line` (0 the header, 1 the open buckets) edited, its
    /// checksum made again: what no run writes, but whose checksums match.
    private static func edited(_ bytes: [UInt8], line: Int, _ edit: (String) -> String) -> [UInt8] {
        var lines: [ArraySlice<UInt8>] = []
        var rest = bytes[...]
        for _ in 0...line {
            let end = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
            lines.append(rest[..<end])
            rest = rest[(end + 1)...]
        }
        let text = String(decoding: lines[line], as: UTF8.self)
        let body = Array(edit(String(text[..<(text.range(of: #","crc32":""#)?.lowerBound ?? text.endIndex)])).utf8)
        lines[line] = ArraySlice(body + Array(#","crc32":"\#(crc32Text(body))"}"#.utf8))
        return lines.flatMap { Array($0) + [UInt8(ascii: "\n")] } + Array(rest)
    }

    /// Replaces the first match of `pattern` in `text` with `replacement`.
    private static func replacing(_ pattern: String, with replacement: String, in text: String) -> String {
        guard let range = text.range(of: pattern, options: .regularExpression) else {
            Issue.record("no \(pattern) in \(text.prefix(200))")
            return text
        }
        return text.replacingCharacters(in: range, with: replacement)
    }

    @Test(arguments: [
        (0, #""frontier":\d+"#, #""frontier":9223372036854775807"#, "the header (line 1): field frontier"),
        (0, #""released":\d+"#, #""released":-9223372036854775808"#, "the header (line 1): field released"),
        (0, #""openFrom":\d+"#, #""openFrom":253402387200000"#, "the header (line 1): field openFrom"),
        (0, #""lives":\d+"#, #""lives":-1"#, "the header (line 1): field lives"),
        (0, #""size":\d+"#, #""size":-5"#, "the header (line 1): field inputs[0].size"),
        (0, #""idle-gap":\d+"#, #""idle-gap":0"#, "the header (line 1): field options.idle-gap"),
        (0, #""frontier":\d+"#, #""frontier":1e30"#, "the header (line 1): field frontier"),
        (
            1, #""count":\d+"#, #""count":9223372036854775000"#,
            "the open buckets' line (line 2): field carried.aggregates.rows[0].aggregate.count"
        ),
        (1, #""views":\d+"#, #""views":1152921504606846977"#, "the open buckets' line (line 2): field carried.summary"),
        (1, #""views":\d+"#, #""views":12345"#, "the open buckets' line (line 2): field carried.summary.groups[0]"),
        (
            1, #""start":\d+"#, #""start":1763622000001"#,
            "the open buckets' line (line 2): field carried.summary.groups[0]"
        ),
        (1, #""sum":\[[^\]]*\]"#, #""sum":[1e308,1e308]"#, "the open buckets' line (line 2): field carried.aggregates"),
    ])
    func aNumberOutOfRangeInTheStatesLinesIsRefusedNamingTheField(
        line: Int, pattern: String, replacement: String, named: String
    ) throws {
        let night = try Night()
        defer { night.remove() }
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: night.state)))
        let crafted = Self.edited(original, line: line) { Self.replacing(pattern, with: replacement, in: $0) }
        try Data(crafted).write(to: URL(fileURLWithPath: night.state))
        let result = try night.second()
        #expect(result.status == 4, "\(replacement): \(result.standardError)")
        #expect(result.standardError.contains("\(night.state): \(named)"), "\(replacement): \(result.standardError)")
        #expect(!result.standardError.contains("checksum"), "\(result.standardError)")
        #expect(night.wroteNothing)
    }

    /// A life's frame, its checksum right, of the state format's keyed container `fields`
    /// (each key and its value's encoded bytes).
    private static func lifeFrame(_ fields: [(String, [UInt8])]) -> [UInt8] {
        func varint(_ value: UInt64) -> [UInt8] {
            var value = value
            var bytes: [UInt8] = []
            repeat {
                bytes.append(UInt8(value & 0x7F) | (value >= 0x80 ? 0x80 : 0))
                value >>= 7
            } while value > 0
            return bytes
        }
        var entries: [UInt8] = []
        for (key, value) in fields { entries += varint(UInt64(key.utf8.count)) + Array(key.utf8) + value }
        let life = [0x08] + varint(UInt64(entries.count)) + entries
        let frame = (0..<4).map { UInt8(truncatingIfNeeded: life.count >> (8 * $0)) } + life
        let crc = crc32(frame)
        return frame + (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * UInt32($0))) }
    }

    /// A string and an integer as the state format encodes them.
    private static func string(_ text: String) -> [UInt8] { [0x07, UInt8(text.utf8.count)] + Array(text.utf8) }
    private static func integer(_ value: UInt64) -> [UInt8] {
        var bytes: [UInt8] = [0x03]
        var rest = value
        repeat {
            bytes.append(UInt8(rest & 0x7F) | (rest >= 0x80 ? 0x80 : 0))
            rest >>= 7
        } while rest > 0
        return bytes
    }

    @Test(arguments: [
        (UInt64(1) << 59, "the time 576460752303423488 ms is not within years 0 to 9999"),
        (UInt64(Int64.max), "the number 9223372036854775807 is beyond ±1152921504606846976"),
    ])
    func aNumberOutOfRangeInALifeIsRefusedNamingTheLifeAndTheField(first: UInt64, problem: String) throws {
        let night = try Night()
        defer { night.remove() }
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: night.state)))
        // A fourth life, of an instrument whose first record is out of range.
        let frame = Self.lifeFrame([
            ("k", Self.string("openavt")), ("i", Self.string("crafted")), ("f", Self.integer(first)),
            ("l", Self.integer(1_763_625_572_600)), ("s", [0x08, 0x00]),
        ])
        let crafted =
            Self.edited(original, line: 0) { Self.replacing(#""lives":3"#, with: #""lives":4"#, in: $0) } + frame
        try Data(crafted).write(to: URL(fileURLWithPath: night.state))
        let result = try night.second()
        #expect(result.status == 4, "\(result.standardError)")
        #expect(
            result.standardError.contains("\(night.state): open life 4 cannot be restored (field f: \(problem)"),
            "\(result.standardError)")
        #expect(night.wroteNothing)
    }

    // MARK: The files of shards and merges

    /// `inputs` (the samples) replayed as shards 1/2 and 2/2 with a state each, in `root`.
    private func shards(in root: URL, inputs: [String] = CommandRunner.samples) throws -> [URL] {
        try (1...2).map { index in
            let folder = root.appendingPathComponent("shard-\(index)")
            let result = try CommandRunner.run(
                Self.options + [
                    "--shard", "\(index)/2", "--state", root.appendingPathComponent("\(index).state").path, "--out",
                    folder.path,
                ] + inputs)
            #expect(result.status == 0, "\(result.standardError)")
            return folder
        }
    }

    /// Edits a shard's file `name` with `edit`, merges the shards, and returns the merge's
    /// result.
    private func merge(
        _ shards: [URL], editing name: String, of shard: Int = 0, in root: URL, _ edit: (String) -> String
    ) throws -> CommandRunner.Output {
        let file = shards[shard].appendingPathComponent(name)
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data(edit(text).utf8).write(to: file)
        let merged = root.appendingPathComponent("merged")
        let result = try CommandRunner.run(["merge", "--quiet", "--out", merged.path] + shards.map(\.path))
        #expect(!FileManager.default.fileExists(atPath: merged.appendingPathComponent("playbacks.csv").path))
        try Data(text.utf8).write(to: file)
        return result
    }

    @Test(arguments: [
        (#""views":\d+"#, #""views":9223372036854775807"#, "summary.state: field summary.groups[0]"),
        (#""count":\d+"#, #""count":9223372036854775000"#, "summary.state: field aggregates.rows[0].aggregate.count"),
        (#""start":\d+"#, #""start":-9223372036854775808"#, "summary.state: field summary.groups[0].buckets[0].start"),
        (#""shard":\d+"#, #""shard":3"#, "summary.state: field shard"),
        (#""openFrom":\d+"#, #""openFrom":9223372036854775807"#, "summary.state: field openFrom"),
        (#""rejectedLines":\d+"#, #""rejectedLines":-1"#, "summary.state: field provenance.rejectedLines"),
        (#""lines":\d+"#, #""lines":9223372036854775807"#, "summary.state: field provenance.inputs[0].lines"),
    ])
    func aNumberOutOfRangeInASummaryStateIsRefusedNamingTheField(
        pattern: String, replacement: String, named: String
    ) throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folders = try shards(in: root)
        let result = try merge(folders, editing: "summary.state", in: root) {
            Self.replacing(pattern, with: replacement, in: $0)
        }
        #expect(result.status == 4, "\(replacement): \(result.standardError)")
        #expect(result.standardError.contains(folders[0].appendingPathComponent(named).path), "\(result.standardError)")
    }

    /// Counts each within range, but whose sum over the shards passes 2⁶⁰: refused naming the
    /// shard that makes it pass, by checked arithmetic rather than a trap.
    @Test func countsThatOverflowOnlyAddedUpOverTheShardsAreRefused() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folders = try shards(in: root)
        let big = "1000000000000000000"
        for folder in folders {
            let file = folder.appendingPathComponent("summary.state")
            let text = try String(contentsOf: file, encoding: .utf8)
            try Data(Self.replacing(#""rejectedLines":\d+"#, with: #""rejectedLines":\#(big)"#, in: text).utf8)
                .write(to: file)
        }
        let result = try CommandRunner.run(
            ["merge", "--quiet", "--out", root.appendingPathComponent("merged").path] + folders.map(\.path))
        #expect(result.status == 4, "\(result.standardError)")
        #expect(
            result.standardError.contains(
                "\(folders[1].appendingPathComponent("summary.state").path): field provenance.rejectedLines: added up"),
            "\(result.standardError)")
    }

    @Test(arguments: [
        (#"^\[\d+,"#, "[7,", "sessions.index:2: field 1 (stage)"),
        (#"^\[(\d+),\d+,"#, "[$1,9223372036854775807,", "sessions.index:2: field 2 (time)"),
        (#"^\[(\d+),(\d+),(-?\d+),\d+,"#, "[$1,$2,$3,-1,", "sessions.index:2: field 4 (rank)"),
        (#",(\d+)\]$"#, ",-1]", "sessions.index:2: field 13"),
        (
            #"^(\[\d+,\d+,-?\d+,\d+,\d+,"[a-z]+","[^"]*"),\d+,"#, "$1,1152921504606846976,",
            "sessions.index:2: field 8 (bytes of playbacks.csv)"
        ),
    ])
    func aNumberOutOfRangeInASessionsIndexIsRefusedNamingTheLineAndField(
        pattern: String, replacement: String, named: String
    ) throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folders = try shards(in: root)
        let result = try merge(folders, editing: "sessions.index", in: root) { text in
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines[1] = lines[1].replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
            #expect(lines[1] != text.split(separator: "\n")[1], "\(pattern) in \(lines[1])")
            return lines.joined(separator: "\n")
        }
        #expect(result.status == 4, "\(replacement): \(result.standardError)")
        #expect(result.standardError.contains(folders[0].appendingPathComponent(named).path), "\(result.standardError)")
    }

    @Test(arguments: [
        (#""openFrom":\d+"#, #""openFrom":9223372036854775807"#, "field openFrom"),
        (#""shards":\d+"#, #""shards":0"#, "field shards"),
        (#""states":\["[0-9a-f]+""#, #""states":["not a state""#, "field states[0]"),
        (#""shards":\d+"#, #""shards":1e40"#, "field shards"),
    ])
    func aNumberOutOfRangeInAMergeStateIsRefusedNamingTheField(
        pattern: String, replacement: String, named: String
    ) throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        // The first night, sharded and merged; the second night's shard 1 is given the merge.
        let folders = try shards(in: root, inputs: [CommandRunner.samples[0]])
        let merged = root.appendingPathComponent("merged")
        let merge = try CommandRunner.run(["merge", "--quiet", "--out", merged.path] + folders.map(\.path))
        #expect(merge.status == 0, "\(merge.standardError)")
        let file = merged.appendingPathComponent("merge.state")
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data(Self.replacing(pattern, with: replacement, in: text).utf8).write(to: file)
        let next = try CommandRunner.run(
            Self.options + [
                "--shard", "1/2", "--state", root.appendingPathComponent("1.state").path, "--previous-merge",
                merged.path, "--out", root.appendingPathComponent("next").path, CommandRunner.samples[1],
            ])
        #expect(next.status == 4, "\(next.standardError)")
        #expect(next.standardError.contains("\(file.path): \(named)"), "\(next.standardError)")
    }

    @Test(arguments: [
        (#""end":\d+"#, #""end":9223372036854775807"#, "field end"),
        (#""start":\d+"#, #""start":-9223372036854775808"#, "field start"),
        (#""lines":\d+"#, #""lines":-1"#, "field inputs[0].lines"),
        (#""size":\d+"#, #""size":-1"#, "field inputs[0].size"),
        (#""maxLateness":\d+"#, #""maxLateness":-1"#, "field maxLateness"),
        (#""shards":\d+"#, #""shards":0"#, "field shards"),
        (#""end":\d+"#, #""end":1e300"#, "field end"),
    ])
    func aNumberOutOfRangeInAPartitionIsRefusedNamingTheField(
        pattern: String, replacement: String, named: String
    ) throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let partition = root.appendingPathComponent("partition")
        let made = try CommandRunner.run(
            ["partition", "--quiet", "--shards", "2", "--out", partition.path] + CommandRunner.samples)
        #expect(made.status == 0, "\(made.standardError)")
        let file = partition.appendingPathComponent("partition.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data(Self.replacing(pattern, with: replacement, in: text).utf8).write(to: file)
        let parts = try FileManager.default.contentsOfDirectory(atPath: partition.appendingPathComponent("1").path)
            .sorted().map { partition.appendingPathComponent("1/\($0)").path }
        let result = try CommandRunner.run(
            ["--quiet", "--shard", "1/2", "--out", root.appendingPathComponent("out").path] + parts)
        #expect(result.status == 4, "\(result.standardError)")
        #expect(result.standardError.contains("\(file.path): \(named)"), "\(result.standardError)")
    }
}

/// CRC-32 (the polynomial of zlib, gzip and PNG), bit by bit: what a state file's checksums are.
private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// ``crc32(_:)`` as a state's text lines write it: 8 lowercase hex digits.
private func crc32Text(_ bytes: [UInt8]) -> String {
    let hex = String(crc32(bytes), radix: 16)
    return String(repeating: "0", count: 8 - hex.count) + hex
}
