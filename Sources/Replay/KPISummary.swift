import EventModel
import Histogram

/// The KPIs of `summary.csv`, per time bucket and over everything, built as sessions close.
///
/// A playback belongs to the bucket of its `first_ts`, a value-proposition session to the
/// bucket of its `opened_ts`; buckets start at multiples of their length since the epoch (UTC).
/// Startup-time percentiles come from an HdrHistogram per bucket (two significant digits:
/// a percentile is within 1% of the exact value), which buckets and shards can add up.
public struct KPISummary: Sendable {
    /// The bucket length, in milliseconds.
    public let bucket: Int64
    private var buckets: [Int64: KPIs] = [:]
    private var total = KPIs()
    /// Every playback's first and last record time, for the peak of concurrent playbacks.
    private var playbackSpans: [(first: Int64, last: Int64)] = []

    public init(bucket: Int64) {
        self.bucket = bucket
    }

    /// Counts what a closed session produced.
    public mutating func add(_ report: SessionReport) {
        for playback in report.playbacks {
            let start = bucketStart(playback.firstTimestamp)
            buckets[start, default: KPIs()].add(playback)
            total.add(playback)
            playbackSpans.append((playback.firstTimestamp.milliseconds, playback.lastTimestamp.milliseconds))
        }
        for session in report.vpSessions {
            let start = bucketStart(session.openedTimestamp)
            buckets[start, default: KPIs()].add(session)
            total.add(session)
        }
    }

    /// The rows: one per bucket with anything in it, in time order, then `all`, each with the
    /// peak of concurrent playbacks in it.
    public var rows: [(bucket: Timestamp?, kpis: KPIs, peakConcurrent: Int64)] {
        let starts = buckets.keys.sorted()
        let peaks = peakConcurrency(in: starts)
        return starts.compactMap { start in
            buckets[start].map { (Timestamp(milliseconds: start), $0, peaks.perBucket[start] ?? 0) }
        } + [(nil, total, peaks.overall)]
    }

    /// The most playbacks in progress at one instant, per bucket and overall: a playback is in
    /// progress from its first record to its last, both included (a playback that ends when
    /// another starts overlaps it). Playbacks that started in an earlier bucket count too.
    private func peakConcurrency(in bucketStarts: [Int64]) -> (perBucket: [Int64: Int64], overall: Int64) {
        // Starts before ends at the same time.
        let changes = playbackSpans.flatMap { [($0.first, Int64(1)), ($0.last, Int64(-1))] }
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
    private var startup = Histogram<UInt32>(
        lowestDiscernibleValue: 1, highestTrackableValue: 600_000, numberOfSignificantValueDigits: .two)

    public init() {
        startup.autoResize = true
    }

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
            _ = startup.record(UInt64(max(0, startTime)))
        }
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
        startupCount > 0 ? Int64(startup.valueAtPercentile(percentile)) : nil
    }
}
