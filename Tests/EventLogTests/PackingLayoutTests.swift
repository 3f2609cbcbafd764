import EventLog
import EventModel
import Testing

/// The decoder's C++ shim writes `PackedAttributes`' bytes itself (`pack_dom_object` in
/// `CSimdjson/decoder.cpp`), in the layout Swift's packing writes: for the same entries, in
/// the same order, the bytes must be the same. Entries are given in UTF-8 order here, the
/// order Swift packs a dictionary in.
struct PackingLayoutTests {
    private let decoder = RecordDecoder()

    private func packedBytes(_ attrs: String) -> [UInt8]? {
        let line = #"{"ts":1,"instrument":"i","tracker":0,"action":"Start","attrs":\#(attrs)}"#
        guard case .record(.avt(let record)) = decoder.decode(line) else { return nil }
        return record.packedAttributes.withPackedBytes { Array($0) }
    }

    private func swiftBytes(_ attributes: Attributes) -> [UInt8] {
        PackedAttributes(attributes).withPackedBytes { Array($0) }
    }

    @Test(
        arguments: [
            (#"{"bitrate":4250000}"#, ["bitrate": AttributeValue.int(4_250_000)]),
            (
                #"{"a":0,"b":-1,"c":127,"d":128,"e":-129,"f":9223372036854775807}"#,
                ["a": .int(0), "b": .int(-1), "c": .int(127), "d": .int(128), "e": .int(-129), "f": .int(.max)]
            ),
            (#"{"duration":1.5,"position":-0.25}"#, ["duration": .double(1.5), "position": .double(-0.25)]),
            (#"{"isAdsTracker":false,"live":true}"#, ["isAdsTracker": .bool(false), "live": .bool(true)]),
            (
                #"{"source":"https://cdn.example/v/42.m3u8","title":"Épisode \"42\""}"#,
                ["source": .string("https://cdn.example/v/42.m3u8"), "title": .string("Épisode \"42\"")]
            ),
        ] as [(String, Attributes)])
    func theShimPacksAsSwiftDoes(attrs: String, attributes: Attributes) throws {
        let packed = try #require(packedBytes(attrs))
        #expect(packed == swiftBytes(attributes))
    }

    @Test func aNameWithoutANumberIsPackedByItsBytesAlike() throws {
        // Longer than 64 bytes: packed by its length and bytes, on both sides.
        let long = String(repeating: "k", count: 70)
        let packed = try #require(packedBytes("{\"\(long)\":7,\"title\":\"T\"}"))
        #expect(packed == swiftBytes([AttributeKey(long): .int(7), "title": "T"]))
    }
}
