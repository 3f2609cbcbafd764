import EventModel

/// The KPIs of `summary.csv`, per time bucket and over everything, built as lives end.
///
/// A playback belongs to the bucket of its `first_ts`, a value-proposition session to the
/// bucket of its `opened_ts`; buckets start at multiples of their length since the epoch (UTC).
/// With `--group-by` (``GroupBy``), each bucket has a row per group of dimension values, and
/// each group an `all` row; memory grows with the (bucket, group) pairs that have a row, not
/// with the playbacks. Startup-time percentiles come from an HdrHistogram per row (two
/// significant digits: a percentile is within 1% of the exact value), which buckets and
/// shards can add up.
///
/// Summaries merge exactly (``merge(_:)``): the summary of several shards' sessions merged is
/// the summary of all of them, row for row; ``state`` is what a shard keeps for that.
public struct KPISummary: Sendable {
    /// The bucket length, in milliseconds.
    public let bucket: Int64
    /// The dimensions rows are split by.
    public let groupBy: GroupBy
    private var buckets: [BucketKey: KPIs] = [:]
    /// The dimension values of each group, by group index, and the index of each.
    private var groups: [[String]] = []
    /// The dimension values of each group with a row, in the order the groups came.
    package var groupValues: [[String]] { groups }
    private var groupIndex: [[String]: Int] = [:]
    /// The `all` row of each group, by group index.
    private var totals: [KPIs] = []
    /// Every playback's first and last record time, by group index, for the peak of concurrent
    /// playbacks (none without ``keepsPlaybackSpans``).
    private var playbackSpans: [[(first: Int64, last: Int64)]] = []
    /// Whether the spans of `concurrent_peak` are kept: 16 bytes a playback, which a summary
    /// whose peaks are never shown (the page's breakdowns) does without.
    public let keepsPlaybackSpans: Bool
    /// Where the buckets still open begin: a bucket that ends after this time may still get
    /// rows (a run that leaves lives open for the next one); `nil` when every bucket is whole.
    package var openFrom: Timestamp?

    /// One bucket of one group.
    private struct BucketKey: Hashable {
        var start: Int64
        var group: Int
    }

    /// A summary with buckets of `bucket` milliseconds, split by `groupBy`; without
    /// `keepsPlaybackSpans`, its rows' `peakConcurrent` is 0.
    public init(bucket: Int64, groupBy: GroupBy = .none, keepsPlaybackSpans: Bool = true) {
        self.bucket = bucket
        self.groupBy = groupBy
        self.keepsPlaybackSpans = keepsPlaybackSpans
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
            if keepsPlaybackSpans {
                playbackSpans[group].append((playback.firstTimestamp.milliseconds, playback.lastTimestamp.milliseconds))
            }
        }
        for session in report.vpSessions {
            let group = group(of: groupBy.values(of: session))
            buckets[BucketKey(start: bucketStart(session.openedTimestamp), group: group), default: KPIs()]
                .add(session)
            totals[group].add(session)
        }
    }

    /// Adds another summary's rows, spans and sketches: the summary of both summaries'
    /// sessions. Both must have the same ``bucket`` and ``groupBy``.
    public mutating func merge(_ other: KPISummary) {
        var groupOfOther: [Int] = []
        for (index, values) in other.groups.enumerated() {
            let group = group(of: values)
            groupOfOther.append(group)
            totals[group].merge(other.totals[index])
            if keepsPlaybackSpans { playbackSpans[group].append(contentsOf: other.playbackSpans[index]) }
        }
        for (key, kpis) in other.buckets {
            buckets[BucketKey(start: key.start, group: groupOfOther[key.group]), default: KPIs()].merge(kpis)
        }
    }

    /// What ``merge(_:)`` needs of a summary, in a canonical order: each group's values, its
    /// `all` KPIs, its playbacks' spans (first and last time, pair by pair, in the order they
    /// were added) and its buckets, groups by values (byte-wise) and buckets by start.
    public struct State: Codable, Sendable {
        public var bucket: Int64
        public var groupBy: [String]
        public var groups: [Group]

        /// One group of dimension values.
        public struct Group: Codable, Sendable {
            public var values: [String]
            public var all: KPIs
            public var playbackSpans: [Int64]
            public var buckets: [Bucket]
        }

        /// One bucket of a group.
        public struct Bucket: Codable, Sendable {
            public var start: Int64
            public var kpis: KPIs
        }

        /// Field by field, the magnitudes of the counts and sums of every group's buckets added
        /// up (what bounds any sum of them, and, added up over
        /// several summaries with ``KPIs/addMagnitudes(checking:)``, any sum of theirs); throws, naming the group and the field, when
        /// they pass 2⁶⁰.
        package func magnitudes() throws(StateError) -> KPIs {
            var total = KPIs()
            for (index, group) in groups.enumerated() {
                for bucket in group.buckets {
                    do {
                        try total.addMagnitudes(checking: bucket.kpis)
                    } catch {
                        throw StateError("groups[\(index)].buckets.\(error.description) (all groups' buckets together)")
                    }
                }
            }
            return total
        }
    }

    /// The summary's state, from which ``init(state:)`` rebuilds it.
    public var state: State {
        var bucketsByGroup = [[State.Bucket]](repeating: [], count: groups.count)
        for (key, kpis) in buckets.sorted(by: { $0.key.start < $1.key.start }) {
            bucketsByGroup[key.group].append(State.Bucket(start: key.start, kpis: kpis))
        }
        let order = groups.indices.sorted { GroupBy.precedes(groups[$0], groups[$1]) }
        return State(
            bucket: bucket, groupBy: groupBy.keys,
            groups: order.map { group in
                State.Group(
                    values: groups[group], all: totals[group],
                    playbackSpans: playbackSpans[group].flatMap { [$0.first, $0.last] }, buckets: bucketsByGroup[group])
            })
    }

    /// Rebuilds a summary from its ``state``.
    /// - Throws: ``StateError`` when the state is not one a summary could have: a bucket length
    ///   from 1m to 1d, each group once with a value per key, bucket starts that are starts of
    ///   buckets in `StoredRange/times`, each once, spans in pairs of times (first, then last),
    ///   and each group's `all` KPIs the sum of its buckets', with the magnitudes of all the
    ///   buckets' counts and sums, field by field, adding up to at most 2⁶⁰ (`State.magnitudes()`):
    ///   then no sum the run goes on with, of any of its buckets, overflows.
    public init(state: State) throws(StateError) {
        guard (60_000...86_400_000).contains(state.bucket) else {
            throw StateError("bucket: \(state.bucket) ms is not a bucket length from 1m to 1d")
        }
        _ = try state.magnitudes()
        self.init(bucket: state.bucket, groupBy: GroupBy(state.groupBy))
        var seen: Set<[String]> = []
        for (index, stored) in state.groups.enumerated() {
            let name = "groups[\(index)]"
            guard stored.values.count == state.groupBy.count else {
                throw StateError("\(name).values: \(stored.values.count) values for \(state.groupBy.count) keys")
            }
            guard stored.playbackSpans.count.isMultiple(of: 2) else {
                throw StateError("\(name).playbackSpans: not pairs")
            }
            guard seen.insert(stored.values).inserted else {
                throw StateError("\(name).values: the group \(stored.values) is there twice")
            }
            for pair in stride(from: 0, to: stored.playbackSpans.count, by: 2) {
                let (first, last) = (stored.playbackSpans[pair], stored.playbackSpans[pair + 1])
                guard StoredRange.times.contains(first), StoredRange.times.contains(last), first <= last else {
                    throw StateError(
                        "\(name).playbackSpans[\(pair)]: \(first) to \(last) is not a span of times of years 0 to 9999")
                }
            }
            var sum = KPIs()
            var starts: Set<Int64> = []
            for (number, entry) in stored.buckets.enumerated() {
                guard StoredRange.times.contains(entry.start),
                    Timestamp(milliseconds: entry.start).bucketStart(length: state.bucket).milliseconds == entry.start
                else {
                    throw StateError(
                        "\(name).buckets[\(number)].start: \(entry.start) is not the start of a bucket of "
                            + "\(state.bucket) ms of years 0 to 9999")
                }
                guard starts.insert(entry.start).inserted else {
                    throw StateError("\(name).buckets[\(number)].start: the bucket \(entry.start) is there twice")
                }
                try sum.addCounts(checking: entry.kpis)
            }
            if let field = stored.all.firstCountDiffering(from: sum) {
                throw StateError("\(name).all.\(field): not the sum of its buckets'")
            }
            let group = group(of: stored.values)
            totals[group] = stored.all
            playbackSpans[group] = stride(from: 0, to: stored.playbackSpans.count, by: 2).map {
                (stored.playbackSpans[$0], stored.playbackSpans[$0 + 1])
            }
            for entry in stored.buckets {
                buckets[BucketKey(start: entry.start, group: group), default: KPIs()].merge(entry.kpis)
            }
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
        /// Whether the bucket is still open (`openFrom`); for an `all` row, whether any of
        /// the group's buckets is.
        public var isPartial = false
    }

    /// The rows: one per bucket and group with anything in it, by bucket start and then group
    /// values (byte-wise), then the `all` row of each group with a bucket row, by group values.
    public var rows: [Row] {
        let order = groups.indices.sorted { GroupBy.precedes(groups[$0], groups[$1]) }
        var rank = [Int](repeating: 0, count: groups.count)
        for (position, group) in order.enumerated() { rank[group] = position }
        let keys = buckets.keys.sorted { ($0.start, rank[$0.group]) < ($1.start, rank[$1.group]) }
        var startsByGroup = [[Int64]](repeating: [], count: groups.count)
        for key in keys { startsByGroup[key.group].append(key.start) }
        let peaks = groups.indices.map { peakConcurrency(of: playbackSpans[$0], in: startsByGroup[$0]) }
        var groupIsPartial = [Bool](repeating: false, count: groups.count)
        let bucketRows = keys.compactMap { key in
            buckets[key].map {
                let isPartial = isOpen(bucketStart: key.start)
                if isPartial { groupIsPartial[key.group] = true }
                return Row(
                    bucket: Timestamp(milliseconds: key.start), group: groups[key.group], kpis: $0,
                    peakConcurrent: peaks[key.group].perBucket[key.start] ?? 0, isPartial: isPartial)
            }
        }
        // A group carried for its playbacks' spans alone has no row (a summary without
        // dimensions always has its `all` row).
        return bucketRows
            + order.filter { !startsByGroup[$0].isEmpty || groupBy.keys.isEmpty }.map {
                Row(
                    bucket: nil, group: groups[$0], kpis: totals[$0], peakConcurrent: peaks[$0].overall,
                    isPartial: groupIsPartial[$0])
            }
    }

    /// Whether the bucket that starts at `start` is still open (``openFrom``).
    private func isOpen(bucketStart start: Int64) -> Bool {
        openFrom.map { start &+ bucket > $0.milliseconds } ?? false
    }

    /// The buckets still open (``openFrom``), as a summary of their own whose `all` rows are
    /// theirs: what a run that leaves lives open carries to the next run, which merges it
    /// (``merge(_:)``) and writes those buckets whole (``carried(from:)``).
    package var carried: KPISummary? {
        openFrom.flatMap { carried(from: $0) }
    }

    /// The buckets from the one that holds `time` on, as a summary of their own whose `all`
    /// rows are theirs, with the spans of every playback in progress in them (``carried``);
    /// `nil` when there are neither.
    package func carried(from time: Timestamp) -> KPISummary? {
        let firstOpen = time.bucketStart(length: bucket).milliseconds
        var carried = KPISummary(bucket: bucket, groupBy: groupBy, keepsPlaybackSpans: keepsPlaybackSpans)
        for (key, kpis) in buckets where key.start >= firstOpen {
            let group = carried.group(of: groups[key.group])
            carried.buckets[BucketKey(start: key.start, group: group), default: KPIs()].merge(kpis)
            carried.totals[group].merge(kpis)
        }
        // A playback in progress in an open bucket counts in its peak, whichever bucket its
        // row is in, and whether or not its group has a row there yet.
        for (index, values) in groups.enumerated() {
            let spans = playbackSpans[index].filter { $0.last >= firstOpen }
            if !spans.isEmpty { carried.playbackSpans[carried.group(of: values)] = spans }
        }
        guard !carried.buckets.isEmpty || carried.playbackSpans.contains(where: { !$0.isEmpty }) else { return nil }
        return carried
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

extension KPISummary.State {
    private enum CodingKeys: String, CodingKey {
        case bucket, groupBy, groups
    }

    /// Decodes what the synthesized `encode(to:)` writes, its integers as 64-bit integers
    /// (one that is not is refused at its key); ``KPISummary/init(state:)`` checks the rest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            bucket: try container.decodeStored(.bucket, in: StoredRange.sums),
            groupBy: try container.decode([String].self, forKey: .groupBy),
            groups: try container.decode([Group].self, forKey: .groups))
    }
}

extension KPISummary.State.Group {
    private enum CodingKeys: String, CodingKey {
        case values, all, playbackSpans, buckets
    }

    /// Decodes what the synthesized `encode(to:)` writes, the spans' times as 64-bit integers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            values: try container.decode([String].self, forKey: .values),
            all: try container.decode(KPIs.self, forKey: .all),
            playbackSpans: try container.decodeStoredArray(.playbackSpans, in: StoredRange.sums),
            buckets: try container.decode([KPISummary.State.Bucket].self, forKey: .buckets))
    }
}

extension KPISummary.State.Bucket {
    private enum CodingKeys: String, CodingKey {
        case start, kpis
    }

    /// Decodes what the synthesized `encode(to:)` writes, the start as a 64-bit integer.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            start: try container.decodeStored(.start, in: StoredRange.sums),
            kpis: try container.decode(KPIs.self, forKey: .kpis))
    }
}
