import Testing

@testable import ReportDiff

/// Reading CSV and JSON back as the reports write them.
struct ParsingTests {
    @Test func csvCellsAreUnquoted() throws {
        let rows = try CSVTable.rows(Array("a,\"b,\"\"c\"\"\",\n\"x\ny\",z\r\nlast".utf8))
        #expect(rows == [["a", "b,\"c\"", ""], ["x\ny", "z"], ["last"]])
    }

    @Test func anUnclosedQuoteIsAnError() {
        #expect(throws: CSVTable.ParseError.self) { try CSVTable.rows(Array("a,\"b\n".utf8)) }
        #expect(throws: CSVTable.ParseError.self) { try CSVTable.rows(Array("\"a\"b\n".utf8)) }
    }

    @Test func jsonValuesKeepTheirText() throws {
        let line = #" {"a":5400.0, "b" : "x\"y", "c":{"d":[1,{"e":"]"}],"f":null},"g":true} "#
        let members = try WrittenJSON.members(of: ArraySlice(line.utf8))
        #expect(members.map(\.key) == ["a", "b", "c", "g"])
        #expect(members[0].value == .text("5400.0"))
        #expect(members[1].value == .text(#""x\"y""#))
        #expect(
            members[2].value
                == .object([.init(key: "d", value: .text(#"[1,{"e":"]"}]"#)), .init(key: "f", value: .text("null"))]))
        let shallow = try WrittenJSON.members(of: ArraySlice(line.utf8), nested: false)
        #expect(shallow[2].value == .text(#"{"d":[1,{"e":"]"}],"f":null}"#))
        #expect(shallow[3].value == .text("true"))
        #expect(WrittenJSON.text(#""plain""#).plain == "plain")
        #expect(WrittenJSON.text(#""esc\"aped""#).plain == #""esc\"aped""#)
    }

    @Test(arguments: [
        #"{"a":1"#, #"{"a" 1}"#, "[1]", #"{"a":1} x"#, #"{"a":}"#, String(repeating: #"{"a":"#, count: 100),
    ])
    func notOneJSONObjectIsAnError(line: String) {
        #expect(throws: WrittenJSON.ParseError.self) { try WrittenJSON.members(of: ArraySlice(line.utf8)) }
    }
}
