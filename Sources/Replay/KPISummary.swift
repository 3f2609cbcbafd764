import EventModel
import Histogram

/// The KPIs of `summary.csv`, per time bucket and over everything, built as sessions close.
///
/// A playback belongs to the bucket of its `first_ts`, a value-proposition session to the
/// bucket of its `opened_ts`; buckets start at multiples of their length since the epoch (UTC).
/// With `--group-by` (``GroupBy``), each bucket has a row per group of dimension values, and
/// each group an `all` row; memory grows with the (bucket, group) pairs that have a row, not
/// with the playbacks. Startup-time percentiles come from an HdrHistogram per row (two
/// significant digits: a percentile is within 1% of the exact value), which buckets and
/// shards can add up.
public struct KPISummary: Sendable {
    /// The bucket length, in milliseconds.
    public let bucket: Int64
    /// The dimensions rows are split by.
    public let groupBy: GroupBy
    private var buckets: [BucketKey: KPIs] = [:]
    /// The dimension values of each group, by group index, and the index of each.
    private var groups: [[String]] = []
    private var groupIndex: [[String]: Int] = [:]
    /// The `all` row of each group, by group index.
    private var totals: [KPIs] = []
    /// Every playback's first and last record time, by group index, for the peak of concurrent playbacks.
    private var playbackSpans: [[(first: Int64, last: Int64)]] = []

    /// One bucket of one group.
    private struct BucketKey: Hashable {
        var start: Int64
        var group: Int
    }

    /// A summary with buckets of `bucket` milliseconds, split by `groupBy`.
    public init(bucket: Int64, groupBy: GroupBy = .none) {
        self.bucket = bucket
        self.groupBy = groupBy
        // Without dimensions there is always an `all` row, even for an empty input.
        if groupBy.keys.isEmpty { _ = group(of: []) }
    }

    /// Counts what a closed session produced.
    public mutating func add(_ report: SessionReport) {
        for playback in report.playbacks {
            let group = group(of: groupBy.values(of: playback))
            buckets[BucketKey(start: bucketStart(playback.firstTimestamp), group: group), default: KPIs()]
                .add(playback)
            totals[group].add(playback)
            playbackSpans[group].append((playback.firstTimestamp.milliseconds, playback.lastTimestamp.milliseconds))
        }
        for session in report.vpSessions {
            let group = group(of: groupBy.values(of: session))
            buckets[BucketKey(start: bucketStart(session.openedTimestamp), group: group), default: KPIs()]
                .add(session)
            totals[group].add(session)
        }
    }

    /// One row of `summary.csv`.
    public struct Row: Sendable {
        /// The bucket's start; `nil` for the `all` row.
        public var bucket: Timestamp?
        /// The dimension values, one per ``GroupBy/keys``.
        public var group: [String]
        public var kpis: KPIs
        /// The most playbacks of the group in progress at one instant of the bucket.
        public var peakConcurrent: Int64
    }

    /// The rows: one per bucket and group with anything in it, by bucket start and then group
    /// values (byte-wise), then the `all` row of each group, by group values.
    public var rows: [Row] {
        let order = groups.indices.sorted { GroupBy.precedes(groups[$0], groups[$1]) }
        var rank = [Int](repeating: 0, count: groups.count)
        for (position, group) in order.enumerated() { rank[group] = position }
        let keys = buckets.keys.sorted { ($0.start, rank[$0.group]) < ($1.start, rank[$1.group]) }
        var startsByGroup = [[Int64]](repeating: [], count: groups.count)
        for key in keys { startsByGroup[key.group].append(key.start) }
        let peaks = groups.indices.map { peakConcurrency(of: playbackSpans[$0], in: startsByGroup[$0]) }
        let bucketRows = keys.compactMap { key in
            buckets[key].map {
                Row(
                    bucket: Timestamp(milliseconds: key.start), group: groups[key.group], kpis: $0,
                    peakConcurrent: peaks[key.group].perBucket[key.start] ?? 0)
            }
        }
        return bucketRows
            + order.map { Row(bucket: nil, group: groups[$0], kpis: totals[$0], peakConcurrent: peaks[$0].overall) }
    }

    /// The index of the group with these values, added when new.
    private mutating func group(of values: [String]) -> Int {
        if let known = groupIndex[values] { return known }
        groupIndex[values] = groups.count
        groups.append(values)
        totals.append(KPIs())
        playbackSpans.append([])
        return groups.count - 1
    }

    /// The most playbacks in progress at one instant, per bucket and overall: a playback is in
    /// progress from its first record to its last, both included (a playback that ends when
    /// another starts overlaps it). Playbacks that started in an earlier bucket count too.
    private func peakConcurrency(
        of spans: [(first: Int64, last: Int64)], in bucketStarts: [Int64]
    ) -> (perBucket: [Int64: Int64], overall: Int64) {
        // Starts before ends at the same time.
        let changes = spans.flatMap { [($0.first, Int64(1)), ($0.last, Int64(-1))] }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 > $1.1 }
        var perBucket: [Int64: Int64] = [:]
        var overall: Int64 = 0
        var current: Int64 = 0
        var nextRow = 0
        var currentBucket: Int64?
        for (time, delta) in changes {
            let start = bucketStart(Timestamp(milliseconds: time))
            if start != currentBucket {
                // Rows without a change of their own hold what was in progress when they began.
                while nextRow < bucketStarts.count && bucketStarts[nextRow] < start {
                    if perBucket[bucketStarts[nextRow]] == nil { perBucket[bucketStarts[nextRow]] = current }
                    nextRow += 1
                }
                perBucket[start] = max(perBucket[start] ?? 0, current)
                currentBucket = start
            }
            current += delta
            perBucket[start] = max(perBucket[start] ?? 0, current)
            overall = max(overall, current)
        }
        return (perBucket, overall)
    }

    private func bucketStart(_ time: Timestamp) -> Int64 {
        time.bucketStart(length: bucket).milliseconds
    }
}

/// The KPIs of one bucket: the formulas are in the README.
public struct KPIs: Sendable {
    /// Playback rows.
    public private(set) var views: Int64 = 0
    /// Playbacks that started.
    public private(set) var plays: Int64 = 0
    public private(set) var exitsBeforeStart: Int64 = 0
    public private(set) var startFailures: Int64 = 0
    /// Plays with a start time, and the sum of their start times.
    public private(set) var startupCount: Int64 = 0
    public private(set) var startupSum: Int64 = 0
    /// Play time plus rebuffer time.
    public private(set) var watchTime: Int64 = 0
    public private(set) var rebuffers: Int64 = 0
    public private(set) var rebufferTime: Int64 = 0
    /// Playbacks that started and had an error.
    public private(set) var playbackFailures: Int64 = 0
    /// Playbacks that ended (`End`, `Stop` or `Next`) without an error.
    public private(set) var endedWithoutErrors: Int64 = 0
    /// Quality changes, up and down.
    public private(set) var qualityChanges: Int64 = 0
    public private(set) var vpSessions: Int64 = 0
    public private(set) var vpCompleted: Int64 = 0
    /// Play time with a known bitrate, and the sum of bitrate × play time over it (bit-milliseconds).
    public private(set) var bitrateTime: Int64 = 0
    public private(set) var bitMilliseconds: Int128 = 0
    /// Play time above and below each playback's initial bitrate.
    public private(set) var upscaleTime: Int64 = 0
    public private(set) var downscaleTime: Int64 = 0
    /// Errors before or within a second of their playback's start, and later ones.
    public private(set) var initialErrors: Int64 = 0
    public private(set) var midstreamErrors: Int64 = 0
    /// The start times' sketch, made at the first start time (about 7 KB).
    private var startup: Histogram<UInt32>?

    public init() {}

    mutating func add(_ playback: PlaybackSummary) {
        views += 1
        if playback.didStart { plays += 1 }
        if playback.isExitBeforeStart { exitsBeforeStart += 1 }
        if playback.isStartFailure { startFailures += 1 }
        if playback.didStart && playback.errors > 0 { playbackFailures += 1 }
        if playback.endAction != nil && playback.errors == 0 { endedWithoutErrors += 1 }
        qualityChanges += playback.qualityChanges
        if playback.didStart, let startTime = playback.startTime {
            startupCount += 1
            startupSum += startTime
            if startup == nil {
                var sketch = Histogram<UInt32>(
                    lowestDiscernibleValue: 1, highestTrackableValue: 600_000, numberOfSignificantValueDigits: .two)
                sketch.autoResize = true
                startup = sketch
            }
            _ = startup?.record(UInt64(max(0, startTime)))
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
    }

    mutating func add(_ session: VPSessionSummary) {
        vpSessions += 1
        if session.outcome == .completed { vpCompleted += 1 }
    }

    /// A startup-time percentile, or `nil` without start times.
    public func startupPercentile(_ percentile: Double) -> Int64? {
        startup.map { Int64($0.valueAtPercentile(percentile)) }
    }
}
