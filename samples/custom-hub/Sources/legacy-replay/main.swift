import EventModel
import OpenAVT
import Replay
import ReplayCLI

/// A metricalc written before nightly runs: it counts each instrument's events, and does not
/// implement `encodeState(to:)` and `decodeState(from:)`. A run without `--state` uses it as
/// any other; a run with `--state` stops with exit status 4, naming it, and leaves the
/// previous reports and state as they were (docs/library.md, "Nightly runs").
final class EventCountingMetricalc: Metricalc {
    private let core = MetricalcCore()
    private var events: Int64 = 0

    func metrics(for event: Event, from tracker: TrackerID, in instrument: Instrument) -> [Metric] {
        events += 1
        return core.metrics(for: event, from: tracker, in: instrument)
            + [Metric(name: "EventsSoFar", kind: .counter, value: .int(events))]
    }
}

ReplayTool(name: "legacy-replay") { hub in
    InstrumentComponents(makeHub: { hub.makeHub(idGenerator: $0) }, makeMetricalc: { EventCountingMetricalc() })
}.main()
