import EventModel
import Foundation
import OpenAVT
import Replay
import Testing

/// The tracker supplies its latest record's attributes, however the records
/// list them: same keys in the same order (the fast path), other orders, fewer or new keys.
struct ReplayTrackerTests {
    private func loaded(_ records: [Attributes]) -> (Instrument, ReplayTracker) {
        let instrument = Instrument(id: "i")
        let tracker = ReplayTracker()
        instrument.addTracker(tracker)
        for attributes in records {
            tracker.load(PackedAttributes(attributes))
        }
        return (instrument, tracker)
    }

    /// Saved for `--state` and restored into a new tracker, it supplies the same attributes,
    /// written the same way every time.
    @Test func itsStateIsTheLatestRecordsAttributes() throws {
        struct Saved: Encodable {
            let tracker: ReplayTracker
            func encode(to encoder: any Encoder) throws { try tracker.encodeState(to: encoder) }
        }
        struct Restored: Decodable {
            let tracker = ReplayTracker()
            init(from decoder: any Decoder) throws { try tracker.decodeState(from: decoder) }
        }
        let (_, tracker) = loaded([["position": 12.5, "title": "A", "isLive": false], ["title": "B", "count": 3]])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let bytes = try encoder.encode(Saved(tracker: tracker))
        #expect(String(decoding: bytes, as: UTF8.self) == #"[["count",{"i":3}],["title",{"s":"B"}]]"#)
        let restored = try JSONDecoder().decode(Restored.self, from: bytes).tracker
        #expect(restored.latest == tracker.latest)
        #expect(try encoder.encode(Saved(tracker: restored)) == bytes)
    }

    @Test func gettersAnswerTheLatestRecordsValuesOnly() {
        let (instrument, tracker) = loaded([
            ["bitrate": 800, "title": "A", "position": 1],
            ["bitrate": 900, "title": "A", "position": 2],
            ["position": 3, "zeta": true],
        ])
        #expect(instrument.callGetter("position", of: 0) == 3)
        #expect(instrument.callGetter("zeta", of: 0) == true)
        #expect(instrument.callGetter("bitrate", of: 0) == nil)
        #expect(instrument.callGetter("title", of: 0) == nil)
        #expect(tracker.latest == ["position": 3, "zeta": true])
    }

    @Test func keysMovingPositionKeepTheirValues() {
        // Packed in key order: "a" comes first in the first record, "b" in the second.
        let (instrument, tracker) = loaded([["a": 1, "c": "x"], ["b": 2, "c": "y"], ["a": 3, "c": "y"]])
        #expect(tracker.latest == ["a": 3, "c": "y"])
        #expect(instrument.callGetter("b", of: 0) == nil)
        #expect(instrument.callGetter("a", of: 0) == 3)
        #expect(instrument.callGetter("c", of: 0) == "y")
    }

    /// `HubCoreAds` puts on an ads tracker's event the `position` of each tracker whose
    /// `isAdsTracker` answers `false`, supplied or by a getter, the highest id winning;
    /// supplied attributes are read again after a getter ran, since it may have loaded a record.
    @Test func theAdsHubReadsTheContentPositionOfEveryContentTracker() {
        let instrument = Instrument(id: "i", hub: HubCoreAds(), backend: SilentBackend())
        let trackers = (0..<4).map { _ in ReplayTracker() }
        for tracker in trackers { instrument.addTracker(tracker) }
        instrument.ready()
        trackers[0].load(PackedAttributes(["isAdsTracker": false, "position": 7]))
        trackers[1].load(PackedAttributes(["isAdsTracker": true, "position": 99]))
        trackers[3].load(PackedAttributes(["isAdsTracker": 0, "position": 98]))
        guard case .accepted(let first, _) = instrument.emit(.mediaRequest, trackerID: 1, at: 1_000) else {
            Issue.record("MediaRequest was not accepted")
            return
        }
        #expect(first[.position] == 7)
        instrument.registerGetter(.isAdsTracker, for: 2) {
            trackers[2].load(PackedAttributes(["position": 42]))
            return false
        }
        guard case .accepted(let second, _) = instrument.emit(.streamLoad, trackerID: 1, at: 2_000) else {
            Issue.record("StreamLoad was not accepted")
            return
        }
        #expect(second[.position] == 42)
    }

    /// A content tracker's own event keeps its own position, with two content trackers too
    /// (OpenAVT puts each content tracker's on it in its dictionary's order, which changes
    /// from launch to launch: OAVTHubCoreAds.swift lines 80-88 at 2628ccd; with one content
    /// tracker it is the tracker's own).
    @Test func aContentTrackersEventKeepsItsOwnPosition() {
        let instrument = Instrument(id: "i", hub: HubCoreAds(), backend: SilentBackend())
        let trackers = (0..<3).map { _ in ReplayTracker() }
        for tracker in trackers { instrument.addTracker(tracker) }
        instrument.ready()
        trackers[0].load(PackedAttributes(["isAdsTracker": false, "position": 2_000]))
        trackers[1].load(PackedAttributes(["isAdsTracker": false, "position": 7_000]))
        trackers[2].load(PackedAttributes(["isAdsTracker": true, "position": 5]))
        var positions: [AttributeValue?] = []
        for (tracker, action) in [(0, Action.mediaRequest), (1, .mediaRequest), (2, .adBreakBegin)] {
            guard case .accepted(let event, _) = instrument.emit(action, trackerID: tracker, at: 1_000) else {
                Issue.record("\(action.name) of tracker \(tracker) was not accepted")
                return
            }
            positions.append(event[.position])
        }
        #expect(positions == [2_000, 7_000, 7_000])
    }

    @Test func everyEmittedEventGetsTheRecordsAttributes() {
        let instrument = Instrument(id: "i", hub: HubCore(), backend: SilentBackend())
        let tracker = ReplayTracker()
        instrument.addTracker(tracker)
        instrument.ready()
        tracker.load(PackedAttributes(["title": "A", "duration": 60]))
        guard case .accepted(let request, _) = instrument.emit(.mediaRequest, trackerID: 0, at: 1_000) else {
            Issue.record("MediaRequest was not accepted")
            return
        }
        #expect(request["title"] == "A")
        #expect(request["duration"] == 60)
        tracker.load(PackedAttributes(["duration": 61]))
        guard case .accepted(let load, _) = instrument.emit(.streamLoad, trackerID: 0, at: 2_000) else {
            Issue.record("StreamLoad was not accepted")
            return
        }
        #expect(load["title"] == nil)
        #expect(load["duration"] == 61)
    }

    /// Loading a record's packed bytes reuses the memory of the last ones, but never under an
    /// event that still holds them.
    @Test func anEventKeepsItsAttributesWhenTheNextRecordIsLoadedAsBytes() {
        let instrument = Instrument(id: "i", hub: HubCore(), backend: SilentBackend())
        let tracker = ReplayTracker()
        instrument.addTracker(tracker)
        instrument.ready()
        let records: [Attributes] = [["title": "A", "duration": 60], ["title": "B", "duration": 61], ["title": "C"]]
        var events: [Event] = []
        for (index, (attributes, action)) in zip(records, [Action.mediaRequest, .streamLoad, .start]).enumerated() {
            PackedAttributes(attributes).withPackedBytes { tracker.load(packedBytes: $0) }
            guard
                case .accepted(let event, _) = instrument.emit(
                    action, trackerID: 0, at: Timestamp(milliseconds: Int64(index)))
            else {
                Issue.record("\(action.name) was not accepted")
                return
            }
            events.append(event)
        }
        #expect(events.map { $0["title"] } == ["A", "B", "C"])
        #expect(events.map { $0["duration"] } == [60, 61, nil])
        #expect(tracker.latest == ["title": "C"])
    }
}
