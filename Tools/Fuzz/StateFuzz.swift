// libFuzzer entry point for the reading of a `--state` file: `RunState.load` (each part's
// checksum, the header and its numbers, the open buckets' JSON and the summaries and
// aggregates rebuilt from it, then each open life through `StateDecoder` and every state
// machine's own decoding), and what a run then does with the lives it restored.
//
// Built by `scripts/checks/fuzz.sh state` with `swiftc -sanitize=fuzzer,address -parse-as-library`,
// together with the ReplayApp sources (RunState is internal to them), against the modules
// SwiftPM built with the same sanitizers; not part of the SwiftPM package.
//
// The input is made into a state file two ways, chosen by its first byte:
// - even: as it is (a real state from the corpus, mutated: most mutations break a checksum,
//   which must be refused);
// - odd: as parts whose checksums are made right, so that the fuzzer reaches what the
//   checksums guard: the rest's first line is the header's JSON and, when it says
//   `"carried":true`, its second the open buckets' (each line the JSON object without its last
//   `}`, to which its `crc32` member is added), and what
//   follows is cut into lives by a
//   2-byte little-endian length before each, each given its frame's length and CRC-32
//   (`Tools/Fuzz/corpus/state/` holds real states in both forms).
// The state is loaded without options (a state's options are then not compared) and must
// load or throw `RunState.Failure`, never crash or trap; a state that loads is then ended
// (every restored life finished, its rows made, as `--finish` does) and its lives encoded
// again, which must not trap either.

import EventModel
import Foundation
import Replay

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

private let path = "/dev/shm/avt-replay-state-fuzz-\(getpid())"

/// The state file of an odd input (see above).
private func checksummed(_ input: ArraySlice<UInt8>) -> [UInt8] {
    var rest = input
    var file: [UInt8] = []
    // The header, then the open buckets' line when the header says there is one.
    var lines = 1
    while lines > 0, let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
        let body = Array(rest[..<newline])
        rest = rest[(newline + 1)...]
        if file.isEmpty, body.firstRange(of: Array(#""carried":true"#.utf8)) != nil { lines += 1 }
        file += body + StateChecksum.suffix(of: body) + [UInt8(ascii: "\n")]
        lines -= 1
    }
    while rest.count >= 2 {
        let length = min(Int(rest[rest.startIndex]) | Int(rest[rest.startIndex + 1]) << 8, rest.count - 2)
        let life = rest[(rest.startIndex + 2)..<(rest.startIndex + 2 + length)]
        rest = rest[(rest.startIndex + 2 + length)...]
        var frame = (0..<4).map { UInt8(truncatingIfNeeded: life.count >> (8 * $0)) } + Array(life)
        let crc = StateChecksum.of(frame)
        frame += (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * UInt32($0))) }
        file += frame
    }
    return file
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    guard let mode = input.first else { return 0 }
    let file = mode & 1 == 0 ? Array(input.dropFirst()) : checksummed(Array(input.dropFirst())[...])
    guard FileManager.default.createFile(atPath: path, contents: Data(file)) else {
        fputs("StateFuzz: cannot write \(path)\n", stderr)
        abort()
    }
    defer { unlink(path) }
    // A shard's state goes on in its own shard.
    let shard = (try? RunState.header(at: path))?.shard
    var engines = ReplayEngines(options: ReplayOptions(idleGap: 600_000, bucket: 3_600_000), shard: shard ?? .all)
    var merge = EventTimeMerge(inputs: 1, maxLateness: 1_800_000)
    do {
        let loaded = try RunState.load(from: path, into: &engines, merge: &merge, shard: shard)
        if let carried = loaded.carried {
            // What a run does with them: add them to its reports' summaries and aggregates.
            for state in [carried.summary, carried.page].compactMap({ $0 }) + (carried.breakdowns ?? []).compactMap({ $0 }) {
                if var summary = try? KPISummary(state: state) {
                    summary.openFrom = loaded.header?.openFrom
                    _ = summary.rows
                    _ = summary.carried
                }
            }
            if let state = carried.aggregates, var aggregates = try? MetricAggregates(state: state) {
                aggregates.openFrom = loaded.header?.openFrom
                _ = aggregates.rows
                _ = aggregates.carried
            }
        }
        // The lives go on: encoded again as the next state would keep them, then ended.
        let encoder = StateEncoder()
        var bytes: [UInt8] = []
        for life in engines.openLives { try? encoder.encode(life, into: &bytes) }
        var summary = KPISummary(bucket: 3_600_000)
        var aggregates = MetricAggregates(bucket: 3_600_000)
        engines.finish { report in
            summary.add(report)
            aggregates.add(report)
        }
        _ = summary.rows
    } catch {
        // STATE_FUZZ_VERBOSE=1 prints why each input was refused (to see what a seed reaches).
        if getenv("STATE_FUZZ_VERBOSE") != nil { fputs("refused: \(error)\n", stderr) }
        if error.description.isEmpty {
            fputs("StateFuzz: a refusal without a message\n", stderr)
            abort()
        }
    }
    return 0
}
