import EventModel
import ReportEncoding
import Testing
import TextFormat

@Suite("JSON writing")
struct JSONWriterTests {
    private func quoted(_ value: String) -> String {
        var bytes: [UInt8] = []
        JSONWriter.appendQuoted(value, into: &bytes)
        return text(bytes)
    }

    @Test(arguments: [
        ("plain", "\"plain\""),
        ("", "\"\""),
        ("\"", "\"\\\"\""),
        ("\\", "\"\\\\\""),
        ("a\"b\\c", "\"a\\\"b\\\\c\""),
        ("\n", "\"\\n\""),
        ("\r", "\"\\r\""),
        ("\t", "\"\\t\""),
        ("\u{08}", "\"\\b\""),
        ("\u{0C}", "\"\\f\""),
        ("\u{00}", "\"\\u0000\""),
        ("\u{01}", "\"\\u0001\""),
        ("\u{1B}", "\"\\u001b\""),
        ("\u{1F}", "\"\\u001f\""),
        ("\u{0B}", "\"\\u000b\""),
        ("\u{7F}", "\"\u{7F}\""),
        ("/", "\"/\""),
        ("é日😀", "\"é日😀\""),
        ("\u{2028}\u{2029}", "\"\u{2028}\u{2029}\""),
        ("line1\nline2\t\"q\"", "\"line1\\nline2\\t\\\"q\\\"\""),
    ])
    func stringEscaping(input: String, expected: String) {
        #expect(quoted(input) == expected)
    }

    @Test func everyControlCharacterIsEscaped() {
        for scalar in 0..<0x20 {
            guard let unicode = Unicode.Scalar(scalar) else { continue }
            let output = quoted(String(Character(unicode)))
            #expect(output.utf8.allSatisfy { $0 >= 0x20 }, "U+\(scalar) written raw")
            #expect(output.hasPrefix("\"\\"))
        }
    }

    @Test func objectsAndNesting() {
        var json = JSONWriter()
        var bytes: [UInt8] = []
        json.beginObject(into: &bytes)
        json.key("ts", into: &bytes); json.int(1_763_622_903_225, into: &bytes)
        json.key("type", into: &bytes); json.string("avt", into: &bytes)
        json.key("ok", into: &bytes); json.bool(true, into: &bytes)
        json.key("no", into: &bytes); json.bool(false, into: &bytes)
        json.key("nothing", into: &bytes); json.null(into: &bytes)
        json.key("metrics", into: &bytes)
        json.beginObject(into: &bytes)
        json.key("StartTime", into: &bytes); json.int(1100, into: &bytes)
        json.key("empty", into: &bytes); json.beginObject(into: &bytes); json.endObject(into: &bytes)
        json.key("list", into: &bytes)
        json.beginArray(into: &bytes)
        json.int(1, into: &bytes); json.double(2.5, into: &bytes); json.string("x", into: &bytes)
        json.beginObject(into: &bytes); json.endObject(into: &bytes)
        json.endArray(into: &bytes)
        json.endObject(into: &bytes)
        json.key("after", into: &bytes); json.int(-1, into: &bytes)
        json.endObject(into: &bytes)
        #expect(json.isBalanced)
        json.endLine(into: &bytes)
        #expect(
            text(bytes)
                == #"{"ts":1763622903225,"type":"avt","ok":true,"no":false,"nothing":null,"metrics":{"StartTime":1100,"empty":{},"list":[1,2.5,"x",{}]},"after":-1}"#
                + "\n")
    }

    @Test func numbers() {
        var json = JSONWriter()
        var bytes: [UInt8] = []
        json.beginArray(into: &bytes)
        json.int(Int64.min, into: &bytes)
        json.int(Int64.max, into: &bytes)
        json.int(0, into: &bytes)
        for value in [0.1, 100.0, 1e21, 1e-05, -0.0, 0.0, .leastNonzeroMagnitude, 1.7976931348623157e308, -2.5] {
            json.double(value, into: &bytes)
        }
        json.double(.nan, into: &bytes)
        json.double(.infinity, into: &bytes)
        json.double(-.infinity, into: &bytes)
        json.endArray(into: &bytes)
        #expect(
            text(bytes)
                == "[-9223372036854775808,9223372036854775807,0,0.1,100.0,1e+21,1e-05,-0.0,0.0,5e-324,1.7976931348623157e+308,-2.5,null,null,null]"
        )
    }

    @Test func attributesAreSortedByBytes() {
        let attributes: Attributes = [
            "title": "Episode \"42\"",
            "duration": 1_800_000,
            "Zeta": true,
            "position": 12.5,
            "é": "x",
            "a": .double(.nan),
            "isAdsTracker": false,
            "timeSinceStreamLoad": 1100,
        ]
        var json = JSONWriter()
        var bytes: [UInt8] = []
        json.beginObject(into: &bytes)
        json.key("attrs", into: &bytes)
        json.attributes(attributes, into: &bytes)
        json.key("n", into: &bytes)
        json.attributes([:], into: &bytes)
        json.endObject(into: &bytes)
        #expect(json.isBalanced)
        #expect(
            text(bytes)
                == #"{"attrs":{"Zeta":true,"a":null,"duration":1800000,"isAdsTracker":false,"position":12.5,"timeSinceStreamLoad":1100,"title":"Episode \"42\"","é":"x"},"n":{}}"#
        )
    }

    @Test func writerIsReusableAcrossLines() {
        var json = JSONWriter()
        var bytes: [UInt8] = []
        for index in 0..<2 {
            json.beginObject(into: &bytes)
            json.key("i", into: &bytes)
            json.attributeValue(.int(Int64(index)), into: &bytes)
            json.key("s", into: &bytes)
            json.attributeValue("v", into: &bytes)
            json.endObject(into: &bytes)
            json.endLine(into: &bytes)
        }
        json.beginObject(into: &bytes)
        #expect(!json.isBalanced)
        #expect(text(bytes) == "{\"i\":0,\"s\":\"v\"}\n{\"i\":1,\"s\":\"v\"}\n{")
    }
}
