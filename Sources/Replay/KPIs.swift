import EventModel
import Histogram

/// The KPIs of one bucket: the formulas are in docs/reports.md ("summary.csv").
///
/// They add up (``merge(_:)``): counts and sums add, and the startup sketches add bucket by
/// bucket, so the KPIs of several shards or buckets merged are those of all their playbacks.
public struct KPIs: Sendable {
    /// Playback rows.
    public private(set) var views: Int64 = 0
    /// Playbacks that started.
    public private(set) var plays: Int64 = 0
    public private(set) var exitsBeforeStart: Int64 = 0
    public private(set) var startFailures: Int64 = 0
    /// Plays with a startup (``PlaybackSummary/startup``, `startup_ms`), and the sum of their startups.
    public private(set) var startupCount: Int64 = 0
    public private(set) var startupSum: Int64 = 0
    /// The plays' startups by bin of ``startupBinEdges``: bin 0 holds those under the first
    /// edge, bin `i` those from edge `i - 1` to under edge `i`, the last those from the last edge.
    public private(set) var startupBins = [Int64](repeating: 0, count: startupBinEdges.count + 1)
    /// The plays with watch time by rebuffer ratio, by bin of ``rebufferBinEdges``: a play's
    /// bin is the number of edges `e` with 10,000 × `rebuffer_ms` ≥ `e` × `watch_ms`.
    public private(set) var rebufferBins = [Int64](repeating: 0, count: rebufferBinEdges.count + 1)
    /// Play time plus rebuffer time.
    public private(set) var watchTime: Int64 = 0
    public private(set) var rebuffers: Int64 = 0
    public private(set) var rebufferTime: Int64 = 0
    /// All buffering, initial and in seeks and pauses included: finished blocks and time.
    public private(set) var buffers: Int64 = 0
    public private(set) var bufferTime: Int64 = 0
    /// Playbacks that started and had an error.
    public private(set) var playbackFailures: Int64 = 0
    /// Playbacks that ended (`End`, `Stop` or `Next`) without an error.
    public private(set) var endedWithoutErrors: Int64 = 0
    /// Quality changes, up and down.
    public private(set) var qualityChanges: Int64 = 0
    public private(set) var vpSessions: Int64 = 0
    public private(set) var vpCompleted: Int64 = 0
    /// Value-proposition sessions that started, and the sum of their times from `opened` to
    /// the first `started`.
    public private(set) var vpStarted: Int64 = 0
    public private(set) var vpTimeToStartSum: Int64 = 0
    /// Play time with a known bitrate, and the sum of bitrate × play time over it (bit-milliseconds).
    public private(set) var bitrateTime: Int64 = 0
    public private(set) var bitMilliseconds: Int128 = 0
    /// Play time above and below each playback's initial bitrate.
    public private(set) var upscaleTime: Int64 = 0
    public private(set) var downscaleTime: Int64 = 0
    /// Errors before or within a second of their playback's start, and later ones.
    public private(set) var initialErrors: Int64 = 0
    public private(set) var midstreamErrors: Int64 = 0
    /// The startups' sketch, made at the first startup (about 7 KB).
    private var startup: Histogram<UInt32>?

    /// The edges of the startup histogram's bins, in milliseconds: each bin twice as wide as
    /// the one before, as CTA-2066 recommends histograms over means.
    public static let startupBinEdges: [Int64] = [250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000]
    /// The edges of the rebuffer-ratio bins, in basis points (hundredths of a percent): under
    /// 0.01 % (none, in practice), then 0.5 %, 1 %, 2 %, 5 %, 10 % and 20 %.
    public static let rebufferBinEdges: [Int64] = [1, 50, 100, 200, 500, 1_000, 2_000]

    public init() {}

    mutating func add(_ playback: PlaybackSummary) {
        views += 1
        if playback.didStart { plays += 1 }
        if playback.isExitBeforeStart { exitsBeforeStart += 1 }
        if playback.isStartFailure { startFailures += 1 }
        if playback.didStart && playback.errors > 0 { playbackFailures += 1 }
        if playback.endAction != nil && playback.errors == 0 { endedWithoutErrors += 1 }
        qualityChanges += playback.qualityChanges
        if playback.didStart, let startupTime = playback.startup {
            startupCount += 1
            startupSum += startupTime
            if startup == nil { startup = Self.makeSketch() }
            _ = startup?.record(UInt64(max(0, startupTime)))
            startupBins[Self.startupBinEdges.count { startupTime >= $0 }] += 1
        }
        let playbackWatchTime = playback.playTime + playback.rebufferTime
        if playback.didStart && playbackWatchTime > 0 {
            let scaled = Int128(playback.rebufferTime) * 10_000
            rebufferBins[Self.rebufferBinEdges.count { scaled >= Int128($0) * Int128(playbackWatchTime) }] += 1
        }
        bitrateTime &+= playback.bitrateTime
        bitMilliseconds &+= playback.bitMilliseconds
        upscaleTime &+= playback.upscaleTime
        downscaleTime &+= playback.downscaleTime
        initialErrors += playback.initialErrors
        midstreamErrors += playback.midstreamErrors
        watchTime += playback.playTime + playback.rebufferTime
        rebuffers += playback.rebuffers
        rebufferTime += playback.rebufferTime
        buffers += playback.buffers
        bufferTime += playback.bufferTime
    }

    mutating func add(_ session: VPSessionSummary) {
        vpSessions += 1
        if session.outcome == .completed { vpCompleted += 1 }
        if let timeToStart = session.timeToStart {
            vpStarted += 1
            vpTimeToStartSum += timeToStart
        }
    }

    /// Adds another bucket's KPIs: the KPIs of both buckets' playbacks and sessions.
    public mutating func merge(_ other: KPIs) {
        visitCounts(pairedWith: other) { total, value, _ in total += value }
        mergeWrapping(other)
    }

    /// Adds the counts and sums of ``merge(_:)`` that do not wrap (not the sketch), with checked
    /// arithmetic, for KPIs read from a file: throws, naming the field, when one would overflow
    /// or leave `StoredRange/sums`, leaving these KPIs partly added to.
    package mutating func addCounts(checking other: KPIs) throws(StateError) {
        try visitCounts(pairedWith: other) { (total, value, name) throws(StateError) in
            guard let sum = StoredRange.add(total, value) else {
                throw StateError("\(name): adds up to more than 2^60 (\(total) and \(value))")
            }
            total = sum
        }
    }

    /// Adds the magnitude of each count and sum of `other` to this one's (checked): what
    /// bounds every sum of KPIs among which `other` is, in any order.
    package mutating func addMagnitudes(checking other: KPIs) throws(StateError) {
        try visitCounts(pairedWith: other) { (total, value, name) throws(StateError) in
            guard value != .min, let sum = StoredRange.add(total, abs(value)) else {
                throw StateError("\(name): adds up to more than 2^60")
            }
            total = sum
        }
    }

    /// The first count or sum that differs from `other`'s, or `nil`.
    package func firstCountDiffering(from other: KPIs) -> String? {
        var copy = self
        var differing: String?
        copy.visitCounts(pairedWith: other) { total, value, name in
            if differing == nil, total != value { differing = name }
        }
        return differing
    }

    /// The sums that wrap (`&+`: they may pass `Int64`'s range with long enough input) and
    /// the sketch.
    private mutating func mergeWrapping(_ other: KPIs) {
        bitrateTime &+= other.bitrateTime
        bitMilliseconds &+= other.bitMilliseconds
        upscaleTime &+= other.upscaleTime
        downscaleTime &+= other.downscaleTime
        if let sketch = other.startup {
            if startup == nil { startup = Self.makeSketch() }
            startup?.add(sketch)
        }
    }

    /// Calls `body` with each count and sum that adds with `+` (which traps on overflow), and
    /// `other`'s, with its name: the fields merged, checked and compared.
    private mutating func visitCounts<E: Error>(
        pairedWith other: KPIs, _ body: (inout Int64, Int64, String) throws(E) -> Void
    ) throws(E) {
        try body(&views, other.views, "views")
        try body(&plays, other.plays, "plays")
        try body(&exitsBeforeStart, other.exitsBeforeStart, "exitsBeforeStart")
        try body(&startFailures, other.startFailures, "startFailures")
        try body(&startupCount, other.startupCount, "startupCount")
        try body(&startupSum, other.startupSum, "startupSum")
        try body(&watchTime, other.watchTime, "watchTime")
        try body(&rebuffers, other.rebuffers, "rebuffers")
        try body(&rebufferTime, other.rebufferTime, "rebufferTime")
        try body(&playbackFailures, other.playbackFailures, "playbackFailures")
        try body(&endedWithoutErrors, other.endedWithoutErrors, "endedWithoutErrors")
        try body(&qualityChanges, other.qualityChanges, "qualityChanges")
        try body(&vpSessions, other.vpSessions, "vpSessions")
        try body(&vpCompleted, other.vpCompleted, "vpCompleted")
        try body(&vpStarted, other.vpStarted, "vpStarted")
        try body(&vpTimeToStartSum, other.vpTimeToStartSum, "vpTimeToStartSum")
        try body(&buffers, other.buffers, "buffers")
        try body(&bufferTime, other.bufferTime, "bufferTime")
        try body(&initialErrors, other.initialErrors, "initialErrors")
        try body(&midstreamErrors, other.midstreamErrors, "midstreamErrors")
        for bin in startupBins.indices { try body(&startupBins[bin], other.startupBins[bin], "startupBins[\(bin)]") }
        for bin in rebufferBins.indices {
            try body(&rebufferBins[bin], other.rebufferBins[bin], "rebufferBins[\(bin)]")
        }
    }

    /// An empty startup-time sketch: two significant digits, growing as values need.
    private static func makeSketch() -> Histogram<UInt32> {
        var sketch = Histogram<UInt32>(
            lowestDiscernibleValue: 1, highestTrackableValue: 600_000, numberOfSignificantValueDigits: .two)
        sketch.autoResize = true
        return sketch
    }

    /// A startup percentile, or `nil` without startups.
    public func startupPercentile(_ percentile: Double) -> Int64? {
        startup.map { Int64($0.valueAtPercentile(percentile)) }
    }
}

extension KPIs: Codable {
    private enum CodingKeys: String, CodingKey {
        case views, plays, exitsBeforeStart, startFailures, startupCount, startupSum, watchTime, rebuffers
        case rebufferTime, playbackFailures, endedWithoutErrors, qualityChanges, vpSessions, vpCompleted
        case bitrateTime, bitMilliseconds, upscaleTime, downscaleTime, initialErrors, midstreamErrors, startup
        case vpStarted, vpTimeToStartSum, buffers, bufferTime, startupBins, rebufferBins
    }

    /// The startup sketch as stored: the smallest and largest values recorded, and the count of
    /// each of the sketch's buckets that has any, by the bucket's highest value, ascending.
    private struct SketchState: Codable {
        var min: UInt64
        var max: UInt64
        var counts: [[UInt64]]
    }

    /// Decodes what ``encode(to:)`` wrote. A count outside `StoredRange/counts` or a sum
    /// outside `StoredRange/sums` is refused (`dataCorrupted`, at its key): no run writes one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func count(_ key: CodingKeys) throws -> Int64 { try Self.number(container, key, in: StoredRange.counts) }
        func sum(_ key: CodingKeys) throws -> Int64 { try Self.number(container, key, in: StoredRange.sums) }
        views = try count(.views)
        plays = try count(.plays)
        exitsBeforeStart = try count(.exitsBeforeStart)
        startFailures = try count(.startFailures)
        startupCount = try count(.startupCount)
        startupSum = try sum(.startupSum)
        watchTime = try sum(.watchTime)
        rebuffers = try count(.rebuffers)
        rebufferTime = try sum(.rebufferTime)
        playbackFailures = try count(.playbackFailures)
        endedWithoutErrors = try count(.endedWithoutErrors)
        qualityChanges = try count(.qualityChanges)
        vpSessions = try count(.vpSessions)
        vpCompleted = try count(.vpCompleted)
        vpStarted = try count(.vpStarted)
        vpTimeToStartSum = try sum(.vpTimeToStartSum)
        buffers = try count(.buffers)
        bufferTime = try sum(.bufferTime)
        // Sums that wrap (`&+=`) take any value.
        bitrateTime = try container.decode(Int64.self, forKey: .bitrateTime)
        bitMilliseconds = try container.decode(Int128.self, forKey: .bitMilliseconds)
        upscaleTime = try container.decode(Int64.self, forKey: .upscaleTime)
        downscaleTime = try container.decode(Int64.self, forKey: .downscaleTime)
        initialErrors = try count(.initialErrors)
        midstreamErrors = try count(.midstreamErrors)
        startupBins = try Self.bins(container, .startupBins, count: Self.startupBinEdges.count + 1)
        rebufferBins = try Self.bins(container, .rebufferBins, count: Self.rebufferBinEdges.count + 1)
        if let state = try container.decodeIfPresent(SketchState.self, forKey: .startup) {
            startup = try Self.sketch(from: state, codingPath: container.codingPath + [CodingKeys.startup])
        }
    }

    /// The number of `key`, refused outside `range`.
    private static func number(
        _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys, in range: ClosedRange<Int64>
    ) throws -> Int64 {
        try container.decodeStored(key, in: range)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(views, forKey: .views)
        try container.encode(plays, forKey: .plays)
        try container.encode(exitsBeforeStart, forKey: .exitsBeforeStart)
        try container.encode(startFailures, forKey: .startFailures)
        try container.encode(startupCount, forKey: .startupCount)
        try container.encode(startupSum, forKey: .startupSum)
        try container.encode(watchTime, forKey: .watchTime)
        try container.encode(rebuffers, forKey: .rebuffers)
        try container.encode(rebufferTime, forKey: .rebufferTime)
        try container.encode(playbackFailures, forKey: .playbackFailures)
        try container.encode(endedWithoutErrors, forKey: .endedWithoutErrors)
        try container.encode(qualityChanges, forKey: .qualityChanges)
        try container.encode(vpSessions, forKey: .vpSessions)
        try container.encode(vpCompleted, forKey: .vpCompleted)
        try container.encode(vpStarted, forKey: .vpStarted)
        try container.encode(vpTimeToStartSum, forKey: .vpTimeToStartSum)
        try container.encode(buffers, forKey: .buffers)
        try container.encode(bufferTime, forKey: .bufferTime)
        try container.encode(bitrateTime, forKey: .bitrateTime)
        try container.encode(bitMilliseconds, forKey: .bitMilliseconds)
        try container.encode(upscaleTime, forKey: .upscaleTime)
        try container.encode(downscaleTime, forKey: .downscaleTime)
        try container.encode(initialErrors, forKey: .initialErrors)
        try container.encode(midstreamErrors, forKey: .midstreamErrors)
        try container.encode(startupBins, forKey: .startupBins)
        try container.encode(rebufferBins, forKey: .rebufferBins)
        if let startup {
            let counts = startup.recordedValues().map { [$0.value, UInt64($0.count)] }
            try container.encode(
                SketchState(min: startup.min, max: startup.maxRecorded, counts: counts), forKey: .startup)
        }
    }

    /// Histogram bins as stored: `count` counts, none negative.
    private static func bins(
        _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys, count: Int
    ) throws -> [Int64] {
        let bins = try container.decodeStoredArray(key, in: StoredRange.counts)
        guard bins.count == count else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "expected \(count) bin counts, found \(bins.count)")
        }
        return bins
    }

    /// Rebuilds a sketch with the same bucket counts, smallest and largest value: the values of
    /// its lowest bucket are recorded as the smallest value, those of its highest as the largest.
    private static func sketch(from state: SketchState, codingPath: [any CodingKey]) throws -> Histogram<UInt32> {
        // A startup is a time: at most 2^60 ms (its percentiles are written as Int64s).
        guard state.min <= state.max, state.max <= UInt64(StoredRange.magnitude) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "a sketch's min \(state.min) and max \(state.max) are not from 0 to 2^60, "
                        + "min first"))
        }
        var sketch = makeSketch()
        for (index, entry) in state.counts.enumerated() {
            guard entry.count == 2, let count = UInt32(exactly: entry[1]), count > 0,
                entry[0] <= 2 * UInt64(StoredRange.magnitude)
            else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: codingPath, debugDescription: "a sketch count is not [value, count]"))
            }
            let isFirst = index == 0
            let isLast = index == state.counts.count - 1
            switch (isFirst, isLast) {
            case (true, true):
                if count > 1 { sketch.record(state.min, count: count - 1) }
                sketch.record(state.max)
            case (true, false): sketch.record(state.min, count: count)
            case (false, true): sketch.record(state.max, count: count)
            case (false, false): sketch.record(entry[0], count: count)
            }
        }
        return sketch
    }
}
