import EventModel

/// OpenAVT's metricalc (`OAVTMetricalcCore`): the core playback metrics from accepted events.
///
/// - `Start`: `StartTime` (the `timeSinceMediaRequest`, or else `timeSinceStreamLoad`) and `NumPlays`;
/// - `BufferFinish` inside a playback and outside pauses and seeks: `RebufferTime` and `NumRebuffers`;
/// - `MediaRequest`: `NumRequests`; `StreamLoad`: `NumLoads`; `End`, `Stop`, `Next`: `NumEnds`;
/// - any event with `deltaPlayTime`: `PlayTime`, last.
public final class MetricalcCore: Metricalc {
    /// Creates the metricalc.
    public init() {}

    /// Writes nothing: the metricalc keeps nothing between events.
    public func encodeState(to encoder: any Encoder) throws {}

    /// Reads nothing (``encodeState(to:)``).
    public func decodeState(from decoder: any Decoder) throws {}

    public func metrics(for event: Event, from tracker: TrackerID, in instrument: Instrument) -> [Metric] {
        var metrics: [Metric] = []
        appendMetrics(for: event, from: tracker, in: instrument, to: &metrics)
        return metrics
    }

    /// Appends the metrics of ``metrics(for:from:in:)``, in the instrument's memory for them.
    public func appendMetrics(
        for event: Event, from tracker: TrackerID, in instrument: Instrument, to metrics: inout [Metric]
    ) {
        switch event.action.standard {
        case .start:
            if let elapsed = event.integer(Action.mediaRequest.timeAttribute) {
                metrics.append(.startTime(elapsed))
            } else if let elapsed = event.integer(Action.streamLoad.timeAttribute) {
                metrics.append(.startTime(elapsed))
            }
            metrics.append(.numPlays(1))
        case .bufferFinish:
            if event.flag(.inPlaybackBlock) == true, event.flag(.inPauseBlock) == false,
                event.flag(.inSeekBlock) == false, let elapsed = event.integer(Action.bufferBegin.timeAttribute)
            {
                metrics.append(.rebufferTime(elapsed))
                metrics.append(.numRebuffers(1))
            }
        case .mediaRequest:
            metrics.append(.numRequests(1))
        case .streamLoad:
            metrics.append(.numLoads(1))
        case .end, .stop, .next:
            metrics.append(.numEnds(1))
        default:
            break
        }
        if let delta = event.integer(.deltaPlayTime) {
            metrics.append(.playTime(delta))
        }
    }
}
