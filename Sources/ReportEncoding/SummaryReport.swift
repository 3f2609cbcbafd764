import EventModel
import Replay

/// `summary.csv`: the KPIs per time bucket, then a row `all` (`KPISummary`).
///
/// `bucket` is the bucket's start in RFC 3339 (UTC), followed by a column per `--group-by`
/// key. Means and percentages have two decimals; a value that is undefined (no plays, no
/// watch time, no sessions) is an empty cell. The startup columns are of `startup_ms`. `partial` is `true` for a bucket a later run
/// will write again, whole (`openFrom`), and for an `all` row that has one.
public enum SummaryReport {
    /// The header, in column order.
    public static let columns = [
        "bucket", "views", "plays", "exits_before_start", "start_failures", "startup_ms_mean", "startup_ms_p50",
        "startup_ms_p95", "watch_ms", "rebuffers", "rebuffer_ms", "rebuffer_pct", "rebuffers_per_min",
        "playback_failures", "vp_sessions", "vp_completed", "vp_completion_pct", "startup_ms_p90", "startup_ms_p99",
        "ended_without_errors", "quality_changes", "concurrent_peak", "avg_bitrate_bps", "bitrate_ms", "upscale_ms",
        "downscale_ms", "upscale_pct", "downscale_pct", "initial_errors", "midstream_errors", "initial_error_pct",
        "vp_started", "vp_time_to_start_ms_mean", "buffers", "buffer_ms", "partial", "vsf_pct", "ebvs_pct", "vpf_pct",
        "rebuffers_per_hour", "quality_changes_per_hour",
    ]

    /// The header of a summary split by `groupBy`: `bucket`, a column per key, then the KPIs.
    public static func header(for groupBy: GroupBy) -> [String] {
        groupBy.header(columns)
    }

    /// The whole file.
    public static func encode(_ summary: KPISummary) -> [UInt8] {
        var buffer: [UInt8] = []
        var csv = CSVEncoder()
        csv.appendHeader(header(for: summary.groupBy), into: &buffer)
        for row in summary.rows {
            let kpis = row.kpis
            csv.appendString(row.bucket.map(rfc3339) ?? "all", into: &buffer)
            for value in row.group { csv.appendString(value, into: &buffer) }
            csv.appendInt(kpis.views, into: &buffer)
            csv.appendInt(kpis.plays, into: &buffer)
            csv.appendInt(kpis.exitsBeforeStart, into: &buffer)
            csv.appendInt(kpis.startFailures, into: &buffer)
            csv.appendRatio(kpis.startupSum, over: kpis.startupCount, into: &buffer)
            csv.appendInt(kpis.startupPercentile(50), into: &buffer)
            csv.appendInt(kpis.startupPercentile(95), into: &buffer)
            csv.appendInt(kpis.watchTime, into: &buffer)
            csv.appendInt(kpis.rebuffers, into: &buffer)
            csv.appendInt(kpis.rebufferTime, into: &buffer)
            csv.appendPercentage(kpis.rebufferTime, of: kpis.watchTime, into: &buffer)
            csv.appendRatio(kpis.rebuffers, multiplier: 60_000, over: kpis.watchTime, into: &buffer)
            csv.appendInt(kpis.playbackFailures, into: &buffer)
            csv.appendInt(kpis.vpSessions, into: &buffer)
            csv.appendInt(kpis.vpCompleted, into: &buffer)
            csv.appendPercentage(kpis.vpCompleted, of: kpis.vpSessions, into: &buffer)
            csv.appendInt(kpis.startupPercentile(90), into: &buffer)
            csv.appendInt(kpis.startupPercentile(99), into: &buffer)
            csv.appendInt(kpis.endedWithoutErrors, into: &buffer)
            csv.appendInt(kpis.qualityChanges, into: &buffer)
            csv.appendInt(row.peakConcurrent, into: &buffer)
            csv.appendRatio(numerator: kpis.bitMilliseconds, denominator: Int128(kpis.bitrateTime), into: &buffer)
            csv.appendInt(kpis.bitrateTime, into: &buffer)
            csv.appendInt(kpis.upscaleTime, into: &buffer)
            csv.appendInt(kpis.downscaleTime, into: &buffer)
            csv.appendPercentage(kpis.upscaleTime, of: kpis.bitrateTime, into: &buffer)
            csv.appendPercentage(kpis.downscaleTime, of: kpis.bitrateTime, into: &buffer)
            csv.appendInt(kpis.initialErrors, into: &buffer)
            csv.appendInt(kpis.midstreamErrors, into: &buffer)
            csv.appendPercentage(kpis.initialErrors, of: kpis.initialErrors + kpis.midstreamErrors, into: &buffer)
            csv.appendInt(kpis.vpStarted, into: &buffer)
            csv.appendRatio(kpis.vpTimeToStartSum, over: kpis.vpStarted, into: &buffer)
            csv.appendInt(kpis.buffers, into: &buffer)
            csv.appendInt(kpis.bufferTime, into: &buffer)
            csv.appendString(row.isPartial ? "true" : "false", into: &buffer)
            csv.appendPercentage(kpis.startFailures, of: kpis.views, into: &buffer)
            csv.appendPercentage(kpis.exitsBeforeStart, of: kpis.views, into: &buffer)
            csv.appendPercentage(kpis.playbackFailures, of: kpis.plays, into: &buffer)
            csv.appendRatio(kpis.rebuffers, multiplier: 3_600_000, over: kpis.watchTime, into: &buffer)
            csv.appendRatio(kpis.qualityChanges, multiplier: 3_600_000, over: kpis.watchTime, into: &buffer)
            csv.endRow(into: &buffer)
        }
        return buffer
    }

    /// `2025-11-20T07:00:00Z`.
    package static func rfc3339(_ time: Timestamp) -> String {
        let seconds = time.epochSeconds
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (year, month, day) = CivilDate.date(days: days)
        let secondOfDay = seconds - days * 86_400
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3_600, 2) + ":"
            + pad(secondOfDay % 3_600 / 60, 2) + ":" + pad(secondOfDay % 60, 2) + "Z"
    }
}
