import EventModel
import Testing

/// ``DigestHashable``: every way of hashing a value comes from its digest, and equal values
/// hash alike whatever the seed, so that dictionaries and sets find them.
struct DigestHashableTests {
    private struct Pair: DigestHashable {
        var name: String
        var number: Int
        var hashDigest: UInt64 { wordDigest(name, continuing: UInt64(number)) }
    }

    @Test func equalValuesHashAlikeWithEverySeed() {
        // The same text made two ways: its storage differs, its digest must not.
        let apart = String(decoding: Array("durationOpenedCompleted".utf8), as: UTF8.self)
        let pairs = [(Pair(name: "durationOpenedCompleted", number: 3), Pair(name: apart, number: 3))]
        for (left, right) in pairs {
            #expect(left == right)
            #expect(left.hashValue == right.hashValue)
            for seed in [0, 1, -1, 42, Int.max] {
                #expect(left._rawHashValue(seed: seed) == right._rawHashValue(seed: seed))
            }
            var leftHasher = Hasher()
            var rightHasher = Hasher()
            left.hash(into: &leftHasher)
            right.hash(into: &rightHasher)
            #expect(leftHasher.finalize() == rightHasher.finalize())
        }
    }

    @Test func theHashIsTheSeededDigest() {
        let key = AttributeKey("playbackId")
        #expect(key.hashValue == seededHash(key.hashDigest, seed: 0))
        #expect(key._rawHashValue(seed: 7) == seededHash(key.hashDigest, seed: 7))
    }

    @Test func dictionariesFindKeysMadeApart() {
        var table: [AttributeKey: Int] = [:]
        for index in 0..<1_000 { table[AttributeKey("key\(index)")] = index }
        for index in 0..<1_000 {
            let apart = String(decoding: Array("key\(index)".utf8), as: UTF8.self)
            #expect(table[AttributeKey(apart)] == index)
        }
    }
}
