import EventModel
import Replay
import ReplayTestSupport
import Testing

/// Records in any order of actions, with attributes of any type, for every system: the state
/// machines take them all without stopping, the same way every time, whatever files they were
/// split into.
struct ArbitraryRecordsTests {
    private static let avtActions =
        Action.Standard.allCases.map(\.rawValue) + ["Custom", "QualityChangeDownX", ""]
    private static let attributeKeys = [
        "title", "source", "duration", "position", "isAdsTracker", "bitrate", "playbackId", "errorDescription",
        "volume", "timeSinceStart", "inAdBreak", "adPosition", "adBreakId", "countBufferBegin", "playTime",
        "senderId", "isLive", "platform",
    ]

    private static func pick<Element>(_ elements: [Element], _ generator: inout SplitMix) -> Element {
        elements[Int.random(in: 0..<elements.count, using: &generator)]
    }

    private static func value(_ generator: inout SplitMix) -> AttributeValue {
        switch Int.random(in: 0..<8, using: &generator) {
        case 0: .int(Int64.random(in: -1_000...10_000_000, using: &generator))
        case 1: .int([Int64.min, Int64.max, 0, -1][Int.random(in: 0..<4, using: &generator)])
        case 2: .double([0.5, -0.0, 1e308, 1e-308, .infinity][Int.random(in: 0..<5, using: &generator)])
        case 3: .string(["", "x", "é🙂", String(repeating: "a", count: 300)][Int.random(in: 0..<4, using: &generator)])
        case 4: .bool(Bool.random(using: &generator))
        default: .int(Int64.random(in: 0...1_000_000, using: &generator))
        }
    }

    private static func attributes(_ generator: inout SplitMix) -> Attributes {
        var attributes: Attributes = [:]
        for _ in 0..<Int.random(in: 0...6, using: &generator) {
            let key = attributeKeys[Int.random(in: 0..<attributeKeys.count, using: &generator)]
            attributes[AttributeKey(key)] = value(&generator)
        }
        return attributes
    }

    /// `count` records of the four kinds, at distinct times in no order, with ids from small sets.
    private static func records(seed: UInt64, count: Int) -> [Record] {
        var generator = SplitMix(seed: seed)
        var times = (0..<count).map { Int64($0) * 7_919 + 1_763_622_300_000 }
        // Long silences too: lives end by the idle gap and start again.
        for index in times.indices where index % 97 == 96 { times[index] += 14 * 3_600_000 }
        times.shuffle(using: &generator)
        return times.map { time in
            let timestamp = Timestamp(milliseconds: time)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<6:
                let action = avtActions[Int.random(in: 0..<avtActions.count, using: &generator)]
                return .avt(
                    AVTRecord(
                        timestamp: timestamp, instrument: "i-\(Int.random(in: 0..<5, using: &generator))",
                        tracker: [0, 0, 1, 2, 1023][Int.random(in: 0..<5, using: &generator)], action: action,
                        attributes: attributes(&generator)))
            case 6, 7:
                return .vp(
                    VPRecord(
                        timestamp: timestamp, app: "a-\(Int.random(in: 0..<3, using: &generator))",
                        name: ["watch", "read"][Int.random(in: 0..<2, using: &generator)],
                        attributes: attributes(&generator), action: pick(VPAction.allCases, &generator)))
            case 8:
                return .app(
                    AppRecord(
                        timestamp: timestamp, app: "a-\(Int.random(in: 0..<3, using: &generator))",
                        event: pick(AppLifecycleEvent.allCases, &generator)))
            default:
                return .marconi(
                    MarconiRecord(
                        timestamp: timestamp, player: "p-\(Int.random(in: 0..<3, using: &generator))",
                        event: pick(MarconiEventKind.allCases, &generator),
                        meta: Bool.random(using: &generator) ? attributes(&generator) : nil,
                        progress: Bool.random(using: &generator)
                            ? Double.random(in: -5...5_000, using: &generator) : nil,
                        error: Bool.random(using: &generator) ? "failed" : nil))
            }
        }
    }

    private static let options = ReplayOptions(includeTrace: true, includeRejected: true, groupBy: GroupBy(["title"]))

    @Test(arguments: 0..<6)
    func anyRecordsReplayTheSameEveryTimeAndInAnyFiles(seed: Int) {
        let records = Self.records(seed: UInt64(seed), count: 800)
        let once = CollectedReplay(lines: records, options: Self.options)
        let again = CollectedReplay(lines: records, options: Self.options)
        #expect(once.reports == again.reports)
        #expect(once.lateRecords == 0)
        #expect(!once.trace.isEmpty)
        #expect(!once.playbacks.isEmpty && !once.vpSessions.isEmpty && !once.marconiItems.isEmpty)
        // The same records over three files, each in its own order.
        var generator = SplitMix(seed: UInt64(seed) &+ 100)
        let split = records.enumerated().map { index, record in
            (record, SourcePosition(fileRank: Int.random(in: 0..<3, using: &generator), line: index + 1))
        }
        let inFiles = CollectedReplay(split, options: Self.options)
        #expect(inFiles.playbacks == once.playbacks)
        #expect(inFiles.vpSessions == once.vpSessions)
        #expect(inFiles.marconiItems == once.marconiItems)
        #expect(inFiles.points == once.points)
    }
}
