import Replay
import Testing

/// Session keys are looked up for every record, with a hash of their own.
struct SessionKeyTests {
    @Test func keysOfOtherSystemsOrIdsAreKeptApartAndEqualOnesFound() {
        let keys = [
            SessionKey(system: .openavt, id: "a"), SessionKey(system: .vp, id: "a"),
            SessionKey(system: .marconi, id: "a"), SessionKey(system: .openavt, id: "b"),
            SessionKey(system: .openavt, id: ""), SessionKey(system: .openavt, id: "café 😀"),
        ]
        var table: [SessionKey: Int] = [:]
        for (index, key) in keys.enumerated() { table[key] = index }
        #expect(table.count == keys.count)
        for (index, key) in keys.enumerated() {
            // Keys made again, from other strings of the same text.
            let again = SessionKey(system: key.system, id: String(decoding: Array(key.id.utf8), as: UTF8.self))
            #expect(table[again] == index)
            #expect(again.hashValue == key.hashValue)
        }
        #expect(table[SessionKey(system: .vp, id: "b")] == nil)
    }
}
