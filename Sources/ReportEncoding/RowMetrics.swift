import EventModel
import Marconi
import Replay

/// `--metrics playbacks`: one point per row of `playbacks.csv`, `vp_sessions.csv` and
/// `marconi_items.csv`, for a server that keeps a row per playback but not a series per device.
///
/// InfluxDB: measurements `<prefix>_playbacks`, `<prefix>_vp_sessions` and
/// `<prefix>_marconi_items`, tagged only by the `--group-by` values (named as the key, or
/// `group_<key>` for a key that is also a field, such as `title`; an empty value is left out),
/// so the series are as many as the groups. The
/// row's numbers are fields (integers with `i`, an empty cell left out), its ids and texts
/// string fields. A playback's point is at its `first_ts`, a session's at its `opened_ts`, an
/// item's at its `first_ts`, at a nanosecond of that millisecond no other point of the series
/// has (``InfluxPointTimes``, by the row's id).
///
/// Graphite keeps one value per path and second, with no fields to tell rows apart: it gets
/// the aggregates instead (`graphite(_:)`).
package struct RowMetrics {
    package let prefix: String
    package let groupBy: GroupBy
    private let tagKeys: [String]
    private var encoder = InfluxLineEncoder()
    private var times = InfluxPointTimes()

    package init(prefix: String, groupBy: GroupBy) {
        self.prefix = prefix
        self.groupBy = groupBy
        tagKeys = groupBy.keys.map { GroupBy.columnName($0, reserved: Self.fieldNames) }
    }

    /// Appends the InfluxDB points of a closed session's rows.
    package mutating func appendInflux(_ report: SessionReport, into buffer: inout [UInt8]) {
        for playback in report.playbacks {
            let group = groupBy.values(of: playback)
            append(
                "playbacks", group: group, id: playback.playbackID, at: playback.firstTimestamp,
                fields: Self.fields(of: playback), into: &buffer)
        }
        for session in report.vpSessions {
            let group = groupBy.values(of: session)
            append(
                "vp_sessions", group: group, id: session.sessionID, at: session.openedTimestamp,
                fields: Self.fields(of: session), into: &buffer)
        }
        for item in report.marconiItems {
            let group = groupBy.values(of: item)
            append(
                "marconi_items", group: group, id: item.player + ":" + String(item.firstTimestamp.milliseconds),
                at: item.firstTimestamp, fields: Self.fields(of: item), into: &buffer)
        }
    }

    private mutating func append(
        _ kind: String, group: [String], id: String, at time: Timestamp, fields: [(String, InfluxFieldValue)],
        into buffer: inout [UInt8]
    ) {
        guard MetricTimeRange.influx.contains(time) else { return }
        let tags = zip(tagKeys, group).filter { !$0.1.isEmpty }.map { ($0.0, $0.1) }
        guard let series = encoder.series(measurement: prefix.isEmpty ? kind : prefix + "_" + kind, tags: tags)
        else { return }
        let nanoseconds = times.claim(series: series, source: id, millisecond: time.milliseconds, index: 0)
        encoder.appendPoint(series: series, fields: fields, timestamp: nanoseconds, into: &buffer)
    }

    /// Every field name of the three measurements: a `--group-by` tag of one of them is renamed.
    private static let fieldNames: [String] = [
        "instrument", "playback_id", "tracker", "last_ts", "stream_id", "title", "source", "startup_ms",
        "start_time_ms", "play_time_ms", "pause_time_ms", "seek_time_ms", "buffer_time_ms", "rebuffers",
        "rebuffer_time_ms", "errors", "ads", "quality_changes", "started", "exit_before_start", "start_failure",
        "timed_out", "end_action", "app", "name", "session_id", "outcome", "time_to_start_ms", "active_ms",
        "paused_ms", "pauses", "prohibited_changes", "duration_ms", "player", "artist", "station", "kind",
        "buffering_ms", "playing_ms", "track_changes", "max_progress_s", "avg_bitrate_bps", "initial_bitrate_bps",
        "bitrate_time_ms", "upscale_time_ms", "downscale_time_ms", "initial_errors", "midstream_errors", "end_ts",
        "end_trigger", "restored_from",
    ]

    private static func fields(of row: PlaybackSummary) -> [(String, InfluxFieldValue)] {
        var fields: [(String, InfluxFieldValue)] = [
            ("instrument", .string(row.instrument)), ("playback_id", .string(row.playbackID)),
            ("tracker", .int(Int64(row.tracker))), ("last_ts", .int(row.lastTimestamp.milliseconds)),
        ]
        for (name, text) in [("stream_id", row.streamID), ("title", row.title), ("source", row.source)] {
            if let text { fields.append((name, .string(text))) }
        }
        for (name, number) in [("startup_ms", row.startup), ("start_time_ms", row.startTime)] {
            if let number { fields.append((name, .int(number))) }
        }
        fields += [
            ("play_time_ms", .int(row.playTime)), ("pause_time_ms", .int(row.pauseTime)),
            ("seek_time_ms", .int(row.seekTime)), ("buffer_time_ms", .int(row.bufferTime)),
            ("rebuffers", .int(row.rebuffers)), ("rebuffer_time_ms", .int(row.rebufferTime)),
            ("errors", .int(row.errors)), ("ads", .int(row.ads)), ("quality_changes", .int(row.qualityChanges)),
            ("started", .bool(row.didStart)), ("exit_before_start", .bool(row.isExitBeforeStart)),
            ("start_failure", .bool(row.isStartFailure)), ("timed_out", .bool(row.timedOut)),
        ]
        if let endAction = row.endAction { fields.append(("end_action", .string(endAction))) }
        if row.bitrateTime > 0 {
            let average = Double(row.bitMilliseconds) / Double(row.bitrateTime)
            fields.append(("avg_bitrate_bps", .double(average)))
        }
        if let initialBitrate = row.initialBitrate { fields.append(("initial_bitrate_bps", .int(initialBitrate))) }
        fields += [
            ("bitrate_time_ms", .int(row.bitrateTime)), ("upscale_time_ms", .int(row.upscaleTime)),
            ("downscale_time_ms", .int(row.downscaleTime)), ("initial_errors", .int(row.initialErrors)),
            ("midstream_errors", .int(row.midstreamErrors)),
        ]
        return fields
    }

    private static func fields(of row: VPSessionSummary) -> [(String, InfluxFieldValue)] {
        var fields: [(String, InfluxFieldValue)] = [
            ("app", .string(row.app)), ("name", .string(row.name)), ("session_id", .string(row.sessionID)),
            ("outcome", .string(row.outcome.rawValue)),
        ]
        if let timeToStart = row.timeToStart { fields.append(("time_to_start_ms", .int(timeToStart))) }
        fields += [
            ("active_ms", .int(row.activeTime)), ("paused_ms", .int(row.pausedTime)), ("pauses", .int(row.pauses)),
            ("prohibited_changes", .int(row.prohibitedChanges)), ("duration_ms", .int(row.duration)),
            ("timed_out", .bool(row.timedOut)),
        ]
        if let end = row.endTimestamp { fields.append(("end_ts", .int(end.milliseconds))) }
        if let trigger = row.endTrigger { fields.append(("end_trigger", .string(trigger))) }
        if let restored = row.restoredFrom { fields.append(("restored_from", .string(restored))) }
        return fields
    }

    private static func fields(of row: MarconiItemSummary) -> [(String, InfluxFieldValue)] {
        var fields: [(String, InfluxFieldValue)] = [("player", .string(row.player))]
        for (name, text) in [
            ("title", row.title), ("artist", row.artist), ("station", row.station), ("kind", row.kind),
        ] {
            if let text { fields.append((name, .string(text))) }
        }
        fields += [
            ("last_ts", .int(row.lastTimestamp.milliseconds)), ("buffering_ms", .int(row.bufferingTime)),
            ("playing_ms", .int(row.playingTime)), ("track_changes", .int(row.trackChanges)),
            ("errors", .int(row.errors)),
        ]
        if let maxProgress = row.maxProgress { fields.append(("max_progress_s", .double(maxProgress))) }
        return fields
    }
}
