import EventModel
import Foundation
import Replay
import Testing

@testable import ReplayApp

/// A state file's checks, read in place (``RunState/load(from:into:merge:shard:options:)``):
/// every byte of a state with a bit flipped is refused, naming its part; the options of a
/// replay command of one's own (its components) are named; the checksum is CRC-32.
struct StateFileChecksTests {
    /// The bundled sample logs.
    static let samples = ["avt-2025112007.jsonl.gz", "avt-2025112008.jsonl.gz"].map {
        TemporaryDirectory.packageRoot.appendingPathComponent("samples/\($0)").path
    }

    /// A run of the first sample night with `--state`, `--idle-gap 10m` and `--bucket 1h`
    /// (lives and buckets left open), with the components `components`.
    static func run(
        state: String, out: String, components: InstrumentComponents = InstrumentComponents()
    ) -> ReplayRun {
        let configuration = ReplayConfiguration(
            files: [samples[0]],
            replayOptions: ReplayOptions(components: components, idleGap: 600_000, bucket: 3_600_000),
            hubName: "ads", prefix: "avt", grain: .aggregates, aggregate: false, since: nil, until: nil,
            maxLateness: 1_800_000, maxRejects: nil, maxLate: nil, strict: false, middlewareArguments: [],
            toolName: "avt-replay")
        return ReplayRun(
            arguments: configuration, out: out, state: state, quiet: true, showsProgress: false, threads: 1)
    }

    /// The state the first night leaves, written by a run in `folder`.
    static func firstNight(in folder: TemporaryDirectory) throws -> (path: String, options: RunState.Options) {
        let state = folder.url.appendingPathComponent("open.state").path
        let run = run(state: state, out: folder.url.appendingPathComponent("out").path)
        let outcome = run.execute()
        #expect(outcome.status == .success)
        try outcome.commitState()
        outcome.end()
        return (state, run.stateOptions)
    }

    /// Loads the state at `path` into engines of `options`' run.
    @discardableResult
    static func load(_ path: String, options: RunState.Options) throws(RunState.Failure) -> RunState.Loaded {
        var engines = ReplayEngines(options: ReplayOptions(idleGap: 600_000, bucket: 3_600_000))
        var merge = EventTimeMerge(inputs: 1, maxLateness: 1_800_000)
        return try RunState.load(from: path, into: &engines, merge: &merge, options: options)
    }

    @Test func everyByteOfTheStateWithABitFlippedIsRefusedNamingItsPart() throws {
        let folder = try TemporaryDirectory()
        let (state, options) = try Self.firstNight(in: folder)
        let loaded = try Self.load(state, options: options)
        #expect(loaded.lives == 3 && loaded.carried != nil)
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: state)))
        let flipped = folder.url.appendingPathComponent("flipped.state").path
        let parts = ["the header (line 1) is ", "the open buckets' line (line 2) is ", "open life "]
        var refused = 0
        for offset in original.indices {
            var bytes = original
            bytes[offset] ^= 1 << UInt8(offset % 8)
            try Data(bytes).write(to: URL(fileURLWithPath: flipped))
            do {
                try Self.load(flipped, options: options)
                Issue.record("byte \(offset), bit \(offset % 8) flipped: the state was not refused")
            } catch {
                let message = error.description
                #expect(message.hasPrefix("\(flipped): "), "\(message)")
                #expect(parts.contains { message.contains($0) }, "byte \(offset): \(message)")
                #expect(message.contains("damaged"), "byte \(offset): \(message)")
                refused += 1
            }
        }
        #expect(refused == original.count)
    }

    /// A replay command of one's own gives its components: a state written with another hub
    /// type is refused naming both, before any life is decoded with the wrong one.
    @Test func aStateOfOtherComponentsIsRefusedNamingBoth() throws {
        let folder = try TemporaryDirectory()
        let (state, _) = try Self.firstNight(in: folder)
        let core = Self.run(state: state, out: "", components: InstrumentComponents(hub: .core)).stateOptions
        #expect(core.hub == "ads" && core.hubComponent == "HubCore")
        let error = #expect(throws: RunState.Failure.self) { try Self.load(state, options: core) }
        #expect(
            error?.description.hasPrefix(
                "\(state): this state was written with the hub HubCoreAds; this run's is HubCore: every run of a "
                    + "series") == true, "\(error?.description ?? "")")
    }

    @Test func eachOptionIsNamedWithBothValuesInOrder() {
        let written = RunState.Options(
            hub: "ads", prefix: "avt", tentacles: "value-proposition", idleGap: 43_200_000, metrics: "aggregates",
            bucket: 3_600_000, groupBy: [], middlewares: [], hubComponent: "HubCoreAds",
            metricalcComponent: "MetricalcCore", backendComponent: "SilentBackend")
        #expect(written.mismatch(with: written, path: "s") == nil)
        let changes: [(WritableKeyPath<RunState.Options, String>, String, String)] = [
            (\.hub, "core", "--hub ads; this run gives --hub core"),
            (\.prefix, "web", "--prefix avt; this run gives --prefix web"),
            (
                \.tentacles, "domain-activity",
                "--tentacles value-proposition; this run gives --tentacles domain-activity"
            ),
            (\.metrics, "events", "--metrics aggregates; this run gives --metrics events"),
            (\.metricalcComponent, "Custom", "the metricalc MetricalcCore; this run's is Custom"),
            (\.backendComponent, "Recording", "the backend SilentBackend; this run's is Recording"),
        ]
        for (key, value, said) in changes {
            var run = written
            run[keyPath: key] = value
            #expect(
                written.mismatch(with: run, path: "s")?.hasPrefix("s: this state was written with \(said): ") == true)
        }
        var run = written
        run.idleGap = 5_400_500
        run.groupBy = ["title", "device"]
        #expect(
            written.mismatch(with: run, path: "s")?.contains("--idle-gap 12h; this run gives --idle-gap 1h30m500ms")
                == true)
        run.idleGap = written.idleGap
        #expect(
            written.mismatch(with: run, path: "s")?.contains("no --group-by; this run gives --group-by title,device")
                == true)
        run.groupBy = []
        run.middlewares = ["duration:open:complete", "metrics=skip-name:a"]
        #expect(
            written.mismatch(with: run, path: "s")?.contains(
                "no --vp-middleware; this run gives --vp-middleware duration:open:complete --vp-middleware "
                    + "metrics=skip-name:a") == true)
    }

    @Test func durationsAreSaidAsTheirOptionTakesThem() {
        #expect(durationText(43_200_000) == "12h")
        #expect(durationText(600_000) == "10m")
        #expect(durationText(90_061_001) == "1d1h1m1s1ms")
        #expect(durationText(1_000) == "1s")
        #expect(durationText(0) == "0ms")
    }

    /// The checksum is CRC-32 (its check value), and a text line's ends it.
    @Test func theChecksumIsCRC32AndALinesEndsIt() {
        #expect(StateChecksum.of(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(StateChecksum.text(0x0000_00AB) == "000000ab")
        let body = Array(#"{"a":1"#.utf8)
        let line = body + StateChecksum.suffix(of: body)
        #expect(
            String(decoding: line, as: UTF8.self)
                == #"{"a":1,"crc32":"\#(StateChecksum.text(StateChecksum.of(body)))"}"#)
        line.withUnsafeBytes { bytes in
            #expect(StateChecksum.verdict(of: bytes) == .matches)
            #expect(StateChecksum.body(of: bytes) == Array(#"{"a":1}"#.utf8))
        }
        var damaged = line
        damaged[3] ^= 0x01
        damaged.withUnsafeBytes { #expect(StateChecksum.verdict(of: $0) == .differs) }
        body.withUnsafeBytes { #expect(StateChecksum.verdict(of: $0) == .missing) }
    }
}
