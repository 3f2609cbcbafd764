import EventModel
import OpenAVT

/// Replays the records of one instrument, as they come, through a real ``Instrument``.
///
/// A tracker is added when a record of it first comes (with every lower id not added yet),
/// as if the app had added it before ``Instrument/ready()``: it gets the flags the hub keeps
/// alike on every tracker (the ad break and ad flags, `TrackerState.instrumentWideFlags`)
/// from the trackers already there, and the instrument is then made ready again.
struct InstrumentReplay {
    let instrument: Instrument
    /// The instrument's trackers, by id.
    private var trackers: [ReplayTracker] = []
    private var playbacks: PlaybackRecorder
    /// The origin of the last points, and their tracker and playback: made again when either
    /// changes.
    private var lastOrigin: MetricOrigin?
    private var lastOriginTracker: TrackerID = 0
    private var lastOriginPlaybackID: String?
    /// Whether the trace lists the events the hub accepted, and those it rejected.
    private let tracesAccepted: Bool
    private let tracesRejected: Bool

    /// Sets up the instrument with components made by `options.components`; its ids are
    /// scoped with `scope`.
    init(id: String, scope: String, options: ReplayOptions) {
        tracesAccepted = options.includeTrace
        tracesRejected = options.includeTrace && options.includeRejected
        let components = options.components
        instrument = Instrument(
            id: id, hub: components.makeHub(SequentialIDGenerator(scope: scope)),
            metricalc: components.makeMetricalc(), backend: components.makeBackend())
        instrument.keepsRejectedEvents = options.includeTrace && options.includeRejected
        playbacks = PlaybackRecorder(instrument: id, groupAttributes: options.groupBy.playbackAttributes)
    }

    /// Adds trackers up to `tracker`, each with the instrument-wide flags of the first
    /// tracker already there: the hub set them on every tracker, so on one added before
    /// `ready()` too. Trackers added with the instrument's first record start fresh, as do
    /// those added to restore a state (which then gives every tracker its saved flags).
    private mutating func addTrackers(upTo tracker: TrackerID) {
        let shared = instrument.trackerIDs.first.map { instrument.state(of: $0).instrumentWideFlags }
        while trackers.count <= tracker {
            let replayTracker = ReplayTracker()
            let trackerID = instrument.addTracker(replayTracker)
            if let shared { instrument.setState(shared, of: trackerID) }
            trackers.append(replayTracker)
        }
        instrument.ready()
    }

    /// Replays a record, adding the trace lines and points it gives to `outputs`.
    mutating func replay(_ record: WaitingAVTRecords.Entry, into outputs: inout LifeOutputs) {
        if record.tracker >= trackers.count { addTrackers(upTo: record.tracker) }
        trackers[record.tracker].load(packedBytes: record.attributes)
        let outcome = instrument.emit(record.action, trackerID: record.tracker, at: record.timestamp)
        let isRequest = record.action.standard == .mediaRequest
        switch consume outcome {
        case .accepted(let event, let metrics):
            if isRequest { playbacks.noteRequest(from: record.tracker, at: record.timestamp) }
            let row = playbacks.record(event, from: record.tracker, metrics: metrics)
            if !metrics.isEmpty {
                let origin = origin(tracker: record.tracker, of: event)
                for metric in metrics {
                    outputs.points.append(MetricPoint(metric, from: origin, rowIndex: row))
                }
            }
            if tracesAccepted {
                outputs.trace.append(
                    .avt(
                        TraceEntry(
                            instrument: instrument.id, tracker: record.tracker, event: event, metrics: metrics,
                            rejection: nil)))
            }
        case .rejected(let event?, let reason):
            if isRequest { playbacks.noteRequest(from: record.tracker, at: record.timestamp) }
            if tracesRejected {
                outputs.trace.append(
                    .avt(
                        TraceEntry(
                            instrument: instrument.id, tracker: record.tracker, event: event, metrics: [],
                            rejection: reason ?? "rejected by the hub")))
            }
        case .rejected(nil, _):
            if isRequest { playbacks.noteRequest(from: record.tracker, at: record.timestamp) }
        case .droppedByTracker, .notProcessed:
            break
        }
    }

    /// Takes the rows made final since the last call, with their numbers.
    mutating func takeFinalRows() -> [(row: Int, summary: PlaybackSummary)] { playbacks.takeFinalRows() }

    /// The rows still open, in the order they began, with their numbers.
    var openRows: [(row: Int, summary: PlaybackSummary)] { playbacks.openRows }

    /// The time of the earliest open row's first event.
    var earliestOpenRow: Timestamp? { playbacks.earliestOpenRow }

    /// Forgets what is kept only to be reused (the last points' origin, the memory of the
    /// instrument's metrics): an idle instrument costs its state machines and rows alone.
    mutating func dropReusables() {
        lastOrigin = nil
        lastOriginPlaybackID = nil
        instrument.dropReusableMemory()
    }

    /// The origin of a tracker's points during a playback (the InfluxDB tags `instrument` and
    /// `tracker`, the instrument's Graphite path, its `playback_id` string field), kept in
    /// `lastOrigin` and shared by the points in a row of the same tracker and playback.
    private mutating func origin(tracker: TrackerID, of event: Event) -> MetricOrigin {
        if let lastOrigin, lastOriginTracker == tracker, event.string(.playbackId, equals: lastOriginPlaybackID) {
            return lastOrigin
        }
        let playbackID = event.string(.playbackId)
        let origin = MetricOrigin(
            system: .openavt, source: instrument.id,
            tags: [MetricTag("instrument", instrument.id), MetricTag("tracker", String(tracker))],
            path: [instrument.id],
            stringFields: playbackID.map { [MetricTag("playback_id", $0)] } ?? [])
        lastOrigin = origin
        lastOriginTracker = tracker
        lastOriginPlaybackID = playbackID
        return origin
    }
}

extension InstrumentReplay {
    /// Keys of the replay's state: how many trackers it added (`t`), the instrument with its
    /// components (`i`, ``Instrument/encodeState(to:)``), and the rows being built (`p`).
    private enum CodingKeys: String, CodingKey {
        case trackers = "t", instrument = "i", playbacks = "p"
    }

    func encodeState(to encoder: any Encoder) throws {
        var state = encoder.container(keyedBy: CodingKeys.self)
        try state.encode(trackers.count, forKey: .trackers)
        try instrument.encodeState(to: state.superEncoder(forKey: .instrument))
        try playbacks.encodeState(to: state.superEncoder(forKey: .playbacks))
    }

    /// A replay as a state file kept it: an instrument made with the components of `options`,
    /// given the same trackers, made ready, then given its state (every tracker's flags
    /// included, so a tracker added later takes the same flags as in one run).
    init(restoring decoder: any Decoder, id: String, scope: String, options: ReplayOptions) throws {
        self.init(id: id, scope: scope, options: options)
        let state = try decoder.container(keyedBy: CodingKeys.self)
        let trackerCount = try state.decode(Int.self, forKey: .trackers)
        if trackerCount > 0 { addTrackers(upTo: trackerCount - 1) }
        try instrument.decodeState(from: state.superDecoder(forKey: .instrument))
        try playbacks.decodeState(from: state.superDecoder(forKey: .playbacks))
    }
}
