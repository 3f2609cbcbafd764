import Foundation
import Testing

@testable import EventLog

@Suite struct LineBlockSourceTests {
    /// What a block source cuts `chunk` entries at a time, after skipping `skip`, decoded block
    /// by block; checks that each block ends the input when, and only when, an entry source's
    /// call would.
    static func readInBlocks(
        _ path: String, configuration: LineReaderConfiguration, skip: Int, chunk: Int
    ) throws -> EntrySourceTests.Outcome {
        let source = try LineBlockSource(path: path, configuration: configuration)
        let decoder = RecordDecoder()
        var outcome = EntrySourceTests.Outcome()
        do {
            try source.skip(skip)
        } catch {
            outcome.error = error
            return outcome
        }
        while true {
            let block = decoder.decode(source.next(upTo: chunk))
            #expect(block.isLast || block.entries.count == chunk, "\(path), chunk \(chunk)")
            #expect(block.bytesRead == source.bytesRead)
            outcome.entries += block.entries.compactMap { $0 }
            outcome.error = block.error
            if block.isLast { break }
        }
        #expect(source.next(upTo: chunk).isLast)
        return outcome
    }

    @Test func blocksDecodedGiveTheEntriesAndErrorOfAnEntrySource() throws {
        let directory = try TemporaryDirectory()
        for path in try EntrySourceTests.inputs(in: directory) {
            for configuration in EntrySourceTests.configurations {
                let whole = try EntrySourceTests.readWhole(path, configuration: configuration)
                for chunk in [1, 3, 1_000] {
                    let blocks = try Self.readInBlocks(path, configuration: configuration, skip: 0, chunk: chunk)
                    #expect(blocks == whole, "\(path), \(configuration), chunk \(chunk)")
                }
                let skipped = try Self.readInBlocks(path, configuration: configuration, skip: 2, chunk: 5)
                let rest = EntrySourceTests.Outcome(entries: Array(whole.entries.dropFirst(2)), error: whole.error)
                #expect(skipped == rest, "\(path), \(configuration), skip 2")
            }
        }
    }

    /// Each entry carries whether its `ts` was a number, as the decoder had it just after
    /// decoding its line.
    @Test func entriesCarryWhetherTheirTimestampWasANumber() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            """
            {"ts":1,"instrument":"i","tracker":0,"action":"Start"}
            {"ts":"2025-11-20T00:00:00Z","instrument":"i","tracker":0,"action":"Start"}
            {"ts":true}
            {"ts":2,"instrument":"i","tracker":0,"action":"Start"}
            """, to: "ts.jsonl")
        let source = try LineBlockSource(path: path, configuration: LineReaderConfiguration())
        let block = RecordDecoder().decode(source.next(upTo: 10))
        let flags = block.entries.indices.compactMap { index -> Bool? in
            guard case .record = block.entries[index] else { return nil }
            return block.timestampWasNumber[index]
        }
        #expect(flags == [true, false, true])
        #expect(block.isLast)
    }
}
