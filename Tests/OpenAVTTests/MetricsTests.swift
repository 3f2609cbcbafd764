import EventModel
import OpenAVT
import ReplayTestSupport
import Testing

/// OpenAVT-iOS's `MetricsTests`, ported: each sleep is a gap in time, each `accuracy: 50` an exact value.
struct MetricsTests {
    @Test func metricsOfAPlayback() {
        var harness = InstrumentHarness(hub: HubCore(), withMetricalc: true)
        let backend = harness.backend
        harness.emit(.mediaRequest)
        #expect(backend.popLastMetric() == Metric.numRequests(1).at(harness.now))
        harness.emit(.streamLoad)
        #expect(backend.popLastMetric() == Metric.numLoads(1).at(harness.now))
        harness.emit(.bufferBegin)
        harness.emit(.bufferFinish)
        #expect(backend.popLastMetric() == nil)
        harness.advance(by: 700)
        harness.emit(.start)
        #expect(backend.popLastMetric() == Metric.numPlays(1).at(harness.now))
        #expect(backend.popLastMetric() == Metric.startTime(700).at(harness.now))
        harness.emit(.bufferBegin)
        backend.clearMetrics()
        harness.advance(by: 500)
        harness.emit(.bufferFinish)
        #expect(backend.popLastMetric() == Metric.numRebuffers(1).at(harness.now))
        #expect(backend.popLastMetric() == Metric.rebufferTime(500).at(harness.now))
        harness.advance(by: 800)
        harness.emit(.error)
        #expect(backend.popLastMetric() == Metric.playTime(800).at(harness.now))
        harness.emit(.end)
        #expect(backend.popLastMetric() == Metric.playTime(0).at(harness.now))
        #expect(backend.popLastMetric() == Metric.numEnds(1).at(harness.now))
    }

    /// The instrument writes each event's metrics into the memory of the last ones: an
    /// outcome kept across later events keeps its own metrics.
    @Test func anOutcomeKeptKeepsItsMetricsThroughLaterEvents() {
        var harness = InstrumentHarness(hub: HubCore(), withMetricalc: true)
        guard case .accepted(_, let request) = harness.emit(.mediaRequest) else {
            Issue.record("MediaRequest was not accepted")
            return
        }
        let requestTime = harness.now
        harness.emit(.streamLoad)
        harness.advance(by: 300)
        guard case .accepted(_, let start) = harness.emit(.start) else {
            Issue.record("Start was not accepted")
            return
        }
        #expect(request == [Metric.numRequests(1).at(requestTime)])
        #expect(start == [Metric.startTime(300).at(harness.now), Metric.numPlays(1).at(harness.now)])
        guard case .accepted(_, let ping) = harness.emit(.ping) else {
            Issue.record("Ping was not accepted")
            return
        }
        #expect(ping.allSatisfy { $0.name != Metric.numPlays(1).name })
        #expect(start == [Metric.startTime(300).at(harness.now), Metric.numPlays(1).at(harness.now)])
    }
}

extension Metric {
    /// The metric stamped with a time, as the instrument sends it.
    func at(_ timestamp: Timestamp) -> Metric {
        var metric = self
        metric.timestamp = timestamp
        return metric
    }
}
