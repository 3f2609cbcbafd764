import EventModel
import OpenAVT

/// Builds the ``PlaybackSummary`` rows of one instrument from its accepted events, in replay order.
struct PlaybackRecorder {
    private let instrument: String
    private var rows: [PlaybackSummary] = []
    private var rowIndex: [String: Int] = [:]
    private var previous = HubCounters()

    init(instrument: String) {
        self.instrument = instrument
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
                pause: event[.accumPauseTime]?.int ?? pause,
                seek: event[.accumSeekTime]?.int ?? seek,
                buffer: event[.accumBufferTime]?.int ?? buffer,
                errors: event[.countErrors]?.int ?? errors,
                ads: event[.countAds]?.int ?? ads
            )
        }
    }

    mutating func record(_ event: Event, from tracker: TrackerID, metrics: [Metric]) {
        let counters = previous.updated(by: event)
        defer { previous = counters }
        guard let playbackID = event[.playbackId]?.string else { return }
        let index: Int
        if let known = rowIndex[playbackID] {
            index = known
        } else {
            index = rows.count
            rowIndex[playbackID] = index
            rows.append(
                PlaybackSummary(
                    instrument: instrument, tracker: tracker, playbackID: playbackID,
                    firstTimestamp: event.timestamp))
        }
        rows[index].add(event, metrics: metrics, counterIncrease: counters.minus(previous))
    }

    /// The rows, in the order their playbacks began.
    var summaries: [PlaybackSummary] { rows }
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
        if streamID == nil { streamID = event[.streamId]?.string }
        if !event.action.isAdAction {
            hasContentEvents = true
            if title == nil { title = event[.title]?.string }
            if source == nil { source = event[.source]?.string }
        }
        switch event.action {
        case .start: didStart = true
        case .qualityChangeUp, .qualityChangeDown: qualityChanges += 1
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
