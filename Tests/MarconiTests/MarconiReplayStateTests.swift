import EventModel
import Foundation
import Marconi
import Testing

private let a: Attributes = ["title": "A", "artist": "Artist A", "station": "WXYZ", "kind": "digital"]
private let b: Attributes = [
    "title": "B", "kind": "live", "duration": 180.0,
    "extra": .json(#"{"genre":"jazz","tags":["modal",1959],"label":{"name":"Columbia"}}"#),
]
/// ``b`` as JSON values (its duration an integer): the same item.
private let bWhole: Attributes = [
    "title": "B", "kind": "live", "duration": 180,
    "extra": .json(#"{"genre":"jazz","tags":["modal",1959],"label":{"name":"Columbia"}}"#),
]
private let c: Attributes = ["title": "C", "kind": "live", "station": "KCRW"]

private func record(
    _ ts: Int64, _ kind: MarconiEventKind, meta: Attributes? = nil, progress: Double? = nil, error: String? = nil
) -> MarconiRecord {
    MarconiRecord(
        timestamp: Timestamp(milliseconds: ts), player: "p1", event: kind, meta: meta, progress: progress, error: error)
}

/// A player's day: an error before anything plays (held), buffering, an item playing with
/// progress, an error that ends it, a second error (ignored), buffering and an error with no
/// item (both held), new meta that starts an item with what was held, a track change, the
/// same meta with an integer duration, ignored records, and buffering still running at the end.
private let records: [MarconiRecord] = [
    record(500, .error, error: "no network"),
    record(1_000, .bufferingStarted),
    record(1_600, .bufferingEnded, meta: a),
    record(1_700, .startPlaying),
    record(2_000, .progress, progress: 1),
    record(4_000, .progress, progress: 3.25),
    record(4_500, .newMeta, meta: a),
    record(5_000, .error, error: "timeout"),
    record(5_200, .error),
    record(5_500, .bufferingStarted),
    record(6_000, .error),
    record(6_500, .newMeta, meta: b),
    record(7_000, .progress, progress: 1),
    record(7_500, .progress),
    record(8_000, .trackChanged, meta: c),
    record(8_500, .progress, progress: 0.5),
    record(9_000, .trackChanged, meta: b),
    record(9_100, .progress, progress: 2),
    record(9_400, .newMeta, meta: bWhole),
    record(9_500, .bufferingStarted),
    record(9_700, .bufferingEnded, meta: bWhole),
    record(9_900, .progress, progress: 2.5),
    record(10_000, .bufferingStarted),
    record(10_400, .startPlaying),
]

private func encode(_ value: some Encodable) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return try encoder.encode(value)
}

/// A Marconi replay kept in a `--state` file: fed some records, encoded, decoded and fed the
/// rest, it gives the state changes and items one replay fed them all gives.
@Suite("Marconi replay state")
struct MarconiReplayStateTests {
    @Test func aReplaySavedAfterAnyRecordGoesOnAsIfItHadNotStopped() throws {
        var whole = MarconiPlayerReplay(player: "p1")
        let changes = records.compactMap { whole.replay($0) }
        let wholeEncoding = try encode(whole)
        let items = whole.finish()
        #expect(items.count == 4)
        #expect(items.map(\.errors) == [2, 1, 0, 0])
        #expect(items.map(\.trackChanges) == [0, 0, 1, 1])
        #expect(items[1].bufferingTime == 500)
        for split in 0...records.count {
            var first = MarconiPlayerReplay(player: "p1")
            var splitChanges = records[..<split].compactMap { first.replay($0) }
            var restored = try JSONDecoder().decode(MarconiPlayerReplay.self, from: encode(first))
            #expect(restored.state == first.state)
            #expect(restored.machine == first.machine)
            splitChanges += records[split...].compactMap { restored.replay($0) }
            #expect(splitChanges == changes, "split at \(split)")
            #expect(try encode(restored) == wholeEncoding, "split at \(split)")
            #expect(restored.finish() == items, "split at \(split)")
        }
    }

    /// A replay finished, saved, and fed the next records gives what one not saved gives.
    @Test func aFinishedReplaySavedGoesOnFromItsState() throws {
        var whole = MarconiPlayerReplay(player: "p1")
        records[..<17].forEach { whole.replay($0) }
        _ = whole.finish()
        var restored = try JSONDecoder().decode(MarconiPlayerReplay.self, from: encode(whole))
        let changes = records[17...].compactMap { whole.replay($0) }
        #expect(records[17...].compactMap { restored.replay($0) } == changes)
        #expect(restored.finish() == whole.finish())
    }

    /// The replay at every point of the day encodes to the same bytes twice, and decoded, to
    /// the same bytes again.
    @Test func theEncodingIsTheSameBytesEveryTime() throws {
        for split in 0...records.count {
            var replay = MarconiPlayerReplay(player: "p1")
            records[..<split].forEach { replay.replay($0) }
            let data = try encode(replay)
            #expect(try encode(replay) == data)
            let decoded = try JSONDecoder().decode(MarconiPlayerReplay.self, from: data)
            #expect(try encode(decoded) == data, "split at \(split)")
        }
    }

    @Test(arguments: [
        MarconiPlayer.State.noPlaying, .buffering, .startPlaying(b, trackChanged: true),
        .startPlaying([:], trackChanged: false), .continuePlaying(c, progress: 12.125), .error(description: nil),
        .error(description: "timeout"),
    ])
    func everyStateIsKept(state: MarconiPlayer.State) throws {
        let player = MarconiPlayer(state: state)
        let data = try encode(player)
        #expect(try JSONDecoder().decode(MarconiPlayer.self, from: data) == player)
        #expect(try encode(JSONDecoder().decode(MarconiPlayer.self, from: data)) == data)
    }

    /// Metas are written sorted by name, whatever order their dictionary keeps them in.
    @Test func metasAreWrittenInNameOrder() throws {
        var meta = Attributes(minimumCapacity: 64)
        for index in (0..<40).reversed() {
            meta[AttributeKey("k" + String(index))] = .int(Int64(index))
        }
        let json = try #require(
            String(data: encode(MarconiPlayer.State.startPlaying(meta, trackChanged: false)), encoding: .utf8))
        let positions = (0..<40).map { "k" + String($0) }.sorted().compactMap {
            json.range(of: "[\"" + $0 + "\",")?.lowerBound
        }
        #expect(positions.count == 40)
        #expect(positions == positions.sorted())
    }

    /// The short keys, for a replay with one item playing: what a `--state` file holds per player.
    @Test func aReplayWithOneItemPlayingIsKeptInShortKeys() throws {
        var replay = MarconiPlayerReplay(player: "p1")
        records[1..<6].forEach { replay.replay($0) }
        let json = try #require(String(data: encode(replay), encoding: .utf8))
        #expect(
            json
                == #"{"c":{"b":600,"f":1600,"l":1600,"m":[["artist",{"s":"Artist A"}],["kind",{"s":"digital"}],"#
                + #"["station",{"s":"WXYZ"}],["title",{"s":"A"}]],"p":"p1","t":2400,"x":3.25},"l":4000,"p":"p1","#
                + #""s":{"m":[["artist",{"s":"Artist A"}],["kind",{"s":"digital"}],["station",{"s":"WXYZ"}],"#
                + #"["title",{"s":"A"}]],"p":3.25,"s":"continuePlaying"},"t":4000}"#)
    }

    @Test func aStateFileWithAnUnknownStateIsRejected() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(MarconiPlayer.self, from: Data(#"{"s":"paused"}"#.utf8))
        }
    }
}
