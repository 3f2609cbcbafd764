import EventModel
import OpenAVT
import ValueProposition

/// A record of an app session: a value-proposition action or a lifecycle event.
enum AppInput {
    case vp(VPRecord)
    case lifecycle(AppRecord)

    var timestamp: Timestamp {
        switch self {
        case .vp(let record): return record.timestamp
        case .lifecycle(let record): return record.timestamp
        }
    }
}

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
    private var openedAt: [String: Timestamp] = [:]
    private let options: ReplayOptions
    private(set) var trace: [TraceLine] = []
    private(set) var points: [MetricPoint] = []
    private(set) var lastRecord: Timestamp?

    init(app: String, scope: String, options: ReplayOptions) {
        manager = SessionManager(app: app, scope: scope)
        self.options = options
    }

    mutating func replay(_ input: AppInput) {
        lastRecord = input.timestamp
        let outputs: [SessionOutput]
        switch input {
        case .vp(let record): outputs = manager.process(record)
        case .lifecycle(let record): outputs = manager.process(record.event, at: record.timestamp)
        }
        for output in outputs {
            sessions.record(output)
            switch output {
            case .error:
                if options.includeTrace { trace.append(.vp(output)) }
            case .event(let event):
                if event.status == .opened && openedAt[event.sessionID] == nil {
                    openedAt[event.sessionID] = event.timestamp
                }
                guard let shared = options.middlewares.all.apply(to: event) else { continue }
                if options.includeTrace, let traced = options.middlewares.trace.apply(to: shared) {
                    trace.append(.vp(.event(traced)))
                }
                if let measured = options.middlewares.metrics.apply(to: shared) {
                    addMetrics(for: measured, original: event)
                }
            }
        }
    }

    private mutating func addMetrics(for event: ValuePropositionEvent, original: ValuePropositionEvent) {
        var metrics = [Metric(name: Self.counterName(original.status), kind: .counter, value: .int(1))]
        if original.status.isFinal, let opened = openedAt[original.sessionID] {
            metrics.append(
                Metric(
                    name: "SessionDuration", kind: .gauge, value: .int(original.timestamp.milliseconds(since: opened))))
        }
        let durations = event.attributes.filter { Middleware.isDurationKey($0.key) }
        for (key, value) in durations.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .int(let number): metrics.append(Metric(name: key.rawValue, kind: .gauge, value: .int(number)))
            case .double(let number): metrics.append(Metric(name: key.rawValue, kind: .gauge, value: .double(number)))
            default: break
            }
        }
        // One origin for all of the event's points: the encoders escape it once.
        let origin = MetricOrigin(
            system: .vp, source: event.app, tags: [MetricTag("app", event.app), MetricTag("name", event.name)],
            path: [event.app, event.name], stringFields: [MetricTag("session_id", event.sessionID)])
        let row = sessions.row(of: event.sessionID)
        for var metric in metrics {
            metric.timestamp = event.timestamp
            points.append(MetricPoint(metric, from: origin, rowIndex: row))
        }
    }

    /// `Opened`, `Started`, ...: the status with a capital, made once per status.
    private static let counterNames = Dictionary(
        uniqueKeysWithValues: SessionStatus.allCases.map {
            ($0, $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst())
        })

    private static func counterName(_ status: SessionStatus) -> String {
        counterNames[status] ?? status.rawValue
    }

    /// The session rows, with open sessions counted up to the app's last record.
    func summaries() -> [VPSessionSummary] {
        guard let lastRecord else { return [] }
        return sessions.finish(lastRecord: lastRecord)
    }
}
