import EventModel
import Replay
import ReplayTestSupport
import Testing

@testable import Replay

/// Several engines, each with the lives of a share of the keys, replay as one engine does.
struct EnginePartitionTests {
    private static let actions = [
        "MediaRequest", "StreamLoad", "Start", "Ping", "BufferBegin", "BufferEnd", "PauseBegin", "PauseEnd",
        "SeekBegin", "SeekEnd", "QualityChangeUp", "End", "Stop", "Error",
    ]

    /// Records of 60 instruments, 6 apps and 6 players over a day, mostly in time order per
    /// file, some late (up to an hour), with silences longer than the idle gap, in 3 files.
    private static func records(seed: UInt64) -> [(Record, SourcePosition)] {
        var generator = SplitMix(seed: seed)
        var records: [(Record, SourcePosition)] = []
        var lines = [0, 0, 0]
        var time: Int64 = 1_763_622_300_000
        for index in 0..<4_000 {
            time += Int64.random(in: 0...20_000, using: &generator)
            if index % 1_000 == 999 { time += 13 * 3_600_000 }
            let late = Int.random(in: 0..<50, using: &generator) == 0
            let timestamp = Timestamp(
                milliseconds: late ? time - Int64.random(in: 0...3_600_000, using: &generator) : time)
            let file = Int.random(in: 0..<3, using: &generator)
            lines[file] += 1
            let record: Record =
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<7:
                    .avt(
                        AVTRecord(
                            timestamp: timestamp, instrument: "instrument-\(Int.random(in: 0..<60, using: &generator))",
                            tracker: Int.random(in: 0..<2, using: &generator),
                            action: actions[Int.random(in: 0..<actions.count, using: &generator)],
                            attributes: ["title": .string("t\(Int.random(in: 0..<4, using: &generator))")]))
                case 7, 8:
                    .vp(
                        VPRecord(
                            timestamp: timestamp, app: "app-\(Int.random(in: 0..<6, using: &generator))",
                            name: "watch", attributes: [:],
                            action: VPAction.allCases[Int.random(in: 0..<VPAction.allCases.count, using: &generator)]))
                default:
                    .marconi(
                        MarconiRecord(
                            timestamp: timestamp, player: "player-\(Int.random(in: 0..<6, using: &generator))",
                            event: MarconiEventKind.allCases[
                                Int.random(in: 0..<MarconiEventKind.allCases.count, using: &generator)],
                            meta: ["title": .string("s\(index % 5)"), "station": "S", "kind": "live"]))
                }
            records.append((record, SourcePosition(fileRank: file, line: lines[file])))
        }
        return records
    }

    /// Replays as the command line does: merged with a reorder window of ten minutes (a record
    /// later than that at its input's clock less the window); then every life ended.
    private static func replay(_ records: [(Record, SourcePosition)], engines count: Int) -> (
        reports: [SessionReport], late: [SourcePosition]
    ) {
        let options = ReplayOptions(includeTrace: true, idleGap: 12 * 3_600_000)
        var engines = ReplayEngines(options: options, count: count)
        var merge = EventTimeMerge(inputs: 3, maxLateness: 600_000)
        var reports: [SessionReport] = []
        var late: [SourcePosition] = []
        func add(_ record: consuming Record, at place: StreamPlace) {
            switch engines.add(record, at: place) {
            case .replayed(let due): reports += due
            case .late(_, _, let due):
                reports += due
                late.append(place.position)
            }
        }
        for (record, position) in records {
            _ = merge.add(record, at: position, from: position.fileRank)
            while let taken = merge.nextWithPlace() { add(taken.record, at: taken.place) }
        }
        for input in 0..<3 { merge.end(input) }
        while let taken = merge.nextWithPlace() { add(taken.record, at: taken.place) }
        reports += engines.finish()
        return (reports, late)
    }

    @Test(arguments: [2, 3, 8])
    func severalEnginesHandOverWhatOneEngineDoes(engines: Int) {
        for seed: UInt64 in [1, 2, 3] {
            let records = Self.records(seed: seed)
            let one = Self.replay(records, engines: 1)
            let several = Self.replay(records, engines: engines)
            #expect(one.reports.count > 100)
            #expect(!one.late.isEmpty)
            #expect(several.late == one.late, "seed \(seed)")
            // Compared one by one: a whole report list printed would fill the log.
            #expect(several.reports.count == one.reports.count, "seed \(seed), \(engines) engines")
            let first = zip(several.reports, one.reports).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(first == nil, "seed \(seed), \(engines) engines: report \(first ?? 0) differs")
        }
    }

    /// Each engine holds only the lives of its own keys, and every key's life is in one engine.
    /// Engines' reports merged by their order, each list's own order kept and a tie going
    /// to the earlier list (as one engine would have made them); empty lists and a single list
    /// give what they hold.
    @Test func reportsOfSeveralEnginesMergeByTheirOrder() {
        func report(_ id: String, at milliseconds: Int64) -> SessionReport {
            var report = SessionReport(key: SessionKey(system: .openavt, id: id), closing: nil)
            report.order = .deadline(Timestamp(milliseconds: milliseconds), key: SessionKey(system: .openavt, id: "k"))
            return report
        }
        let first = [report("a", at: 1), report("b", at: 3), report("c", at: 5)]
        let second = [report("d", at: 2), report("e", at: 3), report("f", at: 6)]
        let merged = ReplayEngines.merged([first, [], second])
        #expect(merged.map(\.key.id) == ["a", "d", "b", "e", "c", "f"])
        #expect(ReplayEngines.merged([[], second, []]).map(\.key.id) == ["d", "e", "f"])
        #expect(ReplayEngines.merged([[], []]).isEmpty)
    }

    @Test func anEngineHoldsOnlyTheLivesOfItsShare() {
        var engines = ReplayEngines(count: 4)
        var owners: [SessionKey: Int] = [:]
        for (record, position) in Self.records(seed: 7).sorted(by: { $0.0.timestamp < $1.0.timestamp }) {
            _ = engines.add(record, at: position)
            for (number, engine) in engines.engines.enumerated() {
                for key in engine.lives.keys {
                    #expect(engines.partition.engine(of: key) == number, "\(key) in engine \(number)")
                    #expect(owners.updateValue(number, forKey: key).map { $0 == number } ?? true)
                }
            }
        }
        // Every engine had lives: the partition spreads the keys.
        #expect(Set(owners.values) == [0, 1, 2, 3])
    }

    /// The partition spreads keys over every engine; one engine has them all.
    @Test func thePartitionSpreadsTheKeys() {
        let partition = KeyPartition(engines: 8)
        let keys = (0..<64).map { SessionKey(system: .openavt, id: "instrument-\($0)") }
        let spread = Dictionary(grouping: keys, by: partition.engine(of:)).mapValues(\.count)
        #expect(spread.keys.sorted() == Array(0..<8))
        #expect(KeyPartition(engines: 1).engine(of: keys[0]) == 0)
        #expect(KeyPartition(engines: 0).engines == 1)
        // A shard's keys, whose hashes share a remainder, spread too.
        let shard = Shard(2, of: 4)!
        let shardKeys = (0..<2_000).map { SessionKey(system: .openavt, id: "instrument-\($0)") }
            .filter(shard.contains)
        let shardSpread = Dictionary(grouping: shardKeys, by: partition.engine(of:)).mapValues(\.count)
        #expect(shardSpread.keys.sorted() == Array(0..<8))
        #expect(shardSpread.values.allSatisfy { $0 > shardKeys.count / 16 }, "\(shardSpread)")
        // The dealer's digest is the shard hash.
        #expect(partition.engine(ofKeyDigest: Shard.hash(keys[5])) == partition.engine(of: keys[5]))
    }
}
