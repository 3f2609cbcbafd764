import EventModel
import OpenAVT

/// Replays the records of one instrument, in order, through a real ``Instrument``.
struct InstrumentReplay {
    let instrument: Instrument
    /// The instrument's trackers, which it keeps: read without a retain and a release each
    /// (measured: 1.6 of a record's 50 atomic reference-count operations).
    private var trackers: [Unmanaged<ReplayTracker>] = []
    private var playbacks: PlaybackRecorder
    private(set) var trace: [TraceLine] = []
    private(set) var points: [MetricPoint] = []
    /// The actions met so far, at the index their names have in the session's
    /// ``AVTRecordLog``; an instrument uses a dozen or so.
    private var actions: [Action?] = []
    /// The origin of the last points, and their tracker and playback: made again when either
    /// changes. Apart, not a tuple, so that checking them copies nothing.
    private var lastOrigin: MetricOrigin?
    private var lastOriginTracker: TrackerID = 0
    private var lastOriginPlaybackID: String?
    /// The InfluxDB tags of each tracker's metrics, and the Graphite path of the instrument's.
    private let trackerTags: [[MetricTag]]
    private let path: [String]
    private let options: ReplayOptions

    /// Sets up the instrument with trackers `0...maxTracker`, as the app did before recording,
    /// and components made by `options.components`; its ids are scoped with `scope`.
    init(id: String, scope: String, maxTracker: TrackerID, options: ReplayOptions) {
        self.options = options
        let components = options.components
        instrument = Instrument(
            id: id, hub: components.makeHub(SequentialIDGenerator(scope: scope)),
            metricalc: components.makeMetricalc(), backend: components.makeBackend())
        instrument.keepsRejectedEvents = options.includeTrace && options.includeRejected
        playbacks = PlaybackRecorder(instrument: id, groupAttributes: options.groupBy.playbackAttributes)
        trackerTags = (0...max(0, maxTracker)).map { [MetricTag("instrument", id), MetricTag("tracker", String($0))] }
        path = [id]
        for _ in 0...max(0, maxTracker) {
            let tracker = ReplayTracker()
            instrument.addTracker(tracker)
            trackers.append(.passUnretained(tracker))
        }
        instrument.ready()
    }

    mutating func replay(_ record: AVTRecordLog.Entry) {
        trackers[record.tracker]._withUnsafeGuaranteedRef { $0.load(packedBytes: record.attributes) }
        // Found before the call: found in its arguments, a mutating look-up made the compiler
        // retain the instrument for the call (measured: 1.6 atomic operations a record).
        let action = action(of: record)
        let outcome = instrument.emit(action, trackerID: record.tracker, at: record.timestamp)
        // Consumed, so that the event is moved out of the outcome rather than copied.
        switch consume outcome {
        case .accepted(let event, let metrics):
            let row = playbacks.record(event, from: record.tracker, metrics: metrics)
            if !metrics.isEmpty {
                updateOrigin(tracker: record.tracker, of: event)
                // Each point takes its reference to the origin straight from `lastOrigin`, which
                // `updateOrigin` has just set: a local copy was a retain and a release more.
                for metric in metrics {
                    points.append(MetricPoint(metric, from: lastOrigin.unsafelyUnwrapped, rowIndex: row))
                }
            }
            if options.includeTrace {
                trace.append(
                    .avt(
                        TraceEntry(
                            instrument: instrument.id, tracker: record.tracker, event: event, metrics: metrics,
                            rejection: nil)))
            }
        case .rejected(let event?, let reason):
            if options.includeTrace && options.includeRejected {
                trace.append(
                    .avt(
                        TraceEntry(
                            instrument: instrument.id, tracker: record.tracker, event: event, metrics: [],
                            rejection: reason ?? "rejected by the hub")))
            }
        case .rejected(nil, _), .droppedByTracker, .notProcessed:
            break
        }
    }

    var summaries: [PlaybackSummary] { playbacks.summaries }

    /// Sets `lastOrigin` to the origin of a tracker's points during a playback (its
    /// `playback_id` string field), shared by the points in a row of the same tracker and
    /// playback. The event's playback id is compared where the event keeps it, and copied only
    /// for a new origin.
    private mutating func updateOrigin(tracker: TrackerID, of event: Event) {
        if lastOrigin != nil, lastOriginTracker == tracker, event.string(.playbackId, equals: lastOriginPlaybackID) {
            return
        }
        let playbackID = event.string(.playbackId)
        let origin = MetricOrigin(
            system: .openavt, source: instrument.id, tags: trackerTags[tracker], path: path,
            stringFields: playbackID.map { [MetricTag("playback_id", $0)] } ?? [])
        lastOrigin = origin
        lastOriginTracker = tracker
        lastOriginPlaybackID = playbackID
    }

    /// The action of a record, made once per name and instrument: the session's log numbers
    /// its action names, and the number finds the action (measured: comparing the name with
    /// the names met before cost 380 instructions a record, 1.3% of a replay's).
    private mutating func action(of record: AVTRecordLog.Entry) -> Action {
        let index = record.actionIndex
        if index < actions.count, let action = actions[index] { return action }
        while actions.count <= index { actions.append(nil) }
        let action = Action.named(record.action)
        actions[index] = action
        return action
    }
}
