import EventModel
import Testing

struct TimestampTests {
    @Test(arguments: [(0, 0), (999, 0), (1_000, 1), (-1, -1), (-1_000, -1), (-1_001, -2)] as [(Int64, Int64)])
    func epochSecondsRoundDown(milliseconds: Int64, seconds: Int64) {
        #expect(Timestamp(milliseconds: milliseconds).epochSeconds == seconds)
    }

    @Test func differencesAndOrder() {
        #expect(Timestamp(milliseconds: 1_500).milliseconds(since: 1_000) == 500)
        #expect(Timestamp(milliseconds: 1) < Timestamp(milliseconds: 2))
    }
}

struct AttributeKeyTests {
    @Test func keysAreEqualByNameAndHashAlike() {
        let built = AttributeKey("timeSince" + "BufferBegin")
        #expect(built == Action.bufferBegin.timeAttribute)
        #expect(Set([built, Action.bufferBegin.timeAttribute]).count == 1)
        #expect(AttributeKey("a") != AttributeKey("b"))
        var attributes: Attributes = [built: 1]
        attributes[Action.bufferBegin.timeAttribute] = 2
        #expect(attributes.count == 1)
        #expect(attributes[built] == 2)
    }

    @Test func keysSortByTheirUTF8Bytes() {
        let keys: [AttributeKey] = ["b", "B", "a", "é", "aa"]
        #expect(keys.sorted().map(\.rawValue) == ["B", "a", "aa", "b", "é"])
    }

    @Test func manyKeysInOneDictionary() {
        var attributes: Attributes = [:]
        for index in 0..<1_000 { attributes[AttributeKey("k\(index)")] = .int(Int64(index)) }
        #expect(attributes.count == 1_000)
        #expect((0..<1_000).allSatisfy { attributes[AttributeKey("k\($0)")] == .int(Int64($0)) })
    }
}

struct AttributeValueTests {
    @Test func accessorsReadOnlyTheirKind() {
        #expect(AttributeValue.int(3).int == 3)
        #expect(AttributeValue.int(3).double == 3.0)
        #expect(AttributeValue.double(2.5).int == nil)
        #expect(AttributeValue.string("x").string == "x")
        #expect(AttributeValue.bool(true).bool == true)
        #expect(AttributeValue.string("1").int == nil)
        #expect(AttributeValue.bool(false).description == "false")
    }
}

struct CivilDateTests {
    @Test func daysAndDatesRoundTrip() {
        for days in stride(from: -800_000 as Int64, through: 3_000_000, by: 997) {
            let date = CivilDate.date(days: days)
            #expect(CivilDate.days(year: date.year, month: date.month, day: date.day) == days)
        }
        #expect(CivilDate.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilDate.days(year: 2025, month: 11, day: 20) == 20_412)
        #expect(CivilDate.daysInMonth(2, year: 2024) == 29)
        #expect(CivilDate.daysInMonth(2, year: 1900) == 28)
        #expect(CivilDate.daysInMonth(2, year: 2000) == 29)
    }
}

struct RecordTests {
    @Test func everyRecordHasItsTimestamp() {
        let records: [Record] = [
            .avt(AVTRecord(timestamp: 1, instrument: "i", tracker: 0, action: "Start")),
            .vp(VPRecord(timestamp: 2, app: "a", name: "n", action: .open)),
            .app(AppRecord(timestamp: 3, app: "a", event: .didBecomeActive)),
            .marconi(MarconiRecord(timestamp: 4, player: "p", event: .startPlaying)),
        ]
        #expect(records.map(\.timestamp) == [1, 2, 3, 4])
        #expect(SourcePosition(fileRank: 0, line: 9) < SourcePosition(fileRank: 1, line: 1))
        #expect(SourcePosition(fileRank: -1, line: 5) < SourcePosition(fileRank: 0, line: 1))
    }
}

struct UTF8OrderTests {
    @Test(
        arguments: [
            ("a", "b"), ("a", "ab"), ("", "a"), ("Z", "a"), ("é", "z\u{10FFFF}"), ("e\u{301}", "é"),
            ("a-long-instrument-id-0001", "a-long-instrument-id-0002"), ("same", "same"),
        ] as [(String, String)])
    func agreesWithTheBytesOrder(left: String, right: String) {
        let bytes = left.utf8.lexicographicallyPrecedes(right.utf8)
        #expect(left.precedesInUTF8Order(right) == bytes)
        #expect(right.precedesInUTF8Order(left) == right.utf8.lexicographicallyPrecedes(left.utf8))
    }

    @Test func differsFromUnicodeOrderWhereBytesDo() {
        // "é" (U+00E9, bytes C3 A9) precedes "z" in Unicode order; in bytes, C3 comes after 7A.
        #expect(!"é".precedesInUTF8Order("z"))
        #expect("e\u{301}".precedesInUTF8Order("é"))
    }
}

struct RecordSizeTests {
    /// Records wait in memory until their session closes (an OpenAVT record encoded in its
    /// session's log, the others as they are, unboxed): no kind of record grows past the
    /// size measured, and attributes are packed.
    @Test func recordsStaySmall() {
        #expect(MemoryLayout<Record>.stride <= 80)
        #expect(MemoryLayout<AVTRecord>.stride <= 64)
        #expect(MemoryLayout<VPRecord>.stride <= 80)
        #expect(MemoryLayout<MarconiRecord>.stride <= 80)
        #expect(MemoryLayout<PackedAttributes>.stride == 16)
    }

    /// A value proposition keeps both its sets of attributes in one storage, and each reads
    /// and changes on its own.
    @Test func aValuePropositionsAttributesShareOneStorage() {
        var record = VPRecord(
            timestamp: 1, app: "a", name: "n", attributes: ["section": "movies", "n": 1], action: .open,
            actionAttributes: ["reason": "x"])
        #expect(record.attributes == ["section": "movies", "n": 1])
        #expect(record.actionAttributes == ["reason": "x"])
        #expect(
            record.packedActionAttributes.storageAddress
                == record.packedAttributes.storageAddress + UInt(record.packedAttributes.withPackedBytes(\.count)))
        record.actionAttributes = [:]
        #expect(record.actionAttributes == [:])
        #expect(record.attributes == ["section": "movies", "n": 1])
        record.attributes = [:]
        record.actionAttributes = ["reason": "y"]
        #expect(record.attributes == [:])
        #expect(record.packedAttributes.isEmpty)
        #expect(record.actionAttributes == ["reason": "y"])
        #expect(record == VPRecord(timestamp: 1, app: "a", name: "n", action: .open, actionAttributes: ["reason": "y"]))
    }
}

/// Attributes packed into a block's shared storage (`PackedAttributesArena`).
struct PackedAttributesArenaTests {
    private let first: Attributes = ["title": "Épisode 42", "bitrate": 2_500_000, "ratio": 0.5, "isLive": true]
    private let second: Attributes = ["position": 12_000, "negative": -7]

    /// Values of one arena lie one after the other in one storage, and read as values packed
    /// apart do.
    @Test func valuesShareOneStorageAndReadTheSame() {
        var arena = PackedAttributesArena(chunkCapacity: 4_096)
        let one = PackedAttributes(first).withPackedBytes { arena.copy($0) }
        let two = PackedAttributes(second).withPackedBytes { arena.copy($0) }
        #expect(one == PackedAttributes(first))
        #expect(two == PackedAttributes(second))
        #expect(one.unpacked() == first)
        #expect(two["position"] == 12_000)
        #expect(two.storageAddress == one.storageAddress + UInt(one.withPackedBytes(\.count)))
        #expect(!one.sharesBytes(with: two))
        #expect(arena.copy(UnsafeRawBufferPointer(start: nil, count: 0)).isEmpty)
    }

    /// Packing entries into the arena gives the bytes packing them apart gives, integers stored
    /// whole past the entries included (the next value's bytes are written after).
    @Test func packingIntoTheArenaIsPackingApart() {
        var arena = PackedAttributesArena(chunkCapacity: 256)
        let sizes = [Int64(1), 1 << 40]
        let size = { (value: Int64) in
            PackedAttributes.packedSize(
                keyNumber: number("value"), nameBytes: 5, valueBytes: PackedAttributes.byteCount(of: value),
                isString: false)
        }
        let packed = sizes.map { value in
            arena.pack(byteCount: size(value)) { writer in
                Array("value".utf8).withUnsafeBytes { writer.append(keyNumber: number("value"), name: $0, int: value) }
            }
        }
        for (value, attributes) in zip(sizes, packed) {
            #expect(attributes == PackedAttributes(["value": .int(value)]))
        }
        #expect(arena.pack(byteCount: 0) { _ in }.isEmpty)
    }

    /// A value too large for the room left goes into new storage; the values before keep theirs.
    @Test func aFullStorageIsFollowedByAnother() {
        var arena = PackedAttributesArena(chunkCapacity: 256)
        let long: Attributes = ["long": .string(String(repeating: "x", count: 200))]
        let values = (0..<3).map { _ in PackedAttributes(long).withPackedBytes { arena.copy($0) } }
        let larger: Attributes = ["long": .string(String(repeating: "y", count: 1_000))]
        let large = PackedAttributes(larger).withPackedBytes { arena.copy($0) }
        for value in values { #expect(value.unpacked() == long) }
        #expect(large.unpacked() == larger)
        #expect(values[1].storageAddress != values[0].storageAddress + UInt(values[0].withPackedBytes(\.count)))
    }

    /// A value kept apart has storage of its own, and a value given new bytes never writes
    /// over the storage it shares.
    @Test func valuesLeaveTheSharedBytesAlone() {
        var arena = PackedAttributesArena(chunkCapacity: 4_096)
        var one = PackedAttributes(first).withPackedBytes { arena.copy($0) }
        let two = PackedAttributes(second).withPackedBytes { arena.copy($0) }
        let apart = two.keptApart()
        #expect(apart == two)
        #expect(apart.storageAddress != two.storageAddress)
        PackedAttributes(["a": 1]).withPackedBytes { one.replace(withPackedBytes: $0) }
        #expect(one.unpacked() == ["a": 1])
        #expect(two.unpacked() == second)
        var record = Record.avt(
            AVTRecord(timestamp: 1, instrument: "i", tracker: 0, action: "Start", packedAttributes: two))
        record.keepAttributesApart()
        #expect(record.attributesStorageAddress != two.storageAddress)
        #expect(
            record == .avt(AVTRecord(timestamp: 1, instrument: "i", tracker: 0, action: "Start", attributes: second)))
    }

    private func number(_ name: String) -> UInt32 {
        Array(name.utf8).withUnsafeBytes { PackedAttributes.keyNumber(ofName: $0) }
    }
}

struct PackedAttributesTests {
    private let sample: Attributes = [
        "title": "Épisode 42", "bitrate": 2_500_000, "ratio": 0.5, "isLive": true, "muted": false,
        "long": .string(String(repeating: "x", count: 300)), "": "empty key", "negative": -7,
    ]

    @Test func unpacksWhatWasPacked() {
        #expect(PackedAttributes(sample).unpacked() == sample)
        #expect(PackedAttributes([:]).unpacked() == [:])
        #expect(PackedAttributes([:]).isEmpty)
        #expect(!PackedAttributes(sample).isEmpty)
    }

    @Test func equalDictionariesPackEqual() {
        var other = Attributes()
        for key in sample.keys.sorted().reversed() { other[key] = sample[key] }
        #expect(PackedAttributes(other) == PackedAttributes(sample))
        other["title"] = "Episode 42"
        #expect(PackedAttributes(other) != PackedAttributes(sample))
    }

    /// Copies share their bytes until one changes; equal attributes packed apart do not.
    @Test func copiesShareTheirBytes() {
        var packed = PackedAttributes(sample)
        let copy = packed
        #expect(packed.sharesBytes(with: copy))
        #expect(!packed.sharesBytes(with: PackedAttributes(sample)))
        PackedAttributes(["a": 1]).withPackedBytes { packed.replace(withPackedBytes: $0) }
        #expect(!packed.sharesBytes(with: copy))
    }

    /// Replacing attributes with packed bytes reuses their memory only where no copy sees it.
    @Test func replacingWithPackedBytesLeavesCopiesAlone() {
        let second: Attributes = ["title": "B", "position": 2.5]
        let secondBytes = PackedAttributes(second).withPackedBytes { Array($0) }
        var packed = PackedAttributes(sample)
        let kept = packed
        secondBytes.withUnsafeBytes { packed.replace(withPackedBytes: $0) }
        #expect(packed.unpacked() == second)
        #expect(kept.unpacked() == sample)
        // Unshared, and then with fewer bytes, and none.
        PackedAttributes(["a": 1]).withPackedBytes { packed.replace(withPackedBytes: $0) }
        #expect(packed.unpacked() == ["a": 1])
        #expect(packed == PackedAttributes(["a": 1]))
        PackedAttributes().withPackedBytes { packed.replace(withPackedBytes: $0) }
        #expect(packed.isEmpty)
        #expect(PackedAttributes(packedBytes: UnsafeRawBufferPointer(start: nil, count: 0)).isEmpty)
    }

    /// The storage address a prefetch is given is that of the packed bytes, 0 for none.
    @Test func theStorageAddressIsThatOfTheBytes() throws {
        let packed = PackedAttributes(sample)
        let bytes = try #require(packed.withPackedBytes { $0.baseAddress.map { UInt(bitPattern: $0) } })
        #expect(packed.storageAddress == bytes)
        #expect(PackedAttributes().storageAddress == 0)
        #expect(
            Record.avt(
                AVTRecord(
                    timestamp: Timestamp(milliseconds: 0), instrument: "i", tracker: 0, action: "Start",
                    packedAttributes: packed)
            ).attributesStorageAddress == packed.storageAddress)
        #expect(
            Record.app(AppRecord(timestamp: Timestamp(milliseconds: 0), app: "a", event: .didBecomeActive))
                .attributesStorageAddress == 0)
    }

    @Test func readsOneAttributeWithoutUnpacking() {
        let packed = PackedAttributes(sample)
        for (key, value) in sample {
            #expect(packed[key] == value)
        }
        // Names of the same length as others, and longer than eight bytes, are told apart.
        let similar = PackedAttributes(["position": 1, "positioN": 2, "aVeryLongName1": "x", "aVeryLongName2": "y"])
        #expect(similar["positioN"] == 2)
        #expect(similar["aVeryLongName2"] == "y")
        #expect(similar["aVeryLongName3"] == nil)
        #expect(similar["pos"] == nil)
        // A name too long for a number is packed by its bytes, and found the same way.
        let long = String(repeating: "n", count: 65)
        let spelt = PackedAttributes([AttributeKey(long): 1, "position": 2, AttributeKey(long + "x"): 3])
        #expect(spelt[AttributeKey(long)] == 1)
        #expect(spelt[AttributeKey(long + "x")] == 3)
        #expect(spelt["position"] == 2)
        #expect(spelt.unpacked() == [AttributeKey(long): 1, "position": 2, AttributeKey(long + "x"): 3])
        #expect(PackedAttributes()["position"] == nil)
    }

    /// Absent keys are mostly answered by the header's key-number bits; keys whose numbers
    /// share a bit (more than 64 names) are still found, and absent ones still missed.
    @Test func keysSharingANumberBitAreToldApart() {
        let names = (0..<130).map { AttributeKey("sharedBit\($0)") }
        var attributes: Attributes = [:]
        for (index, name) in names.enumerated() where index % 2 == 0 {
            attributes[name] = .int(Int64(index))
        }
        let packed = PackedAttributes(attributes)
        for (index, name) in names.enumerated() {
            #expect(packed[name] == (index % 2 == 0 ? .int(Int64(index)) : nil), "\(name)")
        }
        #expect(packed.unpacked() == attributes)
    }

    /// Integers take the fewest bytes that give them back sign-extended, whether they end the
    /// buffer or not.
    @Test func integersTakeTheFewestBytes() {
        let sizes: [(Int64, Int)] = [
            (0, 1), (1, 1), (127, 1), (128, 2), (-1, 1), (-128, 1), (-129, 2), (32_767, 2), (32_768, 3),
            (1_600_000, 3), (1 << 31, 5), (-(1 << 31), 4), (Int64.max, 8), (Int64.min, 8),
        ]
        for (value, size) in sizes {
            #expect(PackedAttributes.byteCount(of: value) == size, "\(value)")
            let alone: Attributes = ["value": .int(value)]
            let among: Attributes = ["value": .int(value), "zzz": .int(value), "aaa": "text"]
            for attributes in [alone, among] {
                let packed = PackedAttributes(attributes)
                #expect(packed.unpacked() == attributes)
                #expect(packed["value"] == .int(value))
                #expect(packed["zzz"] == attributes["zzz"])
            }
            // The key-number bits (8 bytes), then the key's tag, the kind byte and the value.
            let tagSize = number("value") < 64 ? 1 : 2
            #expect(PackedAttributes(alone).withPackedBytes(\.count) == 8 + tagSize + 1 + size)
        }
    }

    /// The address of a storage's bytes worked out from its reference is the one
    /// `ManagedBuffer` gives, and none for no storage.
    @Test func theBytesAreWhereTheStorageSaysTheyAre() {
        for capacity in [1, 256, 100_000] {
            let storage = PackedByteStorage.make(capacity: capacity)
            #expect(PackedByteStorage.bytes(of: storage) == storage.base)
            #expect(storage.byteCapacity == capacity)
        }
        #expect(PackedByteStorage.bytes(of: nil) == nil)
    }

    private func number(_ name: String) -> UInt32 {
        Array(name.utf8).withUnsafeBytes { PackedAttributes.keyNumber(ofName: $0) }
    }

    @Test func recordsCompareByAttributesWhateverTheirPacking() {
        let direct = PackedAttributes.pack(
            byteCount: PackedAttributes.packedSize(
                keyNumber: number("b"), nameBytes: 1, valueBytes: PackedAttributes.byteCount(of: 1), isString: false)
                + PackedAttributes.packedSize(keyNumber: number("a"), nameBytes: 1, valueBytes: 1, isString: true)
        ) { writer in
            "b".utf8.withContiguousStorageIfAvailable { name in
                writer.append(keyNumber: number("b"), name: UnsafeRawBufferPointer(name), int: 1)
            }
            "a".utf8.withContiguousStorageIfAvailable { name in
                "v".utf8.withContiguousStorageIfAvailable { value in
                    writer.append(
                        keyNumber: number("a"), name: UnsafeRawBufferPointer(name),
                        string: UnsafeRawBufferPointer(value))
                }
            }
        }
        let packed = AVTRecord(timestamp: 1, instrument: "i", tracker: 0, action: "Start", packedAttributes: direct)
        let fromDictionary = AVTRecord(
            timestamp: 1, instrument: "i", tracker: 0, action: "Start", attributes: ["a": "v", "b": 1])
        #expect(direct != PackedAttributes(["a": "v", "b": 1]))
        #expect(packed == fromDictionary)
        #expect(Set([packed, fromDictionary]).count == 1)
    }
}

struct ActionTests {
    @Test func everyOpenAVTActionKnowsWhichItIsAndCustomOnesDoNot() {
        #expect(Action.openAVT.map(\.standard) == Action.Standard.allCases)
        #expect(Action.openAVT.allSatisfy { $0.standard?.rawValue == $0.name })
        #expect(Action(name: "Start", timeAttribute: "myStart").standard == .start)
        #expect(Action.named("Start") == Action(name: "Start"))
        #expect(Action(name: "start").standard == nil)
        #expect(Action(name: "CustomAction").standard == nil)
        #expect(
            Action.openAVT.filter(\.isAdAction).map(\.standard)
                == Action.Standard.allCases.filter { $0.rawValue.hasPrefix("Ad") })
    }
}
