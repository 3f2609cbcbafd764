import EventModel
import Replay

/// `playbacks.csv`: one row per OpenAVT playback, in the order given (sessions as they close).
public enum PlaybacksReport: CSVReport {
    /// The header, in column order.
    public static let columns = [
        "instrument", "tracker", "playback_id", "stream_id", "first_ts", "last_ts", "title", "source",
        "start_time_ms", "play_time_ms", "pause_time_ms", "seek_time_ms", "buffer_time_ms", "rebuffers",
        "rebuffer_time_ms", "errors", "ads", "quality_changes", "end_action", "exit_before_start", "started",
        "start_failure", "timed_out", "avg_bitrate_bps", "initial_bitrate_bps", "bitrate_time_ms", "upscale_time_ms",
        "downscale_time_ms", "initial_errors", "midstream_errors", "startup_ms",
    ]

    public static func appendCells(of row: PlaybackSummary, to csv: inout CSVEncoder, into buffer: inout [UInt8]) {
        csv.appendString(row.instrument, into: &buffer)
        csv.appendInt(Int64(row.tracker), into: &buffer)
        csv.appendString(row.playbackID, into: &buffer)
        csv.appendString(row.streamID, into: &buffer)
        csv.appendInt(row.firstTimestamp.milliseconds, into: &buffer)
        csv.appendInt(row.lastTimestamp.milliseconds, into: &buffer)
        csv.appendString(row.title, into: &buffer)
        csv.appendString(row.source, into: &buffer)
        csv.appendInt(row.startTime, into: &buffer)
        csv.appendInt(row.playTime, into: &buffer)
        csv.appendInt(row.pauseTime, into: &buffer)
        csv.appendInt(row.seekTime, into: &buffer)
        csv.appendInt(row.bufferTime, into: &buffer)
        csv.appendInt(row.rebuffers, into: &buffer)
        csv.appendInt(row.rebufferTime, into: &buffer)
        csv.appendInt(row.errors, into: &buffer)
        csv.appendInt(row.ads, into: &buffer)
        csv.appendInt(row.qualityChanges, into: &buffer)
        csv.appendString(row.endAction, into: &buffer)
        csv.appendBool(row.isExitBeforeStart, into: &buffer)
        csv.appendBool(row.didStart, into: &buffer)
        csv.appendBool(row.isStartFailure, into: &buffer)
        csv.appendBool(row.timedOut, into: &buffer)
        csv.appendRatio(numerator: row.bitMilliseconds, denominator: Int128(row.bitrateTime), into: &buffer)
        csv.appendInt(row.initialBitrate, into: &buffer)
        csv.appendInt(row.bitrateTime, into: &buffer)
        csv.appendInt(row.upscaleTime, into: &buffer)
        csv.appendInt(row.downscaleTime, into: &buffer)
        csv.appendInt(row.initialErrors, into: &buffer)
        csv.appendInt(row.midstreamErrors, into: &buffer)
        csv.appendInt(row.startup, into: &buffer)
    }
}
