import EventModel
import OpenAVT
import Replay
import ReplayTestSupport
import Synchronization
import Testing

/// The engine runs the hub, metricalc and backend that ``InstrumentComponents`` makes, and
/// the reports follow them; everything else is as with the default chain.
struct CustomComponentsTests {
    private let playback = [
        avt(1_000, "MediaRequest"), avt(1_100, "StreamLoad"), avt(1_500, "Start"), avt(3_000, "Ping"),
        avt(5_000, "Ping"), avt(6_000, "End"),
    ]

    @Test func aHubThatRejectsPingsHasThemRejectedWithItsReason() {
        let components = InstrumentComponents(makeHub: { PingRejectingHub(wrapping: HubCoreAds(idGenerator: $0)) })
        let custom = replay(playback, components: components)
        let standard = replay(playback, components: InstrumentComponents())

        let outcomes = custom.avtTrace.map { "\($0.event.action.name):\($0.rejection ?? "ok")" }
        #expect(
            outcomes == [
                "MediaRequest:ok", "StreamLoad:ok", "Start:ok", "Ping:pings are not replayed",
                "Ping:pings are not replayed", "End:ok",
            ])
        // The core hub never saw the pings: the End's deltaPlayTime spans them, and the
        // playback's play time is the same.
        #expect(playTimes(custom) == [.int(4_500)])
        #expect(playTimes(standard) == [.int(1_500), .int(2_000), .int(1_000)])
        #expect(custom.playbacks.map(\.playTime) == [4_500])
        #expect(custom.playbacks == standard.playbacks)
    }

    @Test func aMetricalcsMetricsBecomePointsOfTheirPlayback() {
        let components = InstrumentComponents(
            makeHub: { HubCoreAds(idGenerator: $0) }, makeMetricalc: { EventCountingMetricalc() })
        let custom = replay(playback + [avt(7_000, "Start", tracker: 1)], components: components)
        let standard = replay(playback + [avt(7_000, "Start", tracker: 1)], components: InstrumentComponents())

        let counted = custom.points.filter { $0.metric.name == "Events" }
        #expect(counted.map(\.metric.value) == Array(repeating: .int(1), count: 7))
        #expect(counted.map(\.metric.timestamp.milliseconds) == [1_000, 1_100, 1_500, 3_000, 5_000, 6_000, 7_000])
        #expect(counted.map(\.rowIndex) == [0, 0, 0, 0, 0, 0, 1])
        #expect(counted.last?.tags == [MetricTag("instrument", "i"), MetricTag("tracker", "1")])
        #expect(counted.last?.stringFields == [MetricTag("playback_id", "i:1000:p2")])
        #expect(custom.avtTrace.map { $0.metrics.last?.name } == Array(repeating: "Events", count: 7))
        // The core metrics, the playbacks and the trace's events are as with the default chain.
        #expect(custom.points.filter { $0.metric.name != "Events" } == standard.points)
        #expect(custom.playbacks == standard.playbacks)
        #expect(custom.avtTrace.map(\.event) == standard.avtTrace.map(\.event))
    }

    @Test func everySessionGetsItsOwnBackendThatSeesEveryAcceptedEventAndMetric() {
        let log = SharedLog()
        let components = InstrumentComponents(
            makeHub: { HubCoreAds(idGenerator: $0) }, makeBackend: { LoggingBackend(log: log) })
        let records = playback + [avt(1_200, "MediaRequest", instrument: "j"), avt(1_200, "MediaRequest")]
        let result = replay(records, components: components)

        // Each backend sees its own instrument's events in time order; a life replays its records
        // in bursts: at a record that may end a playback (i's End) and when the input ends (j
        // then, with its last record), so the backends' lines do not interleave.
        let iEvents = result.avtTrace.filter { $0.event[.senderId] == "i-0" && $0.rejection == nil }.flatMap { entry in
            entry.metrics.map { "metric \($0.name)" } + ["event \(entry.event.action.name)"]
        }
        let expected =
            ["ready i"] + iEvents + ["ready j", "metric NumRequests", "event MediaRequest", "end j", "end i"]
        #expect(log.lines.withLock { $0 } == expected)
        #expect(expected.count(where: { $0 == "event MediaRequest" }) == 2)
        #expect(result.avtTrace.count(where: { $0.rejection != nil }) == 1)
    }

    private func replay(_ records: [AVTRecord], components: InstrumentComponents) -> CollectedReplay {
        CollectedReplay(
            lines: records.map(Record.avt),
            options: ReplayOptions(components: components, includeTrace: true, includeRejected: true))
    }

    private func playTimes(_ result: CollectedReplay) -> [Metric.Value] {
        result.points.filter { $0.metric.name == "PlayTime" }.map(\.metric.value)
    }
}

/// Rejects every `Ping`, and passes the other events to the hub it wraps.
private final class PingRejectingHub: Hub {
    private let core: any Hub
    private var rejectedPing = false

    init(wrapping core: any Hub) {
        self.core = core
    }

    var rejectionReason: String? { rejectedPing ? "pings are not replayed" : core.rejectionReason }

    func instrumentReady(_ instrument: Instrument) { core.instrumentReady(instrument) }
    func endOfService() { core.endOfService() }

    func process(_ event: consuming Event, from tracker: TrackerID, in instrument: Instrument) -> Event? {
        rejectedPing = event.action == .ping
        if rejectedPing { return nil }
        return core.process(event, from: tracker, in: instrument)
    }
}

/// ``MetricalcCore``'s metrics, then an `Events` counter for every event.
private final class EventCountingMetricalc: Metricalc {
    private let core = MetricalcCore()

    func metrics(for event: Event, from tracker: TrackerID, in instrument: Instrument) -> [Metric] {
        core.metrics(for: event, from: tracker, in: instrument) + [
            Metric(name: "Events", kind: .counter, value: .int(1))
        ]
    }
}

/// Lines that every session's backend writes into.
private final class SharedLog: Sendable {
    let lines = Mutex<[String]>([])
}

/// Writes what it is told into a shared log.
private final class LoggingBackend: Backend {
    private let log: SharedLog
    private var instrumentID = ""

    init(log: SharedLog) {
        self.log = log
    }

    func instrumentReady(_ instrument: Instrument) {
        instrumentID = instrument.id
        append("ready \(instrumentID)")
    }

    func endOfService() { append("end \(instrumentID)") }
    func send(_ event: Event) { append("event \(event.action.name)") }
    func send(_ metric: Metric) { append("metric \(metric.name)") }

    private func append(_ line: String) {
        log.lines.withLock { $0.append(line) }
    }
}
