import ReportEncoding
import Testing

@Suite("InfluxDB line protocol")
struct InfluxLineEncoderTests {
    private func line(
        _ measurement: String,
        tags: [(String, String)] = [],
        fields: [(String, InfluxFieldValue)] = [("v", .int(1))],
        timestamp: Int64 = 1_763_622_903_225,
        encoder: inout InfluxLineEncoder
    ) -> String {
        var bytes: [UInt8] = []
        encoder.appendPoint(measurement: measurement, tags: tags, fields: fields, timestamp: timestamp, into: &bytes)
        return text(bytes)
    }

    private func line(
        _ measurement: String,
        tags: [(String, String)] = [],
        fields: [(String, InfluxFieldValue)] = [("v", .int(1))],
        timestamp: Int64 = 1_763_622_903_225
    ) -> String {
        var encoder = InfluxLineEncoder()
        return line(measurement, tags: tags, fields: fields, timestamp: timestamp, encoder: &encoder)
    }

    @Test func simplePoint() {
        #expect(
            line(
                "avt", tags: [("instrument", "ios-7f3a9c"), ("tracker", "0")],
                fields: [
                    ("StartTime", .int(1100)), ("ratio", .double(0.5)), ("ok", .bool(true)),
                    ("title", .string("Episode 42")),
                ])
                == "avt,instrument=ios-7f3a9c,tracker=0 StartTime=1100i,ratio=0.5,ok=true,title=\"Episode 42\" 1763622903225\n"
        )
    }

    @Test func sharedFieldsWriteAsFieldsGivenOneByOne() {
        let long = String(repeating: "x", count: InfluxLineEncoder.maxStringBytes + 1)
        let cases: [(own: [(String, InfluxFieldValue)], shared: [(String, InfluxFieldValue)])] = [
            ([("v", .int(1))], [("playback_id", .string("a \"b\"")), ("n", .int(2))]),
            ([("v", .double(.nan))], [("id", .string("x"))]),
            ([], [("id", .string(long)), ("", .int(1))]),
            ([("v", .int(1))], []),
            ([("v", .double(.infinity))], [("bad", .double(.nan))]),
        ]
        for (own, shared) in cases {
            var separate = InfluxLineEncoder()
            var together = InfluxLineEncoder()
            guard let series = together.series(measurement: "m", tags: [("t", "1")]) else {
                Issue.record("the series was not written")
                return
            }
            let encoded = together.fields(shared)
            var bytes: [UInt8] = []
            for _ in 0..<2 {
                together.appendPoint(series: series, fields: own, sharedFields: encoded, timestamp: 5, into: &bytes)
            }
            let expected = line("m", tags: [("t", "1")], fields: own + shared, timestamp: 5, encoder: &separate)
            #expect(
                text(bytes) == expected
                    + line("m", tags: [("t", "1")], fields: own + shared, timestamp: 5, encoder: &separate))
            #expect(together.droppedFields == separate.droppedFields)
            #expect(together.droppedPoints == separate.droppedPoints)
            #expect(together.truncatedStrings == separate.truncatedStrings)
        }
    }

    @Test func aFieldGivenAloneWritesAsInAnArray() {
        let cases: [(key: String, value: InfluxFieldValue, shared: [(String, InfluxFieldValue)])] = [
            ("PlayTime", .int(7), [("playback_id", .string("p 1"))]),
            ("Rate x=y", .double(0.25), []),
            ("v", .double(.nan), [("id", .string("x"))]),
            ("v", .double(.infinity), []),
            ("", .int(1), []),
        ]
        for (key, value, shared) in cases {
            var alone = InfluxLineEncoder()
            var inArray = InfluxLineEncoder()
            guard let series = alone.series(measurement: "m", tags: [("t", "1")]) else {
                Issue.record("the series was not written")
                return
            }
            var aloneBytes: [UInt8] = []
            var arrayBytes: [UInt8] = []
            let wroteAlone = alone.appendPoint(
                series: series, field: key, value, sharedFields: alone.fields(shared), timestamp: 5, into: &aloneBytes)
            let wroteInArray = inArray.appendPoint(
                series: series, fields: [(key, value)], sharedFields: inArray.fields(shared), timestamp: 5,
                into: &arrayBytes)
            #expect(text(aloneBytes) == text(arrayBytes))
            #expect(wroteAlone == wroteInArray)
            #expect(alone.droppedFields == inArray.droppedFields)
            #expect(alone.droppedPoints == inArray.droppedPoints)
        }
    }

    @Test func measurementEscaping() {
        #expect(line("my measurement") == "my\\ measurement v=1i 1763622903225\n")
        #expect(line("a,b") == "a\\,b v=1i 1763622903225\n")
        #expect(line(",lead") == "\\,lead v=1i 1763622903225\n")
        #expect(line("trail ") == "trail\\  v=1i 1763622903225\n")
        #expect(line("a=b") == "a=b v=1i 1763622903225\n")  // `=` is literal in a measurement
        #expect(line("q\"uote") == "q\"uote v=1i 1763622903225\n")
        #expect(line("new\nline") == "new\\ line v=1i 1763622903225\n")
        #expect(line("cr\rlf\n") == "cr\\ lf\\  v=1i 1763622903225\n")
        #expect(line("back\\slash") == "back\\slash v=1i 1763622903225\n")
        #expect(line("trailing\\\\") == "trailing v=1i 1763622903225\n")
        #expect(line("ünï") == "ünï v=1i 1763622903225\n")
    }

    @Test func unwritableMeasurements() {
        var encoder = InfluxLineEncoder()
        #expect(line("", encoder: &encoder) == "")
        #expect(line("\\", encoder: &encoder) == "")
        #expect(line("#comment", encoder: &encoder) == "")
        #expect(encoder.droppedPoints == 3)
        #expect(encoder.droppedFields == 3)
    }

    @Test func tagKeyEscaping() {
        #expect(line("m", tags: [("a b", "x")]) == "m,a\\ b=x v=1i 1763622903225\n")
        #expect(line("m", tags: [("a,b", "x")]) == "m,a\\,b=x v=1i 1763622903225\n")
        #expect(line("m", tags: [("a=b", "x")]) == "m,a\\=b=x v=1i 1763622903225\n")
        #expect(line("m", tags: [("=lead", "x")]) == "m,\\=lead=x v=1i 1763622903225\n")
        #expect(line("m", tags: [("trail=", "x")]) == "m,trail\\==x v=1i 1763622903225\n")
        #expect(line("m", tags: [("k\n", "x")]) == "m,k\\ =x v=1i 1763622903225\n")
        #expect(line("m", tags: [("k\\", "x")]) == "m,k=x v=1i 1763622903225\n")
    }

    @Test func tagValueEscaping() {
        #expect(line("m", tags: [("k", "a b")]) == "m,k=a\\ b v=1i 1763622903225\n")
        #expect(line("m", tags: [("k", " lead")]) == "m,k=\\ lead v=1i 1763622903225\n")
        #expect(line("m", tags: [("k", "trail ")]) == "m,k=trail\\  v=1i 1763622903225\n")
        #expect(line("m", tags: [("k", "a,b")]) == "m,k=a\\,b v=1i 1763622903225\n")
        #expect(line("m", tags: [("k", ",")]) == "m,k=\\, v=1i 1763622903225\n")
        #expect(line("m", tags: [("k", "a=b")]) == "m,k=a\\=b v=1i 1763622903225\n")
        #expect(line("m", tags: [("k", "=")]) == "m,k=\\= v=1i 1763622903225\n")
        #expect(line("m", tags: [("k", "x\ny")]) == "m,k=x\\ y v=1i 1763622903225\n")
        #expect(line("m", tags: [("k", "\r\n")]) == "m,k=\\ \\  v=1i 1763622903225\n")
        #expect(line("m", tags: [("k", "q\"uote")]) == "m,k=q\"uote v=1i 1763622903225\n")
        #expect(line("m", tags: [("k", "C:\\dir")]) == "m,k=C:\\dir v=1i 1763622903225\n")
        #expect(line("m", tags: [("k", "C:\\dir\\")]) == "m,k=C:\\dir v=1i 1763622903225\n")
        #expect(line("m", tags: [("k", "ends\\\\\\")]) == "m,k=ends v=1i 1763622903225\n")
        #expect(line("m", tags: [("k", "é ü")]) == "m,k=é\\ ü v=1i 1763622903225\n")
    }

    @Test func emptyOrBackslashOnlyTagsAreOmitted() {
        var encoder = InfluxLineEncoder()
        #expect(
            line("m", tags: [("a", ""), ("b", "\\"), ("", "x"), ("\\\\", "y"), ("c", "ok")], encoder: &encoder)
                == "m,c=ok v=1i 1763622903225\n")
        #expect(encoder.droppedTags == 4)
        #expect(encoder.droppedPoints == 0)
    }

    @Test func tagsAreSortedByKeyBytes() {
        let expected = "m,A=1,B=2,a=3,b=4,é=5 v=1i 1763622903225\n"
        #expect(line("m", tags: [("b", "4"), ("é", "5"), ("a", "3"), ("B", "2"), ("A", "1")]) == expected)
        #expect(line("m", tags: [("A", "1"), ("B", "2"), ("a", "3"), ("b", "4"), ("é", "5")]) == expected)
    }

    @Test func repeatedTagKeyKeepsFirst() {
        var encoder = InfluxLineEncoder()
        #expect(
            line("m", tags: [("z", "0"), ("k", "first"), ("k", "second")], encoder: &encoder)
                == "m,k=first,z=0 v=1i 1763622903225\n")
        #expect(
            line("m", tags: [("k", "first"), ("k", "second")], encoder: &encoder)
                == "m,k=first v=1i 1763622903225\n")
        #expect(encoder.droppedTags == 2)
    }

    @Test func fieldKeyEscaping() {
        #expect(line("m", fields: [("a b", .int(1))]) == "m a\\ b=1i 1763622903225\n")
        #expect(line("m", fields: [("a,b", .int(1))]) == "m a\\,b=1i 1763622903225\n")
        #expect(line("m", fields: [("a=b", .int(1))]) == "m a\\=b=1i 1763622903225\n")
        #expect(line("m", fields: [(" ", .int(1))]) == "m \\ =1i 1763622903225\n")
        #expect(line("m", fields: [("k\n", .int(1))]) == "m k\\ =1i 1763622903225\n")
        #expect(line("m", fields: [("k\\", .int(1))]) == "m k=1i 1763622903225\n")
        #expect(line("m", fields: [("q\"", .int(1))]) == "m q\"=1i 1763622903225\n")
    }

    @Test func stringFieldEscaping() {
        #expect(line("m", fields: [("s", .string("say \"hi\""))]) == "m s=\"say \\\"hi\\\"\" 1763622903225\n")
        #expect(line("m", fields: [("s", .string("C:\\dir\\"))]) == "m s=\"C:\\\\dir\\\\\" 1763622903225\n")
        #expect(line("m", fields: [("s", .string("\"\\"))]) == "m s=\"\\\"\\\\\" 1763622903225\n")
        #expect(line("m", fields: [("s", .string("a,b=c d"))]) == "m s=\"a,b=c d\" 1763622903225\n")
        #expect(line("m", fields: [("s", .string("l1\nl2\r"))]) == "m s=\"l1 l2 \" 1763622903225\n")
        #expect(line("m", fields: [("s", .string(""))]) == "m s=\"\" 1763622903225\n")
        #expect(line("m", fields: [("s", .string("日本"))]) == "m s=\"日本\" 1763622903225\n")
    }

    @Test func longStringsAreCutAtACharacter() {
        var encoder = InfluxLineEncoder()
        let long = "a" + String(repeating: "é", count: 40_000)  // 80,001 bytes
        var bytes: [UInt8] = []
        encoder.appendPoint(measurement: "m", tags: [], fields: [("s", .string(long))], timestamp: 0, into: &bytes)
        let expected = "m s=\"a" + String(repeating: "é", count: 32_767) + "\" 0\n"  // 65,535 bytes
        #expect(text(bytes) == expected)
        #expect(encoder.truncatedStrings == 1)
    }

    @Test func integerFields() {
        #expect(
            line("m", fields: [("a", .int(Int64.min)), ("b", .int(Int64.max)), ("c", .int(0)), ("d", .int(-1))])
                == "m a=-9223372036854775808i,b=9223372036854775807i,c=0i,d=-1i 1763622903225\n")
    }

    @Test func floatFields() {
        #expect(
            line(
                "m",
                fields: [
                    ("a", .double(0.1)), ("b", .double(100)), ("c", .double(1e-05)), ("d", .double(1e21)),
                    ("e", .double(-0.0)), ("f", .double(-1.5)), ("g", .double(1.7976931348623157e308)),
                    ("h", .double(.leastNonzeroMagnitude)), ("i", .double(1100)),
                ])
                == "m a=0.1,b=100.0,c=1e-05,d=1e+21,e=-0.0,f=-1.5,g=1.7976931348623157e+308,h=5e-324,i=1100.0 1763622903225\n"
        )
    }

    @Test func nonFiniteFieldsAreDropped() {
        var encoder = InfluxLineEncoder()
        #expect(
            line(
                "m",
                fields: [("a", .double(.nan)), ("b", .int(2)), ("c", .double(.infinity)), ("d", .double(-.infinity))],
                encoder: &encoder) == "m b=2i 1763622903225\n")
        #expect(
            line("m", fields: [("b", .int(2)), ("a", .double(.nan))], encoder: &encoder) == "m b=2i 1763622903225\n")
        #expect(encoder.droppedFields == 4)
        #expect(encoder.droppedPoints == 0)
    }

    @Test func pointWithoutFieldsIsNotWritten() {
        var encoder = InfluxLineEncoder()
        var bytes = Array("keep\n".utf8)
        let written = encoder.appendPoint(
            measurement: "m", tags: [("k", "v")],
            fields: [("a", .double(.nan)), ("", .int(1)), ("\\", .int(2))],
            timestamp: 1, into: &bytes)
        #expect(!written)
        #expect(text(bytes) == "keep\n")
        #expect(encoder.droppedPoints == 1)
        #expect(encoder.droppedFields == 3)
        #expect(line("m", fields: [], encoder: &encoder) == "")
        #expect(encoder.droppedPoints == 2)
    }

    @Test func booleansAndTimestamps() {
        #expect(line("m", fields: [("t", .bool(true)), ("f", .bool(false))], timestamp: 0) == "m t=true,f=false 0\n")
        #expect(line("m", timestamp: -1) == "m v=1i -1\n")
        #expect(line("m", timestamp: Int64.max) == "m v=1i 9223372036854775807\n")
    }

    @Test func linesAppendToTheBuffer() {
        var encoder = InfluxLineEncoder()
        var bytes: [UInt8] = []
        encoder.appendPoint(measurement: "m", tags: [], fields: [("a", .int(1))], timestamp: 1, into: &bytes)
        encoder.appendPoint(measurement: "m", tags: [], fields: [("a", .int(2))], timestamp: 2, into: &bytes)
        #expect(text(bytes) == "m a=1i 1\nm a=2i 2\n")
    }
}
