import EventModel
import OpenAVT

/// Builds the ``PlaybackSummary`` rows of one instrument from its accepted events, in replay order.
///
/// A row is *final* when the hub accepts an `End`, `Stop` or `Next` carrying its `playbackId`:
/// OpenAVT's hubs renew the id right then, so no later event carries it. The recorder keeps
/// only the rows still open; final rows wait in ``takeFinalRows()`` until the replay hands
/// them over. Rows are numbered per instrument life, from 0 in the order they began: points
/// name their row by that number (``MetricPoint/rowIndex``).
struct PlaybackRecorder {
    private let instrument: String
    /// The attributes whose first value each row keeps (`--group-by`).
    private let groupAttributes: [AttributeKey]
    /// The open rows, in the order they began (an instrument has one or two at a time).
    private var open: [OpenRow] = []
    /// The rows made final and not taken yet, with their numbers.
    private var final: [(row: Int, summary: PlaybackSummary)] = []
    /// The number the next row gets.
    private var nextRow = 0
    /// The position in `open` of the latest event's row.
    private var lastPosition: Int?
    /// The playback id of `lastPosition`, kept here: read from the row, it was copied for each
    /// comparison (a retain and a release).
    private var lastPlaybackID: String?
    private var previous = HubCounters()
    /// Each tracker's latest `MediaRequest` since its last `Start` or end, by tracker id: the
    /// request a playback's ``PlaybackSummary/startup`` counts from.
    private var pendingRequests: [Timestamp?] = []

    init(instrument: String, groupAttributes: [AttributeKey] = []) {
        self.instrument = instrument
        self.groupAttributes = groupAttributes
    }

    /// An open row: its number, the row, and its current bitrate and start.
    fileprivate struct OpenRow {
        var row: Int
        var summary: PlaybackSummary
        var progress = Progress()

        mutating func addQuality(of event: Event, metrics: [Metric]) {
            summary.addQuality(of: event, metrics: metrics, progress: &progress)
        }
    }

    /// Where a playback stands: its current bitrate and when it started.
    fileprivate struct Progress {
        /// The latest `bitrate` of its non-ad events, `nil` while unknown (none yet, or not positive).
        var bitrate: Int64?
        /// The time of its accepted `Start`.
        var started: Timestamp?
    }

    /// The hub's running counters as an event carries them; a missing one keeps its last value.
    fileprivate struct HubCounters {
        var pause: Int64 = 0
        var seek: Int64 = 0
        var buffer: Int64 = 0
        var errors: Int64 = 0
        var ads: Int64 = 0

        func updated(by event: Event) -> HubCounters {
            HubCounters(
                pause: event.integer(.accumPauseTime) ?? pause,
                seek: event.integer(.accumSeekTime) ?? seek,
                buffer: event.integer(.accumBufferTime) ?? buffer,
                errors: event.integer(.countErrors) ?? errors,
                ads: event.integer(.countAds) ?? ads
            )
        }
    }

    /// Notes a `MediaRequest` record of `tracker`, accepted or rejected by the hub: the request
    /// the tracker's next `Start` counts from.
    mutating func noteRequest(from tracker: TrackerID, at timestamp: Timestamp) {
        while pendingRequests.count <= tracker { pendingRequests.append(nil) }
        pendingRequests[tracker] = timestamp
    }

    /// Adds an accepted event and its metrics to the row of its `playbackId`, and returns that
    /// row's number; `nil` for an event without a `playbackId`. An accepted `End`, `Stop` or
    /// `Next` makes the row final.
    mutating func record(_ event: Event, from tracker: TrackerID, metrics: [Metric]) -> Int? {
        let counters = previous.updated(by: event)
        defer { previous = counters }
        let position: Int
        if let last = lastPosition, event.string(.playbackId, equals: lastPlaybackID) {
            // Events of one playback come together: no look-up, and no copy of the id.
            position = last
        } else {
            guard let playbackID = event.string(.playbackId) else { return nil }
            position = openPosition(of: playbackID, from: tracker, startingAt: event.timestamp)
        }
        open[position].summary.add(event, metrics: metrics, counterIncrease: counters.minus(previous))
        measureStartup(of: event, from: tracker, at: position)
        open[position].addQuality(of: event, metrics: metrics)
        if !event.action.isAdAction {
            for key in groupAttributes where open[position].summary.groupAttributes[key] == nil {
                open[position].summary.groupAttributes[key] = event[key]
            }
        }
        let row = open[position].row
        switch event.action.standard {
        case .end, .stop, .next:
            final.append((row, open.remove(at: position).summary))
            lastPosition = nil
            lastPlaybackID = nil
        default:
            if lastPosition != position {
                lastPosition = position
                lastPlaybackID = open[position].summary.playbackID
            }
        }
        return row
    }

    /// Sets the row's startup at its first `Start`, and forgets the tracker's request at a
    /// `Start` and at the end of a playback.
    private mutating func measureStartup(of event: Event, from tracker: TrackerID, at position: Int) {
        switch event.action.standard {
        case .start, .end, .stop, .next: break
        default: return
        }
        let request = pendingRequests.indices.contains(tracker) ? pendingRequests[tracker] : nil
        if event.action.standard == .start, open[position].summary.startup == nil {
            let from = request ?? open[position].summary.firstTimestamp
            open[position].summary.startup = max(0, event.timestamp.milliseconds(since: from))
        }
        if request != nil { pendingRequests[tracker] = nil }
    }

    /// The position in `open` of a playback's row, made for its first event.
    private mutating func openPosition(
        of playbackID: String, from tracker: TrackerID, startingAt timestamp: Timestamp
    ) -> Int {
        if let known = open.lastIndex(where: { $0.summary.playbackID == playbackID }) { return known }
        open.append(
            OpenRow(
                row: nextRow,
                summary: PlaybackSummary(
                    instrument: instrument, tracker: tracker, playbackID: playbackID, firstTimestamp: timestamp)))
        nextRow += 1
        return open.count - 1
    }

    /// Takes the rows made final since the last call, in the order they ended, with their numbers.
    mutating func takeFinalRows() -> [(row: Int, summary: PlaybackSummary)] {
        defer { final = [] }
        return final
    }

    /// The rows still open, in the order they began, with their numbers.
    var openRows: [(row: Int, summary: PlaybackSummary)] { open.map { ($0.row, $0.summary) } }

    /// The time of the earliest open row's first event, if a row is open.
    var earliestOpenRow: Timestamp? { open.map(\.summary.firstTimestamp).min() }
}

extension PlaybackRecorder.HubCounters {
    fileprivate func minus(_ other: Self) -> Self {
        Self(
            pause: pause - other.pause, seek: seek - other.seek, buffer: buffer - other.buffer,
            errors: errors - other.errors, ads: ads - other.ads)
    }
}

extension PlaybackSummary {
    fileprivate mutating func add(
        _ event: Event, metrics: [Metric], counterIncrease: PlaybackRecorder.HubCounters
    ) {
        lastTimestamp = max(lastTimestamp, event.timestamp)
        if streamID == nil { streamID = event.string(.streamId) }
        if !event.action.isAdAction {
            hasContentEvents = true
            if title == nil { title = event.string(.title) }
            if source == nil { source = event.string(.source) }
        }
        switch event.action.standard {
        case .start: didStart = true
        case .qualityChangeUp, .qualityChangeDown: qualityChanges += 1
        case .bufferFinish: buffers += 1
        case .end, .stop, .next: endAction = event.action.name
        default: break
        }
        pauseTime += counterIncrease.pause
        seekTime += counterIncrease.seek
        bufferTime += counterIncrease.buffer
        errors += counterIncrease.errors
        ads += counterIncrease.ads
        for metric in metrics {
            guard case .int(let value) = metric.value else { continue }
            switch metric.name {
            case "StartTime": if startTime == nil { startTime = value }
            case "PlayTime": playTime += value
            case "NumRebuffers": rebuffers += value
            case "RebufferTime": rebufferTime += value
            default: break
            }
        }
    }
}

extension PlaybackSummary {
    /// Weighs the event's play time with the bitrate that was current before it, then takes the
    /// event's own bitrate; counts an `Error` as initial or mid-stream.
    fileprivate mutating func addQuality(
        of event: Event, metrics: [Metric], progress: inout PlaybackRecorder.Progress
    ) {
        if let bitrate = progress.bitrate, let initialBitrate {
            for metric in metrics where metric.name == "PlayTime" {
                guard case .int(let playTime) = metric.value, playTime > 0 else { continue }
                bitrateTime &+= playTime
                bitMilliseconds &+= Int128(bitrate) &* Int128(playTime)
                if bitrate > initialBitrate { upscaleTime &+= playTime }
                if bitrate < initialBitrate { downscaleTime &+= playTime }
            }
        }
        if !event.action.isAdAction, let value = event[.bitrate] {
            progress.bitrate = Self.knownBitrate(value)
            if initialBitrate == nil { initialBitrate = progress.bitrate }
        }
        switch event.action.standard {
        case .start:
            if progress.started == nil { progress.started = event.timestamp }
        case .error:
            if let started = progress.started,
                event.timestamp.milliseconds(since: started) > Self.initialErrorWindow
            {
                midstreamErrors += 1
            } else {
                initialErrors += 1
            }
        default:
            break
        }
    }

    /// A `bitrate` value in whole bits per second; `nil` (unknown) unless it is a positive number.
    private static func knownBitrate(_ value: AttributeValue) -> Int64? {
        guard let number = value.double, number.isFinite, number >= 0.5,
            let bitrate = Int64(exactly: number.rounded())
        else { return nil }
        return bitrate
    }
}

extension PlaybackRecorder {
    /// Keys of the recorder's state: the open rows (`o`: `[row, summary, bitrate, started]`
    /// each), the next row's number (`n`), the hub's counters as last seen (`c`: pause, seek,
    /// buffer, errors, ads) and each tracker's pending request (`r`, by tracker id). The rows
    /// made final were handed over before a state is saved; the instrument and the `--group-by`
    /// attributes are the replay's options.
    private enum CodingKeys: String, CodingKey {
        case open = "o", nextRow = "n", counters = "c", requests = "r"
    }

    private struct SavedRow: Codable {
        var row: Int
        var summary: PlaybackSummary
        var bitrate: Int64?
        var started: Timestamp?

        init(_ open: OpenRow) {
            (row, summary, bitrate, started) = (open.row, open.summary, open.progress.bitrate, open.progress.started)
        }

        init(from decoder: any Decoder) throws {
            var fields = try decoder.unkeyedContainer()
            row = try fields.decode(Int.self)
            summary = try fields.decode(PlaybackSummary.self)
            bitrate = try fields.decode(Int64?.self)
            started = try fields.decode(Timestamp?.self)
        }

        func encode(to encoder: any Encoder) throws {
            var fields = encoder.unkeyedContainer()
            try fields.encode(row)
            try fields.encode(summary)
            try fields.encode(bitrate)
            try fields.encode(started)
        }
    }

    func encodeState(to encoder: any Encoder) throws {
        var state = encoder.container(keyedBy: CodingKeys.self)
        if !open.isEmpty { try state.encode(open.map(SavedRow.init), forKey: .open) }
        try state.encode(nextRow, forKey: .nextRow)
        let counters = [previous.pause, previous.seek, previous.buffer, previous.errors, previous.ads]
        if counters.contains(where: { $0 != 0 }) { try state.encode(counters, forKey: .counters) }
        if pendingRequests.contains(where: { $0 != nil }) { try state.encode(pendingRequests, forKey: .requests) }
    }

    /// Restores the state ``encodeState(to:)`` wrote into a recorder just made.
    mutating func decodeState(from decoder: any Decoder) throws {
        let state = try decoder.container(keyedBy: CodingKeys.self)
        open = (try state.decodeIfPresent([SavedRow].self, forKey: .open) ?? []).map {
            OpenRow(row: $0.row, summary: $0.summary, progress: Progress(bitrate: $0.bitrate, started: $0.started))
        }
        nextRow = try state.decode(Int.self, forKey: .nextRow)
        if let counters = try state.decodeIfPresent([Int64].self, forKey: .counters) {
            guard counters.count == 5 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .counters, in: state, debugDescription: "five counters expected")
            }
            previous = HubCounters(
                pause: counters[0], seek: counters[1], buffer: counters[2], errors: counters[3], ads: counters[4])
        }
        pendingRequests = try state.decodeIfPresent([Timestamp?].self, forKey: .requests) ?? []
        lastPosition = nil
        lastPlaybackID = nil
    }
}
