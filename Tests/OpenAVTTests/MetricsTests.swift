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
}

extension Metric {
    /// The metric stamped with a time, as the instrument sends it.
    func at(_ timestamp: Timestamp) -> Metric {
        var metric = self
        metric.timestamp = timestamp
        return metric
    }
}
