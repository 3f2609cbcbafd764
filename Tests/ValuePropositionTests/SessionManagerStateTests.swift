import EventModel
import Foundation
import Testing
import ValueProposition

/// A session manager kept in a `--state` file: fed some records, encoded, decoded and fed the
/// rest, it gives what one manager fed them all gives.
struct SessionManagerStateTests {
    /// One input of a manager: a value-proposition record or an app lifecycle event.
    enum Input: Sendable {
        case record(VPRecord)
        case lifecycle(AppLifecycleEvent, Timestamp)
    }

    static let video: Attributes = [
        "videoName": "Learning Swift", "language": "English", "duration": 3569.0,
        "player": .json(#"{"name":"avplayer","caps":{"hdr":true,"codecs":["hevc","h264"]}}"#),
    ]
    /// The same value proposition as ``video`` as JSON values, its duration an integer.
    static let videoWholeDuration: Attributes = [
        "videoName": "Learning Swift", "language": "English", "duration": 3569,
        "player": .json(#"{"name":"avplayer","caps":{"hdr":true,"codecs":["hevc","h264"]}}"#),
    ]
    static let browse: Attributes = ["section": "home", "filters": .json(#"[{"genre":"jazz"},{"year":1959}]"#)]

    static func record(
        _ ms: Int64, _ name: String, _ attributes: Attributes, _ action: VPAction, trigger: String = "clicked",
        actionAttributes: Attributes = [:]
    ) -> Input {
        .record(
            VPRecord(
                timestamp: Timestamp(milliseconds: ms), app: "a1", name: name, attributes: attributes, action: action,
                trigger: trigger, actionAttributes: actionAttributes))
    }

    /// An app session's day: two sessions open, one started and paused; the app goes to the
    /// background and back (a session opened meanwhile is dropped, the others restored under
    /// new ids); a prohibited change, an action with no session, a session found by its key
    /// (an integer duration where it was opened with a double), and a second background and
    /// foreground, then a foreground return that restores nothing.
    static let inputs: [Input] = [
        record(1_000, "watchVideo", video, .open),
        record(1_100, "browse", browse, .open, trigger: "automatically"),
        record(1_200, "watchVideo", video, .start, actionAttributes: ["position": 0]),
        record(1_300, "watchVideo", video, .pause, actionAttributes: ["position": 95.5]),
        record(1_400, "watchVideo", video, .start),
        record(1_450, "watchVideo", video, .pause),
        .lifecycle(.willResignActive, 2_000),
        record(2_500, "download", ["file": "swift.mp4"], .open),
        .lifecycle(.didBecomeActive, 3_000),
        record(3_100, "watchVideo", video, .complete),  // prohibited: paused
        record(3_200, "download", ["file": "swift.mp4"], .start),  // dropped: no session
        record(3_300, "watchVideo", video, .start),
        record(3_400, "watchVideo", video, .complete, actionAttributes: ["rating": .json(#"{"stars":5}"#)]),
        record(3_500, "browse", browse, .start),
        record(3_600, "browse", browse, .pause),
        record(3_700, "watchVideo", videoWholeDuration, .open),
        record(3_800, "watchVideo", video, .start),  // found by its key: the bytes differ
        .lifecycle(.willResignActive, 4_000),
        .lifecycle(.didBecomeActive, 5_000),
        record(5_100, "watchVideo", video, .pause),
        record(5_200, "browse", browse, .cancel),
        record(5_300, "browse", browse, .start),  // no session any more
        .lifecycle(.didBecomeActive, 6_000),  // nothing remembered: drops watchVideo
        record(6_100, "watchVideo", video, .start),
        record(6_200, "settings", [:], .open),
    ]

    static func feed(_ inputs: some Sequence<Input>, to manager: inout SessionManager) -> [SessionOutput] {
        inputs.flatMap { input in
            switch input {
            case .record(let record): return manager.process(record)
            case .lifecycle(let event, let timestamp): return manager.process(event, at: timestamp)
            }
        }
    }

    static func encode(_ manager: SessionManager) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(manager)
    }

    static let managers: [SessionManager] = [
        SessionManager(app: "a1"),
        SessionManager(app: "a1", scope: "77", version: .domainActivity),
    ]

    @Test(arguments: managers)
    func aManagerSavedAfterAnyRecordGoesOnAsIfItHadNotStopped(new: SessionManager) throws {
        var whole = new
        let expected = Self.feed(Self.inputs, to: &whole)
        // The day makes events, errors and drops.
        #expect(expected.contains { if case .dropped = $0 { true } else { false } })
        #expect(expected.contains { if case .error = $0 { true } else { false } })
        #expect(expected.count { if case .event = $0 { true } else { false } } > 20)
        for split in 0...Self.inputs.count {
            var first = new
            var outputs = Self.feed(Self.inputs[..<split], to: &first)
            var restored = try JSONDecoder().decode(SessionManager.self, from: Self.encode(first))
            #expect(restored.appSessionID == first.appSessionID)
            #expect(restored.openSessions == first.openSessions)
            outputs += Self.feed(Self.inputs[split...], to: &restored)
            #expect(outputs.count == expected.count, "split at \(split)")
            // The first output that differs, rather than both lists whole.
            if let index = outputs.indices.first(where: { $0 < expected.count && outputs[$0] != expected[$0] }) {
                Issue.record("split at \(split): output \(index) is \(outputs[index]), not \(expected[index])")
            }
            #expect(restored.openSessions == whole.openSessions, "split at \(split)")
            #expect(try Self.encode(restored) == Self.encode(whole), "split at \(split)")
        }
    }

    /// The manager at every point of the day encodes to the same bytes twice, and decoded,
    /// to the same bytes again.
    @Test(arguments: managers)
    func theEncodingIsTheSameBytesEveryTime(new: SessionManager) throws {
        for split in 0...Self.inputs.count {
            var manager = new
            _ = Self.feed(Self.inputs[..<split], to: &manager)
            let data = try Self.encode(manager)
            #expect(try Self.encode(manager) == data)
            let decoded = try JSONDecoder().decode(SessionManager.self, from: data)
            #expect(try Self.encode(decoded) == data, "split at \(split)")
        }
    }

    /// Attributes are written sorted by name, whatever order their dictionary keeps them in.
    @Test func attributesAreWrittenInNameOrder() throws {
        var attributes = Attributes(minimumCapacity: 64)
        for index in (0..<40).reversed() {
            attributes[AttributeKey("k" + String(index))] = .int(Int64(index))
        }
        var manager = SessionManager(app: "a1")
        _ = manager.process(
            VPRecord(timestamp: 1, app: "a1", name: "many", attributes: attributes, action: .open))
        let json = try #require(String(data: Self.encode(manager), encoding: .utf8))
        let positions = (0..<40).map { "k" + String($0) }.sorted().compactMap {
            json.range(of: "[\"" + $0 + "\",")?.lowerBound
        }
        #expect(positions.count == 40)
        #expect(positions == positions.sorted())
    }

    /// The short keys, for a manager with one open session: what a `--state` file holds per
    /// app session.
    @Test func aManagerWithOneOpenSessionIsKeptInShortKeys() throws {
        var manager = SessionManager(app: "a1")
        _ = Self.feed(
            [
                Self.record(1_000, "watchVideo", Self.video, .open),
                Self.record(1_200, "watchVideo", Self.video, .start),
            ], to: &manager)
        let json = try #require(String(data: Self.encode(manager), encoding: .utf8))
        #expect(
            json
                == #"{"a":"a1","i":"a1","n":1,"o":[{"a":[["duration",{"d":3569}],["language",{"s":"English"}],"#
                + #"["player",{"j":"{\"name\":\"avplayer\",\"caps\":{\"hdr\":true,\"codecs\":[\"hevc\",\"h264\"]}}"}],"#
                + #"["videoName",{"s":"Learning Swift"}]],"h":[["opened",1000],["started",1200]],"i":"a1:v1","#
                + #""n":"watchVideo","s":"started"}],"v":"value-proposition"}"#)
    }

    @Test func aStateFileWithAnUnknownStatusIsRejected() {
        let json = #"{"a":"a1","i":"a1","o":[{"h":[],"i":"a1:v1","n":"x","s":"finished"}],"v":"value-proposition"}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SessionManager.self, from: Data(json.utf8))
        }
    }
}
