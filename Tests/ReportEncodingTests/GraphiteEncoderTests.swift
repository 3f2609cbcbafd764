import ReportEncoding
import Testing

@Suite("Graphite plaintext")
struct GraphiteEncoderTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("with.dot", "with_dot"),
        ("..", "__"),
        ("with space", "with_space"),
        ("a/b\\c", "a_b_c"),
        ("semi;colon=1", "semi_colon_1"),
        ("ok_-AZaz09", "ok_-AZaz09"),
        ("é", "__"),
        ("日", "___"),
        ("😀", "____"),
        ("", "_"),
        ("tab\tnl\n", "tab_nl_"),
        ("*?[]{}", "______"),
    ])
    func nodeSanitising(node: String, expected: String) {
        #expect(GraphiteEncoder.sanitizedNode(node) == expected)
        var encoder = GraphiteEncoder()
        var bytes: [UInt8] = []
        encoder.appendLine(path: ["x", node, "y"], value: Int64(1), epochSeconds: 10, into: &bytes)
        #expect(text(bytes) == "x.\(expected).y 1 10\n")
    }

    @Test func prefixAndPath() {
        var encoder = GraphiteEncoder(prefix: GraphiteEncoder.nodes(fromDotted: "avt..prod."))
        #expect(encoder.prefix == ["avt", "prod"])
        var bytes: [UInt8] = []
        encoder.appendLine(
            path: ["ios-7f3a9c", "StartTime"], value: Int64(1100), epochSeconds: 1_763_622_903, into: &bytes)
        encoder.appendLine(path: ["ios 7f3a9c", "Play.Time"], value: 0.5, epochSeconds: 1_763_622_904, into: &bytes)
        #expect(
            text(bytes)
                == "avt.prod.ios-7f3a9c.StartTime 1100 1763622903\navt.prod.ios_7f3a9c.Play_Time 0.5 1763622904\n")
    }

    @Test func prefixNodesAreSanitised() {
        let encoder = GraphiteEncoder(prefix: ["a b", "", "c.d"])
        #expect(encoder.prefix == ["a_b", "_", "c_d"])
        #expect(GraphiteEncoder.nodes(fromDotted: "") == [])
        #expect(GraphiteEncoder.nodes(fromDotted: "one") == ["one"])
    }

    @Test func values() {
        var encoder = GraphiteEncoder()
        var bytes: [UInt8] = []
        encoder.appendLine(path: ["a"], value: Int64.min, epochSeconds: 0, into: &bytes)
        encoder.appendLine(path: ["b"], value: Int64.max, epochSeconds: 0, into: &bytes)
        encoder.appendLine(path: ["c"], value: 0.1, epochSeconds: 0, into: &bytes)
        encoder.appendLine(path: ["d"], value: 1e21, epochSeconds: 0, into: &bytes)
        encoder.appendLine(path: ["e"], value: -0.0, epochSeconds: 0, into: &bytes)
        encoder.appendLine(path: ["f"], value: 1e-05, epochSeconds: 0, into: &bytes)
        encoder.appendLine(path: ["g"], value: 100.0, epochSeconds: -5, into: &bytes)
        #expect(
            text(bytes) == """
                a -9223372036854775808 0
                b 9223372036854775807 0
                c 0.1 0
                d 1e+21 0
                e -0.0 0
                f 1e-05 0
                g 100.0 -5

                """)
    }

    @Test func nonFiniteValuesAreSkipped() {
        var encoder = GraphiteEncoder()
        var bytes: [UInt8] = []
        #expect(!encoder.appendLine(path: ["a"], value: .nan, epochSeconds: 1, into: &bytes))
        #expect(!encoder.appendLine(path: ["a"], value: .infinity, epochSeconds: 1, into: &bytes))
        #expect(!encoder.appendLine(path: ["a"], value: -.infinity, epochSeconds: 1, into: &bytes))
        #expect(encoder.appendLine(path: ["a"], value: 2.5, epochSeconds: 1, into: &bytes))
        #expect(text(bytes) == "a 2.5 1\n")
        #expect(encoder.skippedNonFinite == 3)
    }

    @Test func emptyPathIsSkipped() {
        var encoder = GraphiteEncoder()
        var bytes: [UInt8] = []
        #expect(!encoder.appendLine(path: [], value: Int64(1), epochSeconds: 1, into: &bytes))
        #expect(bytes.isEmpty)
        #expect(encoder.skippedEmptyPath == 1)
        var prefixed = GraphiteEncoder(prefix: ["p"])
        #expect(prefixed.appendLine(path: [], value: Int64(1), epochSeconds: 1, into: &bytes))
        #expect(prefixed.appendLine(path: [""], value: Int64(2), epochSeconds: 1, into: &bytes))
        #expect(text(bytes) == "p 1 1\np._ 2 1\n")
    }

    @Test func linesOverSixteenKiBAreSkipped() {
        var encoder = GraphiteEncoder()
        var bytes = Array("before\n".utf8)
        // " 1 1\n" is 5 bytes after the path: a 16,379-byte path fits exactly. Nodes are at most
        // 254 bytes, so the path is 64 nodes of 254 bytes, one of 59, and the 64 dots between.
        let node = String(repeating: "n", count: 254)
        let fits = Array(repeating: node, count: 64) + [String(repeating: "n", count: 59)]
        #expect(encoder.appendLine(path: fits, value: Int64(1), epochSeconds: 1, into: &bytes))
        #expect(bytes.count == 7 + GraphiteEncoder.maxLineBytes)
        let tooLong = Array(fits.dropLast()) + [String(repeating: "n", count: 60)]
        #expect(!encoder.appendLine(path: tooLong, value: Int64(1), epochSeconds: 1, into: &bytes))
        #expect(!encoder.appendLine(path: tooLong, value: 1.5, epochSeconds: 1, into: &bytes))
        #expect(bytes.count == 7 + GraphiteEncoder.maxLineBytes)
        #expect(encoder.skippedTooLong == 2)
        #expect(bytes.last == UInt8(ascii: "\n"))
    }
}

@Suite struct GraphiteNodeLengthTests {
    @Test func longNodesAreCutToTheLimit() {
        let node = String(repeating: "x", count: 300)
        #expect(GraphiteEncoder.sanitizedNode(node).utf8.count == GraphiteEncoder.maxNodeBytes)
        #expect(GraphiteEncoder.sanitizedNode("short") == "short")
    }
}
