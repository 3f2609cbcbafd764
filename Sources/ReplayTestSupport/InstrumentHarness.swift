import EventModel
import OpenAVT

/// An instrument with a recording backend and a clock the test moves, for hub and metricalc tests.
///
/// Each sleep in OpenAVT's own tests becomes ``advance(by:)``: time is data here.
public struct InstrumentHarness {
    public let instrument: Instrument
    public let backend: RecordingBackend
    /// The time the next emit happens at.
    public private(set) var now: Timestamp

    /// Creates an instrument with `hub`, optionally a `MetricalcCore`, a content tracker (id 0)
    /// and, with `withAdsTracker`, an ads tracker (id 1), then calls `ready()`.
    public init(
        hub: any Hub, withMetricalc: Bool = false, withAdsTracker: Bool = false, startingAt start: Timestamp = 1_000_000
    ) {
        backend = RecordingBackend()
        instrument = Instrument(
            id: "test", hub: hub, metricalc: withMetricalc ? MetricalcCore() : nil, backend: backend)
        instrument.addTracker(StubTracker())
        if withAdsTracker {
            instrument.addTracker(StubTracker(isAdsTracker: true))
        }
        instrument.ready()
        now = start
    }

    /// The content tracker's id.
    public let content: TrackerID = 0
    /// The ads tracker's id (when there is one).
    public let ads: TrackerID = 1

    /// Emits an action now, from the content tracker unless another is given.
    @discardableResult
    public func emit(_ action: Action, from tracker: TrackerID = 0) -> EmitOutcome {
        instrument.emit(action, trackerID: tracker, at: now)
    }

    /// Moves the clock forward.
    public mutating func advance(by milliseconds: Int64) {
        now = Timestamp(milliseconds: now.milliseconds + milliseconds)
    }

    /// The state of a tracker.
    public func state(of tracker: TrackerID = 0) -> TrackerState {
        instrument.state(of: tracker)
    }
}
