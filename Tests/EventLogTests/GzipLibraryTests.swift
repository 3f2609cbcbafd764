import Foundation
import Testing

@testable import EventLog

/// The two gzip libraries side by side, whichever this process uses (`AVT_REPLAY_GZIP`): the
/// same bytes out of the same members, the same problems in the same words.
@Suite struct GzipLibraryTests {
    /// Everything an inflater of `type` gives for `input`, supplied in pieces of `pieceSize`
    /// bytes, or the problem that stopped it.
    static func inflate(
        _ input: Data, with type: any GzipInflating.Type, pieceSize: Int = 1_000
    ) -> Result<Data, EventLogError> {
        let inflater = type.init(displayName: "input.gz")
        var bytes = [UInt8](input)
        var output = Data()
        let capacity = 4_096
        let target = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { target.deallocate() }
        var offset = 0
        return bytes.withUnsafeMutableBytes { buffer in
            do throws(EventLogError) {
                while true {
                    if inflater.needsInput, offset < buffer.count, let base = buffer.baseAddress {
                        let count = min(pieceSize, buffer.count - offset)
                        inflater.supply(base + offset, count: count)
                        offset += count
                    }
                    let inputEnded = offset == buffer.count
                    switch try inflater.inflate(into: target, capacity: capacity, inputEnded: inputEnded) {
                    case .finished: return .success(output)
                    case .produced(let count):
                        output.append(target.assumingMemoryBound(to: UInt8.self), count: count)
                        if count == 0 && inflater.needsInput && inputEnded { return .success(output) }
                    }
                }
            } catch {
                return .failure(error)
            }
        }
    }

    @Test func theProcessUsesTheLibraryItsEnvironmentNames() {
        let asked = ProcessInfo.processInfo.environment["AVT_REPLAY_GZIP"] == "zlib"
        let isalBuilt = GzipInflater.built.count == 2
        #expect(GzipLibrary.inUse == (isalBuilt && !asked ? .isal : .zlib))
        let expected = GzipInflater.built[isalBuilt && asked ? 1 : 0]
        #expect(ObjectIdentifier(GzipInflater.inUse) == ObjectIdentifier(expected))
        #expect(GzipInflater.stateByteCount == GzipInflater.inUse.stateByteCount)
    }

    @Test func bothLibrariesGiveTheSameBytesOfSeveralMembersWithPadding() throws {
        let first = Data((0..<3_000).map { "line \($0) of the first member\n" }.joined().utf8)
        let second = Data("a short second member\n".utf8)
        var input = try gzip(first, level: 1)
        input.append(try gzip(second, level: 9))
        input.append(Data(repeating: 0, count: 37))
        input.append(try gzip(Data()))
        for type in GzipInflater.built {
            for pieceSize in [7, 1_000, input.count] {
                #expect(
                    Self.inflate(input, with: type, pieceSize: pieceSize) == .success(first + second),
                    "\(type), pieces of \(pieceSize)")
            }
        }
    }

    @Test func bothLibrariesNameTheSameProblems() throws {
        let member = try gzip(Data((0..<500).map { "record \($0)\n" }.joined().utf8))
        var flipped = member
        flipped[member.count - 6] ^= 0xFF  // the CRC-32
        var garbage = member
        garbage.append(Data("not gzip".utf8))
        let cases: [(name: String, input: Data)] = [
            ("cut", member.prefix(member.count / 2)), ("checksum", flipped), ("garbage after", garbage),
        ]
        for (name, input) in cases {
            let outcomes = GzipInflater.built.map { type -> String in
                switch Self.inflate(input, with: type) {
                case .success: return "success"
                case .failure(let error): return "\(error.kind): \(error.message)"
                }
            }
            #expect(outcomes.allSatisfy { $0 != "success" }, "\(name): \(outcomes)")
            #expect(Set(outcomes).count == 1, "\(name): \(outcomes)")
        }
    }
}
