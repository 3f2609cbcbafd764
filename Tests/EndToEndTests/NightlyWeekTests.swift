import Foundation
import Testing

/// A generated week of hourly files replayed as seven nights with `--state`, split at midnight
/// and once at random hours, gives what one run over the week gives: the rows of each night
/// follow one another as in the one run's files, byte for byte, and every bucket of
/// `summary.csv` and `aggregates.csv` is written whole once.
struct NightlyWeekTests {
    /// The reports whose rows the nights share out, each row in the night it became final.
    static let rowReports = ["playbacks.csv", "vp_sessions.csv", "marconi_items.csv"]
    static let bucketReports = ["summary.csv", "aggregates.csv"]
    static let arguments = ["--quiet", "--aggregate", "--bucket", "1h"]
    static let hours = 7 * 24
    /// avt-loggen's `--start`, 2025-11-20T00:00:00Z, in epoch milliseconds.
    static let start: Int64 = 1_763_596_800_000

    @Test func aWeekReplayedNightByNightGivesTheReportsOfOneRun() throws {
        let root = try CommandRunner.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let logs = root.appendingPathComponent("logs")
        let generated = try CommandRunner.run(
            [
                "--records", "30000", "--files", "\(Self.hours)", "--layout", "hourly", "--seed", "7",
                "--start", "\(Self.start)", "--out", logs.path,
            ], executable: CommandRunner.loggen)
        #expect(generated.status == 0, "\(generated.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: logs.path).sorted()
            .map { logs.appendingPathComponent($0).path }
        try #require(files.count == Self.hours)
        let whole = root.appendingPathComponent("whole")
        let one = try CommandRunner.run(Self.arguments + ["--out", whole.path] + files)
        #expect(one.status == 0, "\(one.standardError)")
        // Night k starts at a cut: the first file of day k, or 6 of the 167 gaps between
        // consecutive hours drawn by a seeded generator.
        let midnights = Array(stride(from: 24, to: Self.hours, by: 24))
        var generator = SplitMix(seed: 2_025)
        var drawn: Set<Int> = []
        while drawn.count < 6 { drawn.insert(1 + Int(generator.next() % UInt64(Self.hours - 1))) }
        // Nights of 46, 11, 29, 5, 59, 14 and 4 hours, starting at any hour of the day.
        #expect(drawn.sorted() == [46, 57, 86, 91, 150, 164])
        for cuts in [midnights, drawn.sorted()] {
            let folder = root.appendingPathComponent("cut-" + cuts.map(String.init).joined(separator: "-"))
            try expectNights(files, cutAt: cuts, in: folder, give: whole)
        }
    }

    /// Replays `files` as nights, one starting at each of the `cuts` (indices of `files`), with
    /// one `--state` in `folder`, both ways a series may end: the last night with `--finish`,
    /// and the last night then a run with `--finish` and no input; each series must give the
    /// reports of `whole`.
    private func expectNights(_ files: [String], cutAt cuts: [Int], in folder: URL, give whole: URL) throws {
        let what = "cuts at hours \(cuts)"
        let nights = zip([0] + cuts, cuts + [files.count]).map { Array(files[$0..<$1]) }
        let state = folder.appendingPathComponent("open.state")
        var outs: [URL] = []
        for (index, files) in nights.enumerated() {
            let out = folder.appendingPathComponent("night\(index + 1)")
            if index == nights.count - 1 {
                // The same last night with --finish, from a copy of the state.
                let copy = folder.appendingPathComponent("finish.state")
                try FileManager.default.copyItem(at: state, to: copy)
                let finished = folder.appendingPathComponent("night\(index + 1)-finish")
                try replay(files, into: finished, state: copy, extra: ["--finish"], "\(what), night \(index + 1)")
                try expectSameReports(outs + [finished], whole, "\(what), the last night with --finish")
            }
            try replay(files, into: out, state: state, "\(what), night \(index + 1)")
            outs.append(out)
        }
        let finish = folder.appendingPathComponent("finish")
        try replay([], into: finish, state: state, extra: ["--finish"], "\(what), --finish")
        try expectSameReports(outs + [finish], whole, "\(what), then --finish")
        // Lives went on from one night to the next: playbacks that began before their night,
        // buckets left open.
        let spanning = try zip(cuts, outs.dropFirst()).map { hour, out in
            let night = Self.start + Int64(hour) * 3_600_000
            return try CSVLines.rows(of: out.appendingPathComponent("playbacks.csv"))
                .count { Int64($0["first_ts"] ?? "").map { $0 < night } ?? false }
        }
        #expect(spanning.reduce(0, +) > 0, "\(what): playbacks over a cut, night by night: \(spanning)")
        #expect(
            try outs.dropLast().contains { try bucketRows($0, "summary.csv").contains(where: \.partial) }, "\(what)")
        #expect(try Self.rowReports.contains { try rows($0, of: finish).count > 0 }, "\(what): --finish writes rows")
    }

    /// Runs one night. Every night exits 0: no record of this week comes in a later night's
    /// files behind a later record of its own life, the one case docs/time.md says is rejected
    /// as late (exit 1), which would change that life's rows.
    private func replay(_ files: [String], into out: URL, state: URL, extra: [String] = [], _ what: String) throws {
        let result = try CommandRunner.run(Self.arguments + ["--out", out.path, "--state", state.path] + extra + files)
        #expect(result.status == 0, "\(what): \(result.standardError)")
        #expect(try Data(contentsOf: out.appendingPathComponent("rejects.jsonl")).isEmpty, "\(what)")
    }

    /// The runs `series`, one after the other, wrote what `whole` holds: the rows of each row
    /// report in the same order, byte for byte (headers dropped but the first), and the whole
    /// buckets (not partial) of the bucket reports, each once, in the same order.
    private func expectSameReports(_ series: [URL], _ whole: URL, _ what: String) throws {
        for name in Self.rowReports {
            let expected = try rows(name, of: whole)
            #expect(expected.count > 10_000, "\(what): \(name) has rows")
            var split = Data()
            for out in series {
                #expect(try header(name, of: out) == header(name, of: whole), "\(what): \(name)")
                split += try rows(name, of: out)
            }
            expectSameLines(lines(split), lines(expected), "\(what): \(name)")
        }
        for name in Self.bucketReports {
            let expected = try bucketRows(whole, name)
            #expect(!expected.isEmpty && !expected.contains(where: \.partial), "\(what): \(name)")
            let split = try series.flatMap { try bucketRows($0, name).filter { !$0.partial } }
            expectSameLines(split.map(\.row), expected.map(\.row), "\(what): \(name)")
        }
    }

    /// Records an issue naming the first line where `produced` and `expected` part, and whether
    /// they hold the same lines in another order (a whole diff of thousands of lines takes
    /// minutes to print).
    private func expectSameLines<Line: StringProtocol>(_ produced: [Line], _ expected: [Line], _ what: String) {
        guard produced != expected else { return }
        let common = min(produced.count, expected.count)
        let index = (0..<common).first { produced[$0] != expected[$0] } ?? common
        let moved = produced.sorted() == expected.sorted() ? "the same lines in another order" : "not the same lines"
        Issue.record(
            """
            \(what): \(produced.count) lines, \(expected.count) expected, \(moved); line \(index + 1) is
            \(index < produced.count ? String(produced[index]) : "missing")
            where one run wrote
            \(index < expected.count ? String(expected[index]) : "nothing")
            """)
    }

    /// The lines of `data` (the reports are UTF-8), every byte kept: equal lines are equal bytes.
    private func lines(_ data: Data) -> [Substring] {
        String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The header line of a report.
    private func header(_ name: String, of folder: URL) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name)).prefix { $0 != UInt8(ascii: "\n") }
    }

    /// The bytes of a report after its header line.
    private func rows(_ name: String, of folder: URL) throws -> Data {
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        guard let end = data.firstIndex(of: UInt8(ascii: "\n")) else { return Data() }
        return data[(end + 1)...]
    }

    /// The bucket rows of a CSV file (not `all`), without their `partial` cell, and that cell
    /// (without `--group-by`, no cell holds a comma).
    private func bucketRows(_ folder: URL, _ name: String) throws -> [(row: String, partial: Bool)] {
        let lines = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            .split(separator: "\n")
        let header = lines.first.map(CSVLines.cells) ?? []
        let column = try #require(header.firstIndex(of: "partial"))
        return lines.dropFirst().filter { !$0.hasPrefix("all,") }.map { line in
            var row = CSVLines.cells(line)
            let partial = row.remove(at: column) == "true"
            return (row.joined(separator: ","), partial)
        }
    }

    /// SplitMix64, so that the random cuts are the same in every run.
    private struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
