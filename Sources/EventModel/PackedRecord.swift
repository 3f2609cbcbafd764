import CMemoryHints

/// A record packed into one block of memory: how records wait in the reorder window.
///
/// A ``Record`` value takes 80 bytes where it is kept, and a heap object of its own for its
/// packed attributes (a 32-byte header, and its size rounded up); packed, the record's fields
/// and attributes lie in one object of about the size of its JSON's values. On the benchmark
/// day the 30-minute window holds some 170,000 records at its largest: packing them takes the
/// peak memory from 201 to 187 MiB. The decoding threads pack the records they decode, while
/// the record is in their cache; the merge unpacks each as it comes out (``record``).
///
/// The object's header is the record's time; its elements are the record's kind (one byte),
/// then its fields in their order in the record: strings and packed attributes as a LEB128
/// length and their bytes, enumerations as the index of their case, integers as zigzag
/// LEB128, doubles as their 8 bytes, optional fields after a byte of flags saying which are
/// there. The bytes are written once, when the object is made, and only read after: the
/// object is immutable, so any thread may read it.
package final class PackedRecord: ManagedBuffer<Timestamp, UInt8> {
    /// The record's time, read without unpacking it.
    package var timestamp: Timestamp { header }

    /// Packs `record`.
    package static func make(_ record: borrowing Record) -> PackedRecord {
        let timestamp = record.timestamp
        var counter = Writer(target: nil)
        write(record, into: &counter)
        let buffer = create(minimumCapacity: counter.offset) { _ in timestamp }
        let packed = unsafeDowncast(buffer, to: PackedRecord.self)
        packed.withUnsafeMutablePointerToElements { elements in
            var writer = Writer(target: UnsafeMutableRawPointer(elements))
            write(record, into: &writer)
            precondition(writer.offset == counter.offset, "a packed record differs from its counted size")
        }
        return packed
    }

    /// The record, unpacked.
    package var record: Record {
        let timestamp = header
        return withUnsafeMutablePointerToElements { elements in
            var reader = Reader(block: UnsafeRawPointer(elements))
            return Self.read(timestamp: timestamp, from: &reader)
        }
    }

    /// Asks the processor for the memory of the record in `slots[index]` (`nil` or not),
    /// without waiting for it and without touching the record (not even its reference count):
    /// a record waits long enough to leave the cache, and most come out in order.
    ///
    /// Reads the slot's reference as the address it is: a class reference is one pointer, and
    /// an optional one is 0 when `nil`.
    @inline(__always)
    package static func prefetch(_ slots: borrowing [PackedRecord?], at index: Int) {
        slots.withUnsafeBufferPointer { slots in
            guard let base = slots.baseAddress else { return }
            let address = UnsafeRawPointer(base + index).load(as: UInt.self)
            guard let object = UnsafeRawPointer(bitPattern: address) else { return }
            avt_prefetch(object)
            avt_prefetch(object + 64)
        }
    }

    /// Asks the processor for the first `lines` cache lines of the record's memory, without
    /// waiting for them.
    @inline(__always)
    package func prefetch(lines: UInt) {
        let start = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        for line in 0..<lines { avt_prefetch(start + Int(64 * line)) }
    }

    // MARK: Layout

    private enum Kind: UInt8 {
        case avt, vp, app, marconi
    }

    /// Flags of a Marconi record's optional fields.
    private static let hasMeta: UInt8 = 1
    private static let hasProgress: UInt8 = 2
    private static let hasError: UInt8 = 4

    private static func write(_ record: borrowing Record, into writer: inout Writer) {
        switch record {
        case .avt(let avt):
            writer.byte(Kind.avt.rawValue)
            writer.integer(avt.tracker)
            writer.text(avt.instrument)
            writer.text(avt.action)
            writer.attributes(avt.packedAttributes)
        case .vp(let vp):
            writer.byte(Kind.vp.rawValue)
            writer.text(vp.app)
            writer.text(vp.name)
            writer.attributes(vp.packedAttributes)
            writer.caseIndex(of: vp.action)
            writer.text(vp.trigger)
            writer.attributes(vp.packedActionAttributes)
        case .app(let app):
            writer.byte(Kind.app.rawValue)
            writer.text(app.app)
            writer.caseIndex(of: app.event)
        case .marconi(let marconi):
            writer.byte(Kind.marconi.rawValue)
            writer.text(marconi.player)
            writer.caseIndex(of: marconi.event)
            var flags: UInt8 = 0
            if marconi.packedMeta != nil { flags |= hasMeta }
            if marconi.progress != nil { flags |= hasProgress }
            if marconi.error != nil { flags |= hasError }
            writer.byte(flags)
            if let meta = marconi.packedMeta { writer.attributes(meta) }
            if let progress = marconi.progress { writer.word(progress.bitPattern) }
            if let error = marconi.error { writer.text(error) }
        }
    }

    private static func read(timestamp: Timestamp, from reader: inout Reader) -> Record {
        // The object's first byte is a kind's: it was written by `write(_:into:)`.
        guard let kind = Kind(rawValue: reader.byte()) else { preconditionFailure("not a packed record") }
        switch kind {
        case .avt:
            let tracker = reader.integer()
            let instrument = reader.text()
            let action = reader.text()
            return .avt(
                AVTRecord(
                    timestamp: timestamp, instrument: instrument, tracker: tracker, action: action,
                    packedAttributes: reader.attributes()))
        case .vp:
            let app = reader.text()
            let name = reader.text()
            let attributes = reader.attributes()
            let action: VPAction = reader.enumCase()
            let trigger = reader.text()
            return .vp(
                VPRecord(
                    timestamp: timestamp, app: app, name: name, packedAttributes: attributes, action: action,
                    trigger: trigger, packedActionAttributes: reader.attributes()))
        case .app:
            let app = reader.text()
            return .app(AppRecord(timestamp: timestamp, app: app, event: reader.enumCase()))
        case .marconi:
            let player = reader.text()
            var record = MarconiRecord(timestamp: timestamp, player: player, event: reader.enumCase())
            let flags = reader.byte()
            if flags & hasMeta != 0 { record.packedMeta = reader.attributes() }
            if flags & hasProgress != 0 { record.progress = Double(bitPattern: reader.word()) }
            if flags & hasError != 0 { record.error = reader.text() }
            return .marconi(record)
        }
    }

    /// Writes a record's fields: once to count their size (`target` `nil`), then into the object.
    private struct Writer {
        let target: UnsafeMutableRawPointer?
        var offset = 0

        mutating func byte(_ value: UInt8) {
            target?.storeBytes(of: value, toByteOffset: offset, as: UInt8.self)
            offset += 1
        }

        mutating func word(_ value: UInt64) {
            target?.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt64.self)
            offset += 8
        }

        mutating func varint(_ value: UInt) {
            guard let target else {
                offset += LEB128.size(of: value)
                return
            }
            let room = UnsafeMutableRawBufferPointer(start: target, count: offset + LEB128.maxSize)
            LEB128.write(value, into: room, at: &offset)
        }

        /// A signed integer, zigzag-encoded.
        mutating func integer(_ value: Int) {
            varint(UInt(bitPattern: (value << 1) ^ (value >> (Int.bitWidth - 1))))
        }

        mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
            varint(UInt(bytes.count))
            if let target, let source = bytes.baseAddress {
                (target + offset).copyMemory(from: source, byteCount: bytes.count)
            }
            offset += bytes.count
        }

        mutating func text(_ text: String) {
            var text = text
            text.withUTF8 { bytes(UnsafeRawBufferPointer($0)) }
        }

        mutating func attributes(_ attributes: PackedAttributes) {
            attributes.withPackedBytes { bytes($0) }
        }

        mutating func caseIndex<Case: CaseIterable & Equatable>(of value: Case) where Case.AllCases == [Case] {
            // Every value of a case-iterable enumeration is one of its cases.
            guard let index = Case.allCases.firstIndex(of: value) else { preconditionFailure("not a case") }
            byte(UInt8(index))
        }
    }

    /// Reads a record's fields in the order they were written.
    private struct Reader {
        let block: UnsafeRawPointer
        var offset = 0

        mutating func byte() -> UInt8 {
            defer { offset += 1 }
            return block.load(fromByteOffset: offset, as: UInt8.self)
        }

        mutating func word() -> UInt64 {
            defer { offset += 8 }
            return UInt64(littleEndian: block.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }

        mutating func varint() -> UInt {
            LEB128.read(UnsafeRawBufferPointer(start: block, count: offset + LEB128.maxSize), at: &offset)
        }

        mutating func integer() -> Int {
            let zigzag = varint()
            return Int(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1)))
        }

        mutating func bytes() -> UnsafeRawBufferPointer {
            let count = Int(varint())
            defer { offset += count }
            return UnsafeRawBufferPointer(start: block + offset, count: count)
        }

        mutating func text() -> String {
            String(decoding: bytes(), as: UTF8.self)
        }

        mutating func attributes() -> PackedAttributes {
            let bytes = bytes()
            return bytes.isEmpty ? PackedAttributes() : PackedAttributes(packedBytes: bytes)
        }

        mutating func enumCase<Case: CaseIterable>() -> Case where Case.AllCases == [Case] {
            Case.allCases[Int(byte())]
        }
    }
}
