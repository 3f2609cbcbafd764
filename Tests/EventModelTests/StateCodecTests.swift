import EventModel
import Testing

/// `StateEncoder` and `StateDecoder`: every shape of value the state's conformances write comes
/// back as it was, in the same bytes every time; bad bytes and misuse throw, never crash.
struct StateCodecTests {
    // MARK: Scalars

    @Test func integersOfEveryWidthRoundTripAtTheirBounds() throws {
        let bounds = Bounds(
            int: (.min, .max), int8: (.min, .max), int16: (.min, .max), int32: (.min, .max), int64: (.min, .max),
            uint: (.min, .max), uint8: (.min, .max), uint16: (.min, .max), uint32: (.min, .max),
            uint64: (.min, .max))
        #expect(try roundTrip(bounds) == bounds)
        try expectRoundTrips(Int.self)
        try expectRoundTrips(Int8.self)
        try expectRoundTrips(Int16.self)
        try expectRoundTrips(Int32.self)
        try expectRoundTrips(Int64.self)
        try expectRoundTrips(UInt.self)
        try expectRoundTrips(UInt8.self)
        try expectRoundTrips(UInt16.self)
        try expectRoundTrips(UInt32.self)
        try expectRoundTrips(UInt64.self)
    }

    /// `T`'s bounds and the numbers around 0 and 128 alone, in an array, and keyed.
    private func expectRoundTrips<T: FixedWidthInteger & Codable>(_: T.Type) throws {
        let values =
            [T.min, T.min + 1, 0, 1, 127, T.max - 1, T.max] + (T.bitWidth > 8 ? [128, 300] : [])
            + (T.isSigned ? [-1, -64, -65] : [])
        for value in values {
            #expect(try roundTrip(value) == value)
        }
        #expect(try roundTrip(values) == values)
        #expect(try roundTrip(["a": values.first, "b": values.last]) == ["a": values.first, "b": values.last])
    }

    @Test func integersTakeTheSameBytesWhateverTheirWidth() throws {
        #expect(try encoded(0) == [0x80])
        #expect(try encoded(127) == [0xFF])
        #expect(try encoded(128) == [0x03, 0x80, 0x01])
        #expect(try encoded(-1) == [0x04, 0x00])
        #expect(try encoded(-300) == [0x04, 0xAB, 0x02])
        #expect(try encoded(Int64.min) == [0x04] + [UInt8](repeating: 0xFF, count: 8) + [0x7F])
        #expect(try encoded(UInt64.max) == [0x03] + [UInt8](repeating: 0xFF, count: 9) + [0x01])
        #expect(try encoded(Int8(5)) == encoded(UInt64(5)))
        #expect(try encoded(Int16(-300)) == encoded(-300))
        #expect(try encoded(UInt32(70_000)) == encoded(Int64(70_000)))
    }

    @Test func doublesAndFloatsKeepTheirBits() throws {
        let doubles: [Double] = [
            0, -0.0, 1, -1.5, 0.1, 1e300, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
            .leastNormalMagnitude.nextDown, .leastNormalMagnitude, .greatestFiniteMagnitude, .infinity, -.infinity,
            .nan, Double(bitPattern: 0x7FF8_0000_0000_1234),
        ]
        #expect(try roundTrip(doubles).map(\.bitPattern) == doubles.map(\.bitPattern))
        for double in doubles {
            #expect(try roundTrip(double).bitPattern == double.bitPattern)
            #expect(try roundTrip(["d": double])["d"]?.bitPattern == double.bitPattern)
        }
        let floats: [Float] = [
            0, -0.0, 1, 0.1, .leastNonzeroMagnitude, .leastNormalMagnitude.nextDown, .greatestFiniteMagnitude,
            .infinity, .nan,
        ]
        #expect(try roundTrip(floats).map(\.bitPattern) == floats.map(\.bitPattern))
        for float in floats {
            #expect(try roundTrip(float).bitPattern == float.bitPattern)
        }
        #expect(try encoded(1.0) == [0x05, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F])
        #expect(try encoded(Float(1)) == [0x06, 0, 0, 0x80, 0x3F])
        #expect(try encoded(-0.0) == [0x05, 0, 0, 0, 0, 0, 0, 0, 0x80])
    }

    @Test func numbersDecodeAsAnotherNumericTypeWhenTheyFit() throws {
        #expect(try decode(Double.self, encoded(3)) == 3)
        #expect(try decode(Double.self, encoded(Float(0.5))) == 0.5)
        #expect(try decode(Float.self, encoded(0.5)) == 0.5)
        #expect(try decode(Int8.self, encoded(UInt64(100))) == 100)
        for (bytes, type) in [
            (try encoded(300), Int8.self as any Decodable.Type), (try encoded(-1), UInt.self),
            (try encoded(Int64.min), Int32.self), (try encoded(UInt64.max), Int64.self), (try encoded(0.1), Float.self),
        ] {
            let error = #expect(throws: DecodingError.self) { try decode(type, bytes) }
            #expect(error?.isDataCorrupted == true)
        }
    }

    @Test func stringsRoundTripWhateverTheirCharacters() throws {
        let strings = [
            "", "a", "é", "日本語", "👩‍👩‍👧", "a\u{0}b", "\"quoted\"\n", String(repeating: "x", count: 200),
            String(repeating: "ü", count: 10_000),
        ]
        #expect(try roundTrip(strings) == strings)
        let keyed = Dictionary(uniqueKeysWithValues: strings.map { ($0, $0) })
        #expect(try roundTrip(keyed) == keyed)
        for string in strings {
            #expect(try roundTrip(string) == string)
        }
        #expect(try encoded("é") == [0x07, 2, 0xC3, 0xA9])
        #expect(try encoded("") == [0x07, 0])
        #expect(try encoded(true) == [0x02])
        #expect(try encoded(false) == [0x01])
    }

    @Test func theFormatIsAsDocumented() throws {
        // {"n": "ab", "v": [1, nil, -2]}
        #expect(
            try encoded(Small(name: "ab", values: [1, nil, -2]))
                == [0x08, 14, 1, 0x6E, 0x07, 2, 0x61, 0x62, 1, 0x76, 0x09, 4, 0x81, 0x00, 0x04, 0x01])
        #expect(try encoded(Nothing()) == [0x08, 0])
    }

    // MARK: Containers

    @Test func everyKindOfContainerNests() throws {
        let value = Nested(
            name: "outer", pairs: [[1, 2], [], [Int64.min]], child: Nested.Child(flag: true, note: nil),
            extra: -7, base: "based", tail: 9)
        #expect(try roundTrip(value) == value)
        let bare = Nested(name: "", pairs: [], child: nil, extra: 0, base: "", tail: 0)
        #expect(try roundTrip(bare) == bare)
        let mixed = Mixed(first: 1, viaSuper: "s", optionals: [nil, 5, nil], empty: [])
        #expect(try roundTrip(mixed) == mixed)
        #expect(try roundTrip([mixed, mixed]) == [mixed, mixed])
    }

    @Test func optionalsInUnkeyedContainersRoundTrip() throws {
        let integers: [Int64?] = [1, nil, 3, nil, nil]
        #expect(try roundTrip(integers) == integers)
        let strings: [String?] = [nil, "", "x"]
        #expect(try roundTrip(strings) == strings)
        let arrays: [[Int]?] = [nil, [], [1, 2]]
        #expect(try roundTrip(arrays) == arrays)
        #expect(try roundTrip(Int64?.none) == nil)
        #expect(try encoded(Int64?.none) == [0x00])
        #expect(try encoded(integers) == [0x09, 5, 0x81, 0x00, 0x83, 0x00, 0x00])
    }

    @Test func keyedContainersGiveTheKeysPresent() throws {
        let bytes = try encoded(KeyList(entries: [("b", 1), ("a", nil), ("long key", 3)]))
        let read = try decode(KeyList.self, bytes)
        #expect(read.entries.map(\.0) == ["b", "a", "long key"])
        #expect(read.entries.map(\.1) == [1, nil, 3])
        let probe = try decode(KeyProbe.self, bytes)
        #expect(probe.containsB && probe.containsA && !probe.containsZ)
        #expect(probe.aIsNil && !probe.bIsNil)
        #expect(probe.absent == nil && probe.nilValue == nil && probe.present == 3)
    }

    @Test func decodeIfPresentOfAbsentKeysIsNil() throws {
        let read = try decode(Optionals.self, encoded(Nothing()))
        #expect(read == Optionals())
        let full = Optionals(
            bool: false, string: "", double: 0, float: 0, int: 0, int8: 0, int16: 0, int32: 0, int64: 0, uint: 0,
            uint8: 0, uint16: 0, uint32: 0, uint64: 0, nested: [])
        #expect(try roundTrip(full) == full)
    }

    @Test func aValueThatWritesNothingIsAnEmptyKeyedContainer() throws {
        #expect(try roundTrip(UnusedSuper(number: 4)) == UnusedSuper(number: 4))
        #expect(try decode(Nothing.self, encoded(UnusedSuper(number: 4))) == Nothing())
    }

    @Test func containersLongerThanAByteOfLength() throws {
        let strings = (0..<100).map { "string \($0)" }
        #expect(try roundTrip(strings) == strings)
        let numbers = (0..<20_000).map { Int64($0) * 1_000_003 }
        #expect(try roundTrip(numbers) == numbers)
        let nested = (0..<30).map { row in (0..<row * 10).map { "\(row):\($0)" } }
        #expect(try roundTrip(nested) == nested)
        // A long value in a super encoder, closed only when its container is written to again.
        let long = Nested(
            name: String(repeating: "n", count: 300), pairs: (0..<50).map { [Int64($0), 1 << 40] },
            child: Nested.Child(flag: false, note: String(repeating: "é", count: 5_000)), extra: .max,
            base: String(repeating: "b", count: 20_000), tail: -1)
        #expect(try roundTrip(long) == long)
    }

    @Test func dictionariesRoundTrip() throws {
        let byName: [String: [Int: Double]] = ["a": [1: 1.5, -2: 0], "": [:], "ü": [Int.max: -.infinity]]
        #expect(try roundTrip(byName) == byName)
        let byKey: [Timestamp: String] = [Timestamp(milliseconds: 5): "five", Timestamp(milliseconds: -1): "minus"]
        #expect(try roundTrip(byKey) == byKey)
    }

    // MARK: Determinism

    @Test func theSameValueGivesTheSameBytes() throws {
        let value = Nested(
            name: "outer", pairs: [[1, 2], [3]], child: Nested.Child(flag: true, note: "n"), extra: 3, base: "b",
            tail: 1)
        #expect(try encoded(value) == encoded(value))
        var bytes: [UInt8] = [0xAA]
        try StateEncoder().encode(value, into: &bytes)
        #expect(bytes == [0xAA] + (try encoded(value)))
    }

    @Test func dictionariesAreSortedByKey() throws {
        var forward: [String: Int] = [:]
        var backward: [String: Int] = [:]
        backward.reserveCapacity(1_000)
        for index in 0..<300 { forward["key \(index)"] = index }
        for index in (0..<300).reversed() { backward["key \(index)"] = index }
        #expect(try encoded(forward) == encoded(backward))
        let keys = try decode(KeyList.self, encoded(forward)).entries.map(\.0)
        #expect(keys == keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(keys.count == 300)
        var numbers: [Int: String] = [:]
        for index in [5, -3, 1_000, 0, 42] { numbers[index] = "\(index)" }
        var again: [Int: String] = [:]
        for index in [42, 0, 1_000, -3, 5] { again[index] = "\(index)" }
        #expect(try encoded(numbers) == encoded(again))
        #expect(try decode(KeyList.self, encoded(numbers)).entries.map(\.0) == ["-3", "0", "1000", "42", "5"])
    }

    // MARK: Errors

    @Test func everyTruncationThrowsADecodingError() throws {
        let bytes = try encoded(richValue)
        #expect(try decode(Rich.self, bytes) == richValue)
        for count in 0..<bytes.count {
            #expect(throws: DecodingError.self) { try decode(Rich.self, Array(bytes.prefix(count))) }
        }
        #expect(throws: DecodingError.self) { try decode(Rich.self, bytes + [0x80]) }
    }

    @Test func corruptBytesThrowADecodingErrorOrDecode() throws {
        let bytes = try encoded(richValue)
        var thrown = 0
        for index in bytes.indices {
            for replacement: UInt8 in [0x00, 0x01, 0x03, 0x04, 0x05, 0x07, 0x08, 0x09, 0x0A, 0x7F, 0x80, 0xFF] {
                var corrupt = bytes
                corrupt[index] = replacement
                do {
                    _ = try decode(Rich.self, corrupt)
                } catch is DecodingError {
                    thrown += 1
                } catch {
                    Issue.record("not a DecodingError: \(error)")
                }
            }
        }
        #expect(thrown > bytes.count)
        let badUTF8: [UInt8] = [0x07, 2, 0xC3, 0x28]
        let utf8Error = #expect(throws: DecodingError.self) { try decode(String.self, badUTF8) }
        #expect(utf8Error?.isDataCorrupted == true)
        let longVarint: [UInt8] = [0x03] + [UInt8](repeating: 0xFF, count: 11)
        let varintError = #expect(throws: DecodingError.self) { try decode(Int.self, longVarint) }
        #expect(varintError?.isDataCorrupted == true)
    }

    @Test func randomBytesThrowADecodingErrorOrDecode() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        for _ in 0..<5_000 {
            // Mostly tags and small lengths, so that some bytes get deep before they go wrong.
            let bytes = (0..<Int(next() % 48)).map { _ in
                next() % 3 == 0 ? UInt8(truncatingIfNeeded: next()) : UInt8(next() % 12)
            }
            for type in [Rich.self, [String: [Int?]].self, Mixed.self, AttributeValue.self] as [any Decodable.Type] {
                do {
                    _ = try decode(type, bytes)
                } catch is DecodingError {
                } catch {
                    Issue.record("not a DecodingError: \(error)")
                }
            }
        }
    }

    @Test func aValueOfAnotherTypeIsATypeMismatch() throws {
        let error = #expect(throws: DecodingError.self) {
            try decode(Wrapped<Int>.self, encoded(Wrapped(value: ["x": "text"])))
        }
        guard case .typeMismatch(let type, let context)? = error else {
            Issue.record("not a type mismatch: \(String(describing: error))")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
        #expect(context.codingPath.map(\.stringValue) == ["v"])
        let inner = #expect(throws: DecodingError.self) {
            try decode(Wrapped<[String: Int]>.self, encoded(Wrapped(value: ["x": "text"])))
        }
        guard case .typeMismatch(_, let innerContext)? = inner else {
            Issue.record("not a type mismatch: \(String(describing: inner))")
            return
        }
        #expect(innerContext.codingPath.map(\.stringValue) == ["v", "x"])
        for (bytes, type) in [
            (try encoded("1"), Int.self as any Decodable.Type),
            (try encoded(1), String.self),
            (try encoded(1), Bool.self),
            (try encoded([1]), [String: Int].self),
            (try encoded(["a": 1]), [Int].self),
            (try encoded(true), Double.self),
        ] {
            let error = #expect(throws: DecodingError.self) { try decode(type, bytes) }
            #expect(error?.isTypeMismatch == true, "\(type)")
        }
    }

    @Test func aMissingKeyIsKeyNotFound() throws {
        let error = #expect(throws: DecodingError.self) {
            try decode(
                [Wrapped<Int>].self,
                encoded([Wrapped(value: 1), Wrapped(value: 2)]).replacing([1, 0x76], with: [1, 0x77]))
        }
        guard case .keyNotFound(let key, let context)? = error else {
            Issue.record("not keyNotFound: \(String(describing: error))")
            return
        }
        #expect(key.stringValue == "v")
        #expect(context.codingPath.map(\.intValue) == [0])
        #expect(throws: DecodingError.self) { try decode(UnusedSuper.self, encoded(Nothing())) }
    }

    @Test func nilForAValueIsValueNotFound() throws {
        let error = #expect(throws: DecodingError.self) {
            try decode(Wrapped<Int>.self, encoded(KeyList(entries: [("v", nil)])))
        }
        #expect(error.map { if case .valueNotFound = $0 { true } else { false } } == true)
        // Past the end of an unkeyed container.
        #expect(throws: DecodingError.self) { try decode(Pair.self, encoded([1])) }
        #expect(try decode(Pair.self, encoded([1, 2])) == Pair(first: 1, second: 2))
    }

    @Test func nestingDeeperThanTheLimitIsCorrupt() throws {
        let shallow = Chain(depth: 100)
        #expect(try roundTrip(shallow) == shallow)
        let deep = try encoded(Chain(depth: StateDecoder.maximumDepth + 10))
        let error = #expect(throws: DecodingError.self) { try decode(Chain.self, deep) }
        #expect(error?.isDataCorrupted == true)
        let deepArrays = try encoded(NestedArrays(depth: StateDecoder.maximumDepth + 10))
        let arraysError = #expect(throws: DecodingError.self) { try decode(NestedArrays.self, deepArrays) }
        #expect(arraysError?.isDataCorrupted == true)
    }

    @Test func writingToAClosedContainerThrows() throws {
        var bytes: [UInt8] = [1, 2]
        for misuse in Misuse.allCases where misuse != .none {
            let error = #expect(throws: EncodingError.self) { try StateEncoder().encode(misuse, into: &bytes) }
            guard case .invalidValue(_, let context)? = error else {
                Issue.record("\(misuse): no EncodingError")
                continue
            }
            #expect(!context.debugDescription.isEmpty)
        }
        #expect(bytes == [1, 2])
        try StateEncoder().encode(Misuse.none, into: &bytes)
        #expect(bytes.count > 2)
    }

    @Test func aDecoderKeptPastTheDecodingThrows() throws {
        let kept = try decode(Keeper.self, encoded(Wrapped(value: 5)))
        #expect(kept.value == 5)
        #expect(throws: DecodingError.self) { try kept.decoder.container(keyedBy: AnyKey.self) }
        #expect(throws: DecodingError.self) { try kept.decoder.singleValueContainer().decode(Int.self) }
    }

    // MARK: Context

    @Test func userInfoReachesTheValues() throws {
        var encoder = StateEncoder()
        encoder.userInfo[Context.key] = "written"
        var bytes: [UInt8] = []
        try encoder.encode(Context(text: ""), into: &bytes)
        var decoder = StateDecoder()
        decoder.userInfo[Context.key] = "read"
        let context = try bytes.withUnsafeBytes { try decoder.decode(Context.self, from: $0) }
        #expect(context.text == "written read")
    }

    @Test func codingPathsNameTheKeysAndIndices() throws {
        let paths = try decode(PathProbe.self, encoded(PathProbe(paths: [])))
        #expect(paths.paths == [[], ["a"], ["a", "Index 0"], ["a", "Index 1"], ["a", "Index 1", "b"]])
    }

    // MARK: EventModel's values

    @Test func theModelsValuesRoundTrip() throws {
        for milliseconds: Int64 in [
            0, -1, 1_763_622_300_000, StoredRange.times.upperBound, StoredRange.times.lowerBound,
        ] {
            let timestamp = Timestamp(milliseconds: milliseconds)
            #expect(try roundTrip(timestamp) == timestamp)
            #expect(try encoded(timestamp) == encoded(milliseconds))
        }
        // A time no record has (beyond years 0 to 9999, a day either side) is refused.
        for milliseconds: Int64 in [.max, .min, StoredRange.times.upperBound + 1, StoredRange.times.lowerBound - 1] {
            #expect(throws: DecodingError.self) { try roundTrip(Timestamp(milliseconds: milliseconds)) }
        }
        let values: [AttributeValue] = [
            .string("Episode 42"), .string(""), .int(-5), .int(.max), .double(0.25), .double(-0.0), .bool(true),
            .bool(false), .json(#"{"a":[1,2]}"#),
        ]
        #expect(try roundTrip(values) == values)
        let attributes: Attributes = Dictionary(
            uniqueKeysWithValues: values.enumerated().map { (AttributeKey("key\($0.offset)"), $0.element) })
        #expect(try roundTrip(SortedAttributes(attributes)).attributes == attributes)
        #expect(try roundTrip(SortedAttributes([:])).attributes == [:])
        let packed = PackedAttributes(attributes)
        #expect(try roundTrip(packed) == packed)
        #expect(try roundTrip(packed).unpacked() == attributes)
        #expect(try encoded(packed) == encoded(SortedAttributes(attributes)))
        #expect(try roundTrip(AttributeKey("timeSinceStart")) == AttributeKey("timeSinceStart"))
        let error = #expect(throws: DecodingError.self) { try decode(AttributeValue.self, encoded(Nothing())) }
        #expect(error?.isDataCorrupted == true)
    }

    // MARK: The integer limit of a state file

    /// With a limit (a state file's: 2⁶⁰), an integer of any width beyond it is corrupt, named
    /// by its path; within it, and in values of the input (an attribute's), any integer decodes.
    @Test func integersBeyondTheLimitAreCorruptButInInputValues() throws {
        struct Counter: Codable, Equatable {
            var count: Int64
            var small: Int
            var unsigned: UInt64
        }
        var limited = StateDecoder()
        limited.integerLimit = UInt64(StoredRange.magnitude)
        let limit = StoredRange.magnitude
        func decoded<T: Decodable>(_ type: T.Type, _ value: some Encodable) throws -> T {
            try encoded(value).withUnsafeBytes { try limited.decode(type, from: $0) }
        }
        for value in [0, 1, 127, 128, -1, -limit, limit] {
            #expect(try decoded(Int64.self, value) == value)
            let counter = Counter(count: value, small: Int(value), unsigned: value.magnitude)
            #expect(try decoded(Counter.self, counter) == counter)
        }
        for value in [limit + 1, -limit - 1, .max, .min] {
            #expect(throws: DecodingError.self) { try decoded(Int64.self, value) }
            let error = #expect(throws: DecodingError.self) {
                try decoded(Counter.self, Counter(count: 1, small: Int(value), unsigned: 1))
            }
            #expect(error?.isDataCorrupted == true)
            if case .dataCorrupted(let context) = error {
                #expect(context.codingPath.map(\.stringValue) == ["small"])
                #expect(context.debugDescription.contains("beyond ±\(limit)"))
            }
        }
        #expect(throws: DecodingError.self) { try decoded(UInt64.self, UInt64.max) }
        // A record's attribute may hold any Int64, in the state too.
        let values: [AttributeValue] = [.int(.max), .int(.min), .int(limit + 1)]
        #expect(try decoded([AttributeValue].self, values) == values)
        let attributes = SortedAttributes([AttributeKey("bitrate"): .int(.max)])
        #expect(try decoded(SortedAttributes.self, attributes).attributes == attributes.attributes)
        // Without a limit, as before.
        #expect(try roundTrip(Counter(count: .max, small: .min, unsigned: .max)).count == .max)
    }
}

// MARK: - Helpers

private func encoded<T: Encodable>(_ value: T) throws -> [UInt8] {
    var bytes: [UInt8] = []
    try StateEncoder().encode(value, into: &bytes)
    return bytes
}

private func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> T {
    try bytes.withUnsafeBytes { try StateDecoder().decode(type, from: $0) }
}

private func roundTrip<T: Codable>(_ value: T) throws -> T {
    try decode(T.self, encoded(value))
}

extension DecodingError {
    fileprivate var isDataCorrupted: Bool {
        if case .dataCorrupted = self { true } else { false }
    }
    fileprivate var isTypeMismatch: Bool {
        if case .typeMismatch = self { true } else { false }
    }
}

extension Array where Element == UInt8 {
    /// The bytes with the first `pattern` replaced.
    fileprivate func replacing(_ pattern: [UInt8], with replacement: [UInt8]) -> [UInt8] {
        guard let start = indices.first(where: { self[$0...].starts(with: pattern) }) else { return self }
        var copy = self
        copy.replaceSubrange(start..<start + pattern.count, with: replacement)
        return copy
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

private struct Nothing: Codable, Equatable {}

private struct Wrapped<Value: Codable>: Codable {
    var value: Value
    enum CodingKeys: String, CodingKey { case value = "v" }
}

private struct Small: Encodable {
    var name: String
    var values: [Int?]
    enum CodingKeys: String, CodingKey { case name = "n", values = "v" }
}

private struct Pair: Codable, Equatable {
    var first: Int
    var second: Int

    init(first: Int, second: Int) {
        self.first = first
        self.second = second
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        first = try container.decode(Int.self)
        second = try container.decode(Int.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(first)
        try container.encode(second)
    }
}

/// Each integer type's minimum and maximum, keyed.
private struct Bounds: Codable, Equatable {
    var int: [Int], int8: [Int8], int16: [Int16], int32: [Int32], int64: [Int64]
    var uint: [UInt], uint8: [UInt8], uint16: [UInt16], uint32: [UInt32], uint64: [UInt64]
    var minima: Limits, maxima: Limits

    struct Limits: Codable, Equatable {
        var int: Int, int8: Int8, int16: Int16, int32: Int32, int64: Int64
        var uint: UInt, uint8: UInt8, uint16: UInt16, uint32: UInt32, uint64: UInt64
    }

    init(
        int: (Int, Int), int8: (Int8, Int8), int16: (Int16, Int16), int32: (Int32, Int32), int64: (Int64, Int64),
        uint: (UInt, UInt), uint8: (UInt8, UInt8), uint16: (UInt16, UInt16), uint32: (UInt32, UInt32),
        uint64: (UInt64, UInt64)
    ) {
        self.int = [int.0, int.1]
        self.int8 = [int8.0, int8.1]
        self.int16 = [int16.0, int16.1]
        self.int32 = [int32.0, int32.1]
        self.int64 = [int64.0, int64.1]
        self.uint = [uint.0, uint.1]
        self.uint8 = [uint8.0, uint8.1]
        self.uint16 = [uint16.0, uint16.1]
        self.uint32 = [uint32.0, uint32.1]
        self.uint64 = [uint64.0, uint64.1]
        minima = Limits(
            int: int.0, int8: int8.0, int16: int16.0, int32: int32.0, int64: int64.0, uint: uint.0, uint8: uint8.0,
            uint16: uint16.0, uint32: uint32.0, uint64: uint64.0)
        maxima = Limits(
            int: int.1, int8: int8.1, int16: int16.1, int32: int32.1, int64: int64.1, uint: uint.1, uint8: uint8.1,
            uint16: uint16.1, uint32: uint32.1, uint64: uint64.1)
    }
}

/// Every optional scalar, decoded with `decodeIfPresent`.
private struct Optionals: Codable, Equatable {
    var bool: Bool?, string: String?, double: Double?, float: Float?
    var int: Int?, int8: Int8?, int16: Int16?, int32: Int32?, int64: Int64?
    var uint: UInt?, uint8: UInt8?, uint16: UInt16?, uint32: UInt32?, uint64: UInt64?
    var nested: [Int]?
}

/// Keyed, nested keyed and unkeyed containers, `superEncoder(forKey:)` and `superEncoder()`,
/// and a value written to the outer container after them (which closes them).
private struct Nested: Codable, Equatable {
    var name: String
    var pairs: [[Int64]]
    var child: Child?
    var extra: Int
    var base: String
    var tail: Int8

    struct Child: Codable, Equatable {
        var flag: Bool
        var note: String?
    }

    init(name: String, pairs: [[Int64]], child: Child?, extra: Int, base: String, tail: Int8) {
        self.name = name
        self.pairs = pairs
        self.child = child
        self.extra = extra
        self.base = base
        self.tail = tail
    }

    private enum Keys: String, CodingKey {
        case name = "n", pairs = "p", inner = "i", child = "c", extra = "x", tail = "t"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(name, forKey: .name)
        var pairs = container.nestedUnkeyedContainer(forKey: .pairs)
        for pair in self.pairs {
            var inner = pairs.nestedUnkeyedContainer()
            for value in pair { try inner.encode(value) }
        }
        var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
        try inner.encodeIfPresent(child, forKey: .child)
        var extra = container.superEncoder(forKey: .extra).singleValueContainer()
        try extra.encode(self.extra)
        try base.encode(to: container.superEncoder())
        try container.encode(tail, forKey: .tail)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        name = try container.decode(String.self, forKey: .name)
        var pairs = try container.nestedUnkeyedContainer(forKey: .pairs)
        self.pairs = []
        while !pairs.isAtEnd {
            var inner = try pairs.nestedUnkeyedContainer()
            var pair: [Int64] = []
            while !inner.isAtEnd { pair.append(try inner.decode(Int64.self)) }
            self.pairs.append(pair)
        }
        let inner = try container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
        child = try inner.decodeIfPresent(Child.self, forKey: .child)
        extra = try container.superDecoder(forKey: .extra).singleValueContainer().decode(Int.self)
        base = try String(from: container.superDecoder())
        tail = try container.decode(Int8.self, forKey: .tail)
    }
}

/// An unkeyed container holding a nested keyed container, a super encoder, optionals and a
/// nested unkeyed container.
private struct Mixed: Codable, Equatable {
    var first: Int
    var viaSuper: String
    var optionals: [Int64?]
    var empty: [Int]

    private enum Keys: String, CodingKey { case first = "f" }

    init(first: Int, viaSuper: String, optionals: [Int64?], empty: [Int]) {
        self.first = first
        self.viaSuper = viaSuper
        self.optionals = optionals
        self.empty = empty
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        var keyed = container.nestedContainer(keyedBy: Keys.self)
        try keyed.encode(first, forKey: .first)
        try viaSuper.encode(to: container.superEncoder())
        for value in optionals { try container.encode(value) }
        try container.encodeNil()
        var empty = container.nestedUnkeyedContainer()
        for value in self.empty { try empty.encode(value) }
        #expect(container.count == 4 + optionals.count)
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let count = container.count ?? 0
        first = try container.nestedContainer(keyedBy: Keys.self).decode(Int.self, forKey: .first)
        viaSuper = try String(from: container.superDecoder())
        optionals = []
        for _ in 0..<max(count - 4, 0) { optionals.append(try container.decode(Int64?.self)) }
        guard try container.decodeNil(), try !container.decodeNil() else { throw Self.unexpected(decoder) }
        var empty = try container.nestedUnkeyedContainer()
        self.empty = []
        while !empty.isAtEnd { self.empty.append(try empty.decode(Int.self)) }
        guard container.isAtEnd, container.currentIndex == count else { throw Self.unexpected(decoder) }
    }

    private static func unexpected(_ decoder: any Decoder) -> DecodingError {
        .dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not what Mixed writes"))
    }
}

/// Keys and optional values as written, in order, read back through `allKeys`.
private struct KeyList: Codable {
    var entries: [(String, Int?)]

    init(entries: [(String, Int?)]) {
        self.entries = entries
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        for (key, value) in entries {
            if let value {
                try container.encode(value, forKey: AnyKey(stringValue: key))
            } else {
                try container.encodeNil(forKey: AnyKey(stringValue: key))
            }
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        entries = try container.allKeys.map { key in
            (key.stringValue, try container.decodeNil(forKey: key) ? nil : try? container.decode(Int.self, forKey: key))
        }
    }
}

/// `contains`, `decodeNil(forKey:)` and `decodeIfPresent` on what ``KeyList`` wrote.
private struct KeyProbe: Decodable {
    var containsA, containsB, containsZ, aIsNil, bIsNil: Bool
    var absent, nilValue, present: Int?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        containsA = container.contains(AnyKey(stringValue: "a"))
        containsB = container.contains(AnyKey(stringValue: "b"))
        containsZ = container.contains(AnyKey(stringValue: "z"))
        aIsNil = try container.decodeNil(forKey: AnyKey(stringValue: "a"))
        bIsNil = try container.decodeNil(forKey: AnyKey(stringValue: "b"))
        absent = try container.decodeIfPresent(Int.self, forKey: AnyKey(stringValue: "z"))
        nilValue = try container.decodeIfPresent(Int.self, forKey: AnyKey(stringValue: "a"))
        present = try container.decodeIfPresent(Int.self, forKey: AnyKey(stringValue: "long key"))
        #expect(throws: DecodingError.self) { try container.decodeNil(forKey: AnyKey(stringValue: "z")) }
    }
}

/// A super encoder that nothing is written to.
private struct UnusedSuper: Codable, Equatable {
    var number: Int
    private enum Keys: String, CodingKey { case unused = "u", number = "n" }

    init(number: Int) {
        self.number = number
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        _ = container.superEncoder(forKey: .unused)
        try container.encode(number, forKey: .number)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let unused = try container.superDecoder(forKey: .unused).container(keyedBy: Keys.self)
        #expect(unused.allKeys.isEmpty)
        number = try container.decode(Int.self, forKey: .number)
    }
}

/// A value nested `depth` deep.
private indirect enum Chain: Codable, Equatable {
    case end
    case link(Chain)

    init(depth: Int) {
        self = (0..<depth).reduce(Chain.end) { chain, _ in .link(chain) }
    }
}

/// Unkeyed containers nested `depth` deep.
private struct NestedArrays: Codable {
    var depth: Int

    init(depth: Int) {
        self.depth = depth
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for _ in 0..<depth { container = container.nestedUnkeyedContainer() }
        try container.encode(1)
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        depth = 0
        while (try? container.decode(Int.self)) == nil {
            container = try container.nestedUnkeyedContainer()
            depth += 1
        }
    }
}

/// The ways to write to a container after a deeper one than it was written to, and none.
private enum Misuse: CaseIterable, Encodable {
    case keyedAfterSibling, unkeyedAfterSibling, nestedOfClosed, singleValueTwice, superAfterSibling, none

    private enum Keys: String, CodingKey { case a, b, x }

    func encode(to encoder: any Encoder) throws {
        var outer = encoder.container(keyedBy: Keys.self)
        var first = outer.nestedContainer(keyedBy: Keys.self, forKey: .a)
        try first.encode(1, forKey: .x)
        var firstList = first.nestedUnkeyedContainer(forKey: .b)
        try firstList.encode(2)
        var second = outer.nestedContainer(keyedBy: Keys.self, forKey: .b)
        try second.encode(3, forKey: .x)
        switch self {
        case .keyedAfterSibling:
            try first.encode(4, forKey: .b)
        case .unkeyedAfterSibling:
            try firstList.encode(4)
        case .nestedOfClosed:
            var nested = first.nestedContainer(keyedBy: Keys.self, forKey: .x)
            try? nested.encode(5, forKey: .x)
        case .singleValueTwice:
            var single = outer.superEncoder(forKey: .x).singleValueContainer()
            try single.encode(1)
            try single.encode(2)
        case .superAfterSibling:
            var single = first.superEncoder().singleValueContainer()
            try? single.encode(1)
        case .none:
            try outer.encode(6, forKey: .x)
        }
    }
}

/// Keeps its decoder past the decoding.
private struct Keeper: Decodable {
    var decoder: any Decoder
    var value: Int

    init(from decoder: any Decoder) throws {
        self.decoder = decoder
        value = try decoder.container(keyedBy: AnyKey.self).decode(Int.self, forKey: AnyKey(stringValue: "v"))
    }
}

/// Reads `userInfo` on both sides.
private struct Context: Codable {
    static let key: CodingUserInfoKey = {
        guard let key = CodingUserInfoKey(rawValue: "test") else { preconditionFailure() }
        return key
    }()
    var text: String

    init(text: String) {
        self.text = text
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(encoder.userInfo[Self.key] as? String ?? "")
    }

    init(from decoder: any Decoder) throws {
        text =
            try decoder.singleValueContainer().decode(String.self) + " " + (decoder.userInfo[Self.key] as? String ?? "")
    }
}

/// The coding paths seen at each level while decoding `{"a": [1, {"b": 2}]}`.
private struct PathProbe: Codable {
    var paths: [[String]]

    init(paths: [[String]]) {
        self.paths = paths
    }

    private enum Keys: String, CodingKey { case a, b }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var list = container.nestedUnkeyedContainer(forKey: .a)
        try list.encode(1)
        var inner = list.nestedContainer(keyedBy: Keys.self)
        try inner.encode(2, forKey: .b)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        var list = try container.nestedUnkeyedContainer(forKey: .a)
        let element = try list.superDecoder()
        var second = try list.superDecoder()
        let inner = try second.container(keyedBy: Keys.self)
        second = try inner.superDecoder(forKey: .b)
        paths = [decoder.codingPath, list.codingPath, element.codingPath, inner.codingPath, second.codingPath].map {
            $0.map(\.stringValue)
        }
    }
}

/// Something of everything, for truncation and corruption.
private struct Rich: Codable, Equatable {
    var nested: Nested
    var mixed: Mixed
    var attributes: SortedAttributes
    var optionals: Optionals
    var numbers: [Double]
    var byName: [String: Int]

    static func == (lhs: Rich, rhs: Rich) -> Bool {
        lhs.nested == rhs.nested && lhs.mixed == rhs.mixed && lhs.attributes.attributes == rhs.attributes.attributes
            && lhs.optionals == rhs.optionals && lhs.numbers == rhs.numbers && lhs.byName == rhs.byName
    }
}

private let richValue = Rich(
    nested: Nested(
        name: "outer", pairs: [[1, -2], [], [300]], child: Nested.Child(flag: true, note: "é"), extra: -7,
        base: String(repeating: "b", count: 130), tail: 9),
    mixed: Mixed(first: 1, viaSuper: "s", optionals: [nil, 5], empty: [1]),
    attributes: SortedAttributes(["title": "Episode", "position": .int(170_450), "ads": .bool(true), "r": 0.5]),
    optionals: Optionals(string: "x", int8: -1, uint64: .max), numbers: [0.5, -0.0], byName: ["a": 1, "b": 2])
