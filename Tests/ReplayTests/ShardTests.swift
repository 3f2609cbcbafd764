import EventModel
import OpenAVT
import Replay
import ReplayTestSupport
import Testing

/// `--shard K/N`: the documented hash, and shards that together replay exactly what one run does.
struct ShardTests {
    @Test(arguments: [
        (MetricSystem.openavt, "ios-7f3a9c", UInt64(0x0567_f212_e34b_0a9d), 1),
        (.openavt, "android-42d1", 0x44d9_c187_1100_1473, 1),
        (.vp, "a-7f3a9c", 0xc149_4910_bff0_688c, 2),
        (.marconi, "radio-1", 0x4361_6335_323b_8d63, 3),
        (.openavt, "café", 0x3139_4f66_1df1_6e26, 1),
        // Ids of more than 15 bytes, which a `String` keeps apart from itself.
        (.openavt, "android-7f3a9c42d1e05b66", 0x4b55_eafa_7b9b_383c, 1),
        (.marconi, "radio-station-player-0042", 0xa7c7_60ef_932e_bfa3, 1),
    ])
    func theHashIsFNV1a64OfSystemColonID(system: MetricSystem, id: String, hash: UInt64, shardOf3: Int) {
        let key = SessionKey(system: system, id: id)
        #expect(Shard.hash(key) == hash)
        #expect(Shard.shard(of: key, count: 3) == shardOf3)
        #expect(Shard(shardOf3, of: 3)?.contains(key) == true)
        #expect(Shard.all.contains(key))
    }

    @Test func shardsOutsideOneToNAreRefused() {
        #expect(Shard(0, of: 3) == nil)
        #expect(Shard(4, of: 3) == nil)
        #expect(Shard(1, of: 0) == nil)
        #expect(Shard(3, of: 3)?.index == 3)
    }

    /// Instruments with late records and gaps longer than the timeout, so that sessions close
    /// out of the order of their latest record.
    private func records() -> [(Record, SourcePosition)] {
        var records: [Record] = []
        for step in 0..<120 {
            let instrument = "i\(step % 13)"
            let time = Int64(step) * 7_000 + Int64(step % 5) * 900
            let action = ["MediaRequest", "StreamLoad", "Start", "Ping", "End"][step % 5]
            records.append(
                .avt(
                    AVTRecord(
                        timestamp: Timestamp(milliseconds: time), instrument: instrument, tracker: 0, action: action)))
            if step % 17 == 0 {
                // Late by more than the timeout: a session of its own, closed at once.
                records.append(
                    .avt(
                        AVTRecord(
                            timestamp: Timestamp(milliseconds: max(0, time - 90_000)), instrument: "late\(step)",
                            tracker: 0, action: "MediaRequest")))
            }
        }
        return records.enumerated().map { ($1, SourcePosition(fileRank: 0, line: $0 + 1)) }
    }

    @Test func theShardsTogetherReplayEverySessionOnceInTheUnshardedOrder() throws {
        let options = ReplayOptions(idleGap: 30_000)
        let whole = CollectedReplay(records(), options: options).reports
        let shards = (1...3).map { index in
            CollectedReplay(records(), options: options, shard: Shard(index, of: 3) ?? .all).reports
        }
        let merged = shards.flatMap { $0 }.sorted { $0.order < $1.order }
        #expect(merged == whole)
        #expect(shards.allSatisfy { !$0.isEmpty })
        // The stage matters: ordering by time alone would differ (the ends of the input last).
        let byLatest = whole.sorted { ($0.order.time, $0.key) < ($1.order.time, $1.key) }
        #expect(byLatest.map { $0.key } != whole.map { $0.key })
        #expect(zip(whole, whole.dropFirst()).allSatisfy { $0.order < $1.order })
    }
}
