import EventModel
import OpenAVT
import ValueProposition

/// Replays the records of one app session, in order, through a ``SessionManager``.
///
/// Every output goes to the session rows; events then pass through the middlewares for
/// all outputs and, separately, those of the trace and of the metrics. The metrics of a
/// value-proposition event are a counter named after the status it reached (`Opened`,
/// `Started`, `Paused`, `Completed`, `Canceled`), `SessionDuration` (milliseconds since the
/// session opened) when it ends, and a gauge for every duration a `duration` middleware added
/// (``Middleware/isDurationKey(_:)``).
struct AppReplay {
    private var manager: SessionManager
    private var sessions = VPSessionRecorder()
    /// The metric origin of each session, by its row's number in `sessions`, with the app and
    /// name it was made for (a middleware may rename an event); by id for an id no row has (one
    /// a middleware made up).
    private var origins: [Int: (app: String, name: String, origin: MetricOrigin)] = [:]
    private var originsOfOtherIDs: [String: (app: String, name: String, origin: MetricOrigin)] = [:]
    private let sharedOptions: SharedReplayOptions
    private var options: ReplayOptions { sharedOptions.options }
    private(set) var lastRecord: Timestamp?

    init(app: String, scope: String, options: SharedReplayOptions) {
        manager = SessionManager(app: app, scope: scope, version: options.options.tentaclesVersion)
        sharedOptions = options
    }

    /// Replays a record of the app session: a value-proposition action or a lifecycle event
    /// (any other kind is ignored).
    ///
    /// The record is read where it lies: taking its action out of it, as a value of its own,
    /// copied it (a retain of each of its strings and packed attributes, which by the time a
    /// session is replayed are out of the cache: 1% of a run's samples).
    mutating func replay(_ record: borrowing Record, into outputs: inout LifeOutputs) {
        switch record {
        case .vp(let action):
            lastRecord = action.timestamp
            handle(manager.output(of: action), into: &outputs)
        case .app(let lifecycle):
            lastRecord = lifecycle.timestamp
            var produced = manager.process(lifecycle.event, at: lifecycle.timestamp)
            // Taken out of the array, first to last, rather than copied out of it.
            produced.reverse()
            while let output = produced.popLast() { handle(output, into: &outputs) }
        case .avt, .marconi:
            return
        }
    }

    /// Records one output of the session manager, and its metrics and trace line.
    private mutating func handle(_ output: consuming SessionOutput, into outputs: inout LifeOutputs) {
        sessions.record(output)
        if options.middlewares.isEmpty {
            // The usual run: each chain's `apply` gave the event back as a copy (a retain
            // and a release of every reference it holds).
            if options.includeTrace { outputs.trace.append(.vp(output)) }
            if case .event(let event) = consume output { addMetrics(for: event, original: event, into: &outputs) }
            return
        }
        switch output {
        case .error, .dropped:
            if options.includeTrace { outputs.trace.append(.vp(output)) }
        case .event(let event):
            guard let shared = options.middlewares.all.apply(to: event) else { return }
            if options.includeTrace, let traced = options.middlewares.trace.apply(to: shared) {
                outputs.trace.append(.vp(.event(traced)))
            }
            if let measured = options.middlewares.metrics.apply(to: shared) {
                addMetrics(for: measured, original: event, into: &outputs)
            }
        }
    }

    private mutating func addMetrics(
        for event: ValuePropositionEvent, original: ValuePropositionEvent, into outputs: inout LifeOutputs
    ) {
        let row = sessions.row(of: event.sessionID)
        let origin = origin(of: event, row: row)
        var point = MetricPoint(
            Metric(name: Self.counterName(original.status), kind: .counter, value: .int(1), timestamp: event.timestamp),
            from: origin, rowIndex: row)
        outputs.points.append(point)
        // A session's first event opens its row (see `VPSessionRecorder`).
        if original.status.isFinal, let openedRow = sessions.row(of: original.sessionID),
            let opened = sessions.openedTimestamp(ofRow: openedRow)
        {
            point.metric = Metric(
                name: "SessionDuration", kind: .gauge, value: .int(original.timestamp.milliseconds(since: opened)),
                timestamp: event.timestamp)
            outputs.points.append(point)
        }
        // Most events have no duration: a scan, without the attributes' dictionary.
        var durations: [(key: AttributeKey, value: Metric.Value)] = []
        event.forEachAttribute(where: Middleware.isDurationKey) { key, value in
            switch value {
            case .int(let number): durations.append((key, .int(number)))
            case .double(let number): durations.append((key, .double(number)))
            default: break
            }
        }
        durations.sort { $0.key < $1.key }
        for (key, value) in durations {
            point.metric = Metric(name: key.rawValue, kind: .gauge, value: value, timestamp: event.timestamp)
            outputs.points.append(point)
        }
    }

    /// Forgets what is kept only to be reused (the sessions' origins): an idle app session
    /// costs its session manager and rows alone.
    mutating func dropReusables() {
        origins = [:]
        originsOfOtherIDs = [:]
    }

    /// One origin for all of a session's points, made with its first: the encoders escape it
    /// once, and know it again by identity.
    private mutating func origin(of event: ValuePropositionEvent, row: Int?) -> MetricOrigin {
        let known = row.flatMap { origins[$0] } ?? originsOfOtherIDs[event.sessionID]
        if let known, known.app == event.app, known.name == event.name {
            return known.origin
        }
        let origin = MetricOrigin(
            system: .vp, source: event.app, tags: [MetricTag("app", event.app), MetricTag("name", event.name)],
            path: [event.app, event.name], stringFields: [MetricTag("session_id", event.sessionID)])
        if let row {
            origins[row] = (event.app, event.name, origin)
        } else {
            originsOfOtherIDs[event.sessionID] = (event.app, event.name, origin)
        }
        return origin
    }

    /// `Opened`, `Started`, ...: the counter of a status, its name with a capital.
    private static func counterName(_ status: SessionStatus) -> String {
        switch status {
        case .opened: "Opened"
        case .started: "Started"
        case .paused: "Paused"
        case .canceled: "Canceled"
        case .completed: "Completed"
        }
    }

    /// Takes the rows made final since the last call, with their numbers; their origins go.
    mutating func takeFinalRows() -> [(row: Int, summary: VPSessionSummary)] {
        let rows = sessions.takeFinalRows()
        for (row, _) in rows { origins[row] = nil }
        return rows
    }

    /// The rows still open, counted up to the app's last record, with their numbers.
    func openRows() -> [(row: Int, summary: VPSessionSummary)] {
        guard let lastRecord else { return [] }
        return sessions.openRows(lastRecord: lastRecord)
    }

    /// The time of the earliest open row's first event.
    var earliestOpenRow: Timestamp? { sessions.earliestOpenRow }
}

extension AppReplay {
    /// Keys of the replay's state: Tentacles' session manager (`m`), the rows being built
    /// (`r`) and the time of the app's last record (`l`). The middlewares are the options'.
    private enum CodingKeys: String, CodingKey {
        case manager = "m", sessions = "r", lastRecord = "l"
    }

    func encodeState(to encoder: any Encoder) throws {
        var state = encoder.container(keyedBy: CodingKeys.self)
        try state.encode(manager, forKey: .manager)
        try sessions.encodeState(to: state.superEncoder(forKey: .sessions))
        try state.encodeIfPresent(lastRecord, forKey: .lastRecord)
    }

    /// A replay as a state file kept it.
    init(restoring decoder: any Decoder, options: SharedReplayOptions) throws {
        let state = try decoder.container(keyedBy: CodingKeys.self)
        manager = try state.decode(SessionManager.self, forKey: .manager)
        sessions = try VPSessionRecorder(fromState: state.superDecoder(forKey: .sessions))
        lastRecord = try state.decodeIfPresent(Timestamp.self, forKey: .lastRecord)
        sharedOptions = options
    }
}
