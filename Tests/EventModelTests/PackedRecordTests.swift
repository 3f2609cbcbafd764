import EventModel
import Testing

/// A record packed for the reorder window gives back the same record, field for field and its
/// packed attributes byte for byte, whatever its kind and whichever optional fields it has.
struct PackedRecordTests {
    static let time = Timestamp(milliseconds: 1_763_668_800_006)
    static let attributes: Attributes = [
        "title": "Ünïcode 🎬 title", "bitrate": .int(4_500_000), "fps": .double(23.976), "isAdsTracker": false,
        "position": .int(-17), "empty": "", "tags": .json("[1,2]"),
    ]

    static let records: [Record] = [
        .avt(AVTRecord(timestamp: time, instrument: "android-5ce96556", tracker: 3, action: "QualityChangeDown")),
        .avt(
            AVTRecord(
                timestamp: Timestamp(milliseconds: -1), instrument: "", tracker: -5, action: "x",
                attributes: attributes)),
        .avt(
            AVTRecord(
                timestamp: Timestamp(milliseconds: .max), instrument: String(repeating: "i", count: 300),
                tracker: .max, action: "Start", attributes: ["k": .string(String(repeating: "v", count: 5_000))])),
        .avt(AVTRecord(timestamp: time, instrument: "ios", tracker: .min, action: "")),
        .vp(
            VPRecord(
                timestamp: time, app: "app-1", name: "watchingVideo", attributes: attributes, action: .pause,
                trigger: "automatically", actionAttributes: ["why": "call"])),
        .vp(VPRecord(timestamp: time, app: "", name: "", action: .cancel)),
        .app(AppRecord(timestamp: time, app: "app-1", event: .willResignActive)),
        .app(AppRecord(timestamp: Timestamp(milliseconds: .min), app: "app-2", event: .didBecomeActive)),
        .marconi(MarconiRecord(timestamp: time, player: "radio-7", event: .bufferingStarted)),
        .marconi(
            MarconiRecord(
                timestamp: time, player: "radio-7", event: .newMeta, meta: ["title": "Song", "station": "FM"])),
        .marconi(MarconiRecord(timestamp: time, player: "radio-7", event: .trackChanged, meta: [:])),
        .marconi(MarconiRecord(timestamp: time, player: "r", event: .progress, progress: -0.0)),
        .marconi(MarconiRecord(timestamp: time, player: "r", event: .progress, progress: 12.75)),
        .marconi(MarconiRecord(timestamp: time, player: "r", event: .error, error: "décodage impossible")),
        .marconi(
            MarconiRecord(
                timestamp: time, player: "r", event: .error, meta: ["kind": "live"], progress: 3, error: "")),
    ]

    @Test(arguments: records)
    func givesTheSameRecordBack(_ record: Record) {
        let packed = PackedRecord.make(record)
        #expect(packed.timestamp == record.timestamp)
        let unpacked = packed.record
        #expect(unpacked == record)
        #expect(packedBytes(of: unpacked) == packedBytes(of: record))
        // Reading leaves the record as it was: read again, it is the same.
        #expect(packed.record == record)
    }

    @Test func everyCaseOfTheEnumerationsComesBack() {
        for action in VPAction.allCases {
            let record = Record.vp(VPRecord(timestamp: Self.time, app: "a", name: "n", action: action))
            #expect(PackedRecord.make(record).record == record)
        }
        for event in AppLifecycleEvent.allCases {
            let record = Record.app(AppRecord(timestamp: Self.time, app: "a", event: event))
            #expect(PackedRecord.make(record).record == record)
        }
        for event in MarconiEventKind.allCases {
            let record = Record.marconi(MarconiRecord(timestamp: Self.time, player: "p", event: event))
            #expect(PackedRecord.make(record).record == record)
        }
    }

    /// The prefetch reads a slot's reference as an address: 0 for an empty slot, the object's
    /// own address for a full one. Neither changes the slots.
    @Test func prefetchingASlotReadsItsReferenceOnly() {
        let packed = PackedRecord.make(Self.records[0])
        let slots: [PackedRecord?] = [nil, packed, nil]
        for index in slots.indices { PackedRecord.prefetch(slots, at: index) }
        packed.prefetch(lines: 3)
        #expect(slots[1] === packed)
        #expect(slots[0] == nil && slots[2] == nil)
        #expect(packed.record == Self.records[0])
    }

    /// The attributes' packed bytes, as the record holds them (equality of records also
    /// accepts the same attributes packed in another order).
    private func packedBytes(of record: Record) -> [[UInt8]] {
        switch record {
        case .avt(let avt): [avt.packedAttributes.withPackedBytes { Array($0) }]
        case .vp(let vp):
            [
                vp.packedAttributes.withPackedBytes { Array($0) },
                vp.packedActionAttributes.withPackedBytes { Array($0) },
            ]
        case .app: []
        case .marconi(let marconi): [marconi.packedMeta?.withPackedBytes { Array($0) } ?? [255]]
        }
    }
}
