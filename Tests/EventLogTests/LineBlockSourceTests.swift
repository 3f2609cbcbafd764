import EventModel
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

    /// A block's OpenAVT records have their attributes packed one after the other in storage
    /// they share (one allocation for the block); a value proposition's, which its session
    /// keeps, and a line decoded alone have storage of their own.
    @Test func aBlocksOpenAVTAttributesShareItsStorage() throws {
        let directory = try TemporaryDirectory()
        let lines = """
            {"ts":1,"instrument":"i","tracker":0,"action":"Start","attrs":{"a":1,"b":"x"}}
            {"ts":2,"instrument":"i","tracker":0,"action":"Stop","attrs":{"a":2}}
            {"ts":3,"type":"vp","app":"p","name":"n","action":"open","attrs":{"a":3}}
            """
        let path = try directory.write(lines, to: "arena.jsonl")
        let source = try LineBlockSource(path: path, configuration: LineReaderConfiguration())
        let block = RecordDecoder().decode(source.next(upTo: 10))
        let packed = Self.packedAttributes(of: block)
        try #require(packed.count == 3)
        #expect(packed[0].unpacked() == ["a": 1, "b": "x"])
        #expect(packed[1].unpacked() == ["a": 2])
        #expect(packed[1].storageAddress == packed[0].storageAddress + UInt(packed[0].withPackedBytes(\.count)))
        #expect(packed[2].unpacked() == ["a": 3])
        #expect(packed[2].storageAddress != packed[1].storageAddress + UInt(packed[1].withPackedBytes(\.count)))
        let alone = RecordDecoder().decode(String(lines.split(separator: "\n")[1]))
        guard case .record(.avt(let record)) = alone else {
            Issue.record("not decoded: \(alone)")
            return
        }
        #expect(record.packedAttributes == packed[1])
        #expect(!record.packedAttributes.sharesBytes(with: packed[1]))
    }

    /// A decoder whose blocks do not share storage (a shard's reader, which drops most records
    /// at once) packs each record's attributes apart.
    @Test func aDecoderMayPackEachRecordApart() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            """
            {"ts":1,"instrument":"i","tracker":0,"action":"Start","attrs":{"a":1}}
            {"ts":2,"instrument":"i","tracker":0,"action":"Stop","attrs":{"a":2}}
            """, to: "apart.jsonl")
        let source = try LineBlockSource(path: path, configuration: LineReaderConfiguration())
        let decoder = RecordDecoder()
        decoder.sharesBlockStorage = false
        let packed = Self.packedAttributes(of: decoder.decode(source.next(upTo: 10)))
        try #require(packed.count == 2)
        #expect(packed[1].unpacked() == ["a": 2])
        #expect(packed[1].storageAddress != packed[0].storageAddress + UInt(packed[0].withPackedBytes(\.count)))
    }

    /// The packed attributes of a block's OpenAVT and value-proposition records, in order.
    private static func packedAttributes(of block: DecodedBlock) -> [PackedAttributes] {
        block.entries.compactMap { entry -> PackedAttributes? in
            switch entry {
            case .record(.avt(let record), _): record.packedAttributes
            case .record(.vp(let record), _): record.packedAttributes
            default: nil
            }
        }
    }
}
