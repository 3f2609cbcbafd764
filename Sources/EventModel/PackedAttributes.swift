/// Attributes packed into one byte buffer, as records keep them while they wait to be replayed.
///
/// A decoded record waits in memory in the reorder window, and its attributes as a
/// dictionary took some 800 bytes (keys, values, the table's free slots); packed, they take
/// less than their JSON did. An event reads one attribute with the subscript, without
/// unpacking the others; ``unpacked()`` gives the dictionary back.
///
/// Layout, entry after entry: the key, a kind byte, then the value: a string as length and
/// bytes, a double as 8 little-endian bytes, a Boolean in its kind, and an integer in as few
/// little-endian bytes as give it back sign-extended, their count in its kind. A key is
/// its number in the process's `PackedKeyTable` (tag `number << 1 | 1`) or, for a name
/// without one, its length and UTF-8 bytes (tag `length << 1`). Tags and lengths are LEB128
/// varints. Keys are unique; buffers packed from a dictionary list them in UTF-8 byte order,
/// so equal dictionaries pack equal. The bytes mean nothing outside the process.
///
/// A non-empty buffer starts with 8 bytes of key-number bits (bit `number % 64` of each
/// numbered key): most look-ups are of attributes the record does not have (an event asks its
/// supplied attributes before its time-since clocks, so every time-since attribute a hub reads
/// is first looked for here), and the bits answer those without walking the entries.
///
/// The bytes lie in a ``PackedByteStorage``: the value's own, or one it shares with the other
/// records of its block (``PackedAttributesArena``), from `start` on. Unchecked `Sendable`:
/// the bytes a value refers to are never written again (``PackedByteStorage``).
@usableFromInline package struct PackedAttributes: Hashable, @unchecked Sendable {
    /// `nil` for no attributes.
    @usableFromInline var storage: PackedByteStorage?
    @usableFromInline var start: Int32 = 0
    @usableFromInline var count: Int32 = 0

    @usableFromInline enum Kind: UInt8 {
        case string = 0
        /// A JSON object or array (``AttributeValue/json(_:)``): its text, as a string's.
        case json = 1
        case double = 2
        case `false` = 3
        case `true` = 4
    }

    /// The kind byte of an integer of one byte; one of `n` bytes is this plus `n - 1`.
    @usableFromInline static var integerKind: UInt8 { 8 }

    /// No attributes.
    package init() {}

    /// The `count` bytes of `storage` from `start` on, written already.
    init(storage: PackedByteStorage, start: Int, count: Int) {
        self.storage = storage
        self.start = Int32(start)
        self.count = Int32(count)
    }

    /// Packs a dictionary, keys in UTF-8 byte order.
    package init(_ attributes: Attributes) {
        guard !attributes.isEmpty else { return }
        let entries = attributes.sorted { $0.key < $1.key }
        var size = 0
        for (key, value) in entries {
            let valueBytes: Int
            switch value {
            case .string(let text), .json(let text): valueBytes = text.utf8.count
            case .int(let int): valueBytes = Self.byteCount(of: int)
            case .double: valueBytes = 8
            case .bool: valueBytes = 0
            }
            var isText = false
            if case .string = value { isText = true }
            if case .json = value { isText = true }
            size += Self.packedSize(
                keyNumber: key.packedNumber, nameBytes: key.rawValue.utf8.count, valueBytes: valueBytes,
                isString: isText)
        }
        self = Self.pack(byteCount: size) { writer in
            for (key, value) in entries {
                var name = key.rawValue
                name.withUTF8 { name in
                    let (number, name) = (key.packedNumber, UnsafeRawBufferPointer(name))
                    switch value {
                    case .string(var text):
                        text.withUTF8 {
                            writer.append(keyNumber: number, name: name, string: UnsafeRawBufferPointer($0))
                        }
                    case .int(let int): writer.append(keyNumber: number, name: name, int: int)
                    case .double(let double): writer.append(keyNumber: number, name: name, double: double)
                    case .bool(let bool): writer.append(keyNumber: number, name: name, bool: bool)
                    case .json(var text):
                        text.withUTF8 {
                            writer.append(keyNumber: number, name: name, json: UnsafeRawBufferPointer($0))
                        }
                    }
                }
            }
        }
    }

    /// Attributes are equal when their bytes are.
    @inlinable
    package static func == (lhs: PackedAttributes, rhs: PackedAttributes) -> Bool {
        lhs.withPackedBytes { left in rhs.withPackedBytes { right in sameBytes(left, right) } }
    }

    @inlinable
    package func hash(into hasher: inout Hasher) {
        withPackedBytes { hasher.combine(bytes: $0) }
    }

    /// Whether there are none.
    @inlinable package var isEmpty: Bool { count == 0 }

    /// The address of the packed bytes, got without reading their memory: for a prefetch hint
    /// only, never to read through; 0 for none.
    @inlinable package var storageAddress: UInt {
        UInt(bitPattern: PackedByteStorage.bytes(of: storage)) &+ UInt(start)
    }

    /// Calls `body` with the packed bytes, for storage in the same process (see
    /// ``init(packedBytes:)``).
    @inlinable
    package func withPackedBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        // The address from the reference alone (a bound reference was retained and released on
        // every read); the value keeps the storage alive through the call.
        try withExtendedLifetime(self) {
            try body(
                UnsafeRawBufferPointer(
                    start: PackedByteStorage.bytes(of: storage).map { $0 + Int(start) }, count: Int(count)))
        }
    }

    /// Attributes from bytes ``withPackedBytes(_:)`` gave, in the same process, in storage of
    /// their own.
    package init(packedBytes: UnsafeRawBufferPointer) {
        guard packedBytes.count > 0 else {
            self.init()
            return
        }
        self.init(storage: PackedByteStorage.copying(packedBytes), start: 0, count: packedBytes.count)
    }

    /// The same attributes in storage of their own: for a value kept long apart from the
    /// others of the storage it shares (``PackedAttributesArena``).
    package func keptApart() -> PackedAttributes {
        withPackedBytes { PackedAttributes(packedBytes: $0) }
    }

    /// Makes these the attributes of bytes ``withPackedBytes(_:)`` gave, in the same
    /// process, copied into the memory these took when nothing else holds it and they fit.
    ///
    /// A tracker takes every replayed record's attributes this way, in memory it keeps: memory
    /// kept up to four times the size needed, plus 256 bytes, so that records of different
    /// sizes in turn do not each allocate anew. Attributes made from bytes
    /// (``init(packedBytes:)``) take memory of their size.
    package mutating func replace(withPackedBytes packedBytes: UnsafeRawBufferPointer) {
        // Written only as the storage's one reference (``PackedByteStorage``); memory much
        // larger than needed (a block's) is not kept for every later record.
        if isKnownUniquelyReferenced(&storage), let storage, storage.byteCapacity >= packedBytes.count,
            storage.byteCapacity <= 4 * packedBytes.count + 256
        {
            storage.write(packedBytes, at: 0)
            start = 0
            count = Int32(packedBytes.count)
        } else {
            self = PackedAttributes(packedBytes: packedBytes)
        }
    }

    // MARK: Packing entries one by one

    /// Packs entries that take `byteCount` bytes (the sum of their
    /// ``packedSize(keyNumber:nameBytes:valueBytes:isString:)``), written by `body` into
    /// storage of exactly that size. The caller keeps keys unique.
    package static func pack(byteCount: Int, _ body: (inout Writer) -> Void) -> PackedAttributes {
        guard byteCount > 0 else { return PackedAttributes() }
        let size = headerSize + byteCount
        let made = PackedByteStorage.make(capacity: size + Writer.slack)
        write(into: UnsafeMutableRawBufferPointer(start: made.base, count: size + Writer.slack), size: size, body)
        return PackedAttributes(storage: made, start: 0, count: size)
    }

    /// Writes the header and entries of `size` bytes with `body` at the start of `target`,
    /// which has ``Writer/slack`` bytes more.
    static func write(into target: UnsafeMutableRawBufferPointer, size: Int, _ body: (inout Writer) -> Void) {
        var writer = Writer(buffer: target)
        body(&writer)
        precondition(writer.offset == size, "packed entries differ from their announced size")
        target.storeBytes(of: writer.numberBits.littleEndian, toByteOffset: 0, as: UInt64.self)
    }

    /// Writes entries into the storage of ``pack(byteCount:_:)``.
    package struct Writer {
        /// The bytes past the entries an integer's store may write to.
        @usableFromInline static var slack: Int { 7 }
        @usableFromInline let buffer: UnsafeMutableRawBufferPointer
        @usableFromInline var offset = PackedAttributes.headerSize
        /// The header's key-number bits of the keys written so far.
        @usableFromInline var numberBits: UInt64 = 0

        /// Appends a string attribute; its key is ``keyNumber(ofName:)`` of `name`, and `name` its bytes.
        @inlinable
        package mutating func append(keyNumber: UInt32, name: UnsafeRawBufferPointer, string: UnsafeRawBufferPointer) {
            append(keyNumber: keyNumber, name: name, text: string, kind: .string)
        }

        /// Appends a JSON object or array, as its canonical text (key as for strings).
        @inlinable
        package mutating func append(keyNumber: UInt32, name: UnsafeRawBufferPointer, json: UnsafeRawBufferPointer) {
            append(keyNumber: keyNumber, name: name, text: json, kind: .json)
        }

        /// Appends an attribute whose value is bytes with their length before them.
        @inlinable
        mutating func append(keyNumber: UInt32, name: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer, kind: Kind)
        {
            write(keyNumber, name)
            writeByte(kind.rawValue)
            writeVarint(UInt(text.count))
            write(text)
        }

        /// Appends an integer attribute (key as for strings).
        @inlinable
        package mutating func append(keyNumber: UInt32, name: UnsafeRawBufferPointer, int: Int64) {
            write(keyNumber, name)
            let count = PackedAttributes.byteCount(of: int)
            writeByte(PackedAttributes.integerKind + UInt8(count - 1))
            // All 8 bytes are stored, in the buffer's slack past the entries when it ends
            // with this one, and the next entry writes over the ones not needed.
            buffer.storeBytes(of: int.littleEndian, toByteOffset: offset, as: Int64.self)
            offset += count
        }

        /// Appends a floating-point attribute (key as for strings).
        @inlinable
        package mutating func append(keyNumber: UInt32, name: UnsafeRawBufferPointer, double: Double) {
            write(keyNumber, name)
            writeFixed(.double, double.bitPattern)
        }

        /// Appends a Boolean attribute (key as for strings).
        @inlinable
        package mutating func append(keyNumber: UInt32, name: UnsafeRawBufferPointer, bool: Bool) {
            write(keyNumber, name)
            writeByte(bool ? Kind.true.rawValue : Kind.false.rawValue)
        }

        @inlinable
        mutating func write(_ number: UInt32, _ name: UnsafeRawBufferPointer) {
            if number != 0 {
                numberBits |= PackedAttributes.numberBit(number)
                writeVarint(UInt(number) << 1 | 1)
            } else {
                writeVarint(UInt(name.count) << 1)
                write(name)
            }
        }

        @inlinable
        mutating func writeByte(_ byte: UInt8) {
            buffer[offset] = byte
            offset += 1
        }

        @inlinable
        mutating func writeVarint(_ value: UInt) {
            LEB128.write(value, into: buffer, at: &offset)
        }

        @inlinable
        mutating func write(_ data: UnsafeRawBufferPointer) {
            if let source = data.baseAddress, let target = buffer.baseAddress, data.count > 0 {
                (target + offset).copyMemory(from: source, byteCount: data.count)
            }
            offset += data.count
        }

        @inlinable
        mutating func writeFixed(_ kind: Kind, _ value: UInt64) {
            writeByte(kind.rawValue)
            buffer.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt64.self)
            offset += 8
        }
    }

    /// The bytes of the header of key-number bits.
    @usableFromInline static var headerSize: Int { 8 }

    /// A key number's bit in the header.
    @inlinable
    static func numberBit(_ number: UInt32) -> UInt64 { 1 << (UInt64(number) & 63) }

    /// The bytes an entry takes: its key (given as ``keyNumber(ofName:)`` and the name's
    /// length), the kind byte and the value. `valueBytes` is a string's length (which then
    /// takes a length prefix too), ``byteCount(of:)`` for an integer, 8 for a double, 0 for a
    /// Boolean.
    @inlinable
    package static func packedSize(keyNumber: UInt32, nameBytes: Int, valueBytes: Int, isString: Bool) -> Int {
        let keySize =
            keyNumber != 0
            ? LEB128.size(of: UInt(keyNumber) << 1 | 1) : LEB128.size(of: UInt(nameBytes) << 1) + nameBytes
        return keySize + 1 + valueBytes + (isString ? LEB128.size(of: UInt(valueBytes)) : 0)
    }

    /// The bytes an integer's value takes: the fewest that give it back sign-extended, 1 to 8.
    @inline(__always)
    package static func byteCount(of int: Int64) -> Int {
        let significantBits = 65 - (int < 0 ? ~int : int).leadingZeroBitCount
        return (significantBits + 7) >> 3
    }

    /// The number of the attribute name spelt by `name` (UTF-8) in the process's table of
    /// packed names, given it on first use; 0 for a name packed by its bytes. A decoder asks
    /// once per name and keeps the answer.
    package static func keyNumber(ofName name: UnsafeRawBufferPointer) -> UInt32 {
        guard name.count <= PackedKeyTable.maxNameLength else { return 0 }
        let text = String(decoding: name, as: UTF8.self)
        return PackedKeyTable.number(for: text, digest: fnv1a(text))
    }

    // MARK: Unpacking

    /// The attributes as a dictionary.
    package func unpacked() -> Attributes {
        guard !isEmpty else { return [:] }
        return PackedKeyTable.withKeys { numbered in
            var attributes = Attributes()
            forEachEntry { key, value in
                let name: AttributeKey
                switch key {
                case .number(let number): name = numbered(number)
                case .bytes(let bytes): name = AttributeKey(String(decoding: bytes, as: UTF8.self))
                }
                switch value {
                case .string(let text): attributes[name] = .string(String(decoding: text, as: UTF8.self))
                case .json(let text): attributes[name] = .json(String(decoding: text, as: UTF8.self))
                case .scalar(let value): attributes[name] = value
                }
            }
            return attributes
        }
    }

    /// Whether both hold their bytes in the same memory, so are equal without a comparison
    /// (`false` says nothing: equal attributes may be packed apart).
    @inline(__always)
    package func sharesBytes(with other: PackedAttributes) -> Bool {
        storage === other.storage && start == other.start && count == other.count
    }

    /// The value of one attribute, or `nil` when there is none: a walk over the entries that
    /// compares key numbers (or, for a name without one, bytes where the lengths match),
    /// with no dictionary and no string made but the value's.
    package subscript(key: AttributeKey) -> AttributeValue? {
        guard !isEmpty else { return nil }
        if key.packedNumber != 0 {
            let bits = withPackedBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
            guard bits & Self.numberBit(key.packedNumber) != 0 else { return nil }
            let tag = UInt(key.packedNumber) << 1 | 1
            return value { candidate, _ in candidate == tag }
        }
        var name = key.rawValue
        return name.withUTF8 { name in
            let name = UnsafeRawBufferPointer(name)
            return value { tag, bytes in tag & 1 == 0 && sameBytes(bytes, name) }
        }
    }

    /// The value of the first entry whose key tag (and, for a spelt-out name, bytes) `matches`.
    private func value(where matches: (_ tag: UInt, _ name: UnsafeRawBufferPointer) -> Bool) -> AttributeValue? {
        withPackedBytes { buffer in
            var offset = buffer.isEmpty ? 0 : Self.headerSize
            while offset < buffer.count {
                let tag = LEB128.read(buffer, at: &offset)
                var name = UnsafeRawBufferPointer(start: nil, count: 0)
                if tag & 1 == 0 { name = Self.bytes(buffer, count: Int(tag >> 1), &offset) }
                let found = matches(tag, name)
                let kindByte = buffer[offset]
                offset += 1
                if kindByte >= Self.integerKind {
                    let count = Int(kindByte - Self.integerKind) + 1
                    if found { return .int(Self.integer(buffer, count: count, at: offset)) }
                    offset += count
                    continue
                }
                switch Kind(rawValue: kindByte) ?? .false {
                case .string:
                    let text = Self.bytes(buffer, count: Int(LEB128.read(buffer, at: &offset)), &offset)
                    if found { return .string(String(decoding: text, as: UTF8.self)) }
                case .json:
                    let text = Self.bytes(buffer, count: Int(LEB128.read(buffer, at: &offset)), &offset)
                    if found { return .json(String(decoding: text, as: UTF8.self)) }
                case .double:
                    let number = Self.fixed(buffer, &offset)
                    if found { return .double(Double(bitPattern: number)) }
                case .false:
                    if found { return .bool(false) }
                case .true:
                    if found { return .bool(true) }
                }
            }
            return nil
        }
    }

    /// A packed key: a name's number, or the bytes of a name without one.
    private enum Key {
        case number(UInt32)
        case bytes(UnsafeRawBufferPointer)
    }

    /// A packed value: a string's bytes, a JSON object's or array's text, or a number or Boolean.
    private enum Entry {
        case string(UnsafeRawBufferPointer)
        case json(UnsafeRawBufferPointer)
        case scalar(AttributeValue)
    }

    /// Calls `body` with each entry's key and value, in packing order.
    private func forEachEntry(_ body: (Key, Entry) -> Void) {
        withPackedBytes { buffer in
            var offset = buffer.isEmpty ? 0 : Self.headerSize
            while offset < buffer.count {
                let tag = LEB128.read(buffer, at: &offset)
                let key: Key =
                    tag & 1 == 1
                    ? .number(UInt32(truncatingIfNeeded: tag >> 1))
                    : .bytes(Self.bytes(buffer, count: Int(tag >> 1), &offset))
                let kindByte = buffer[offset]
                offset += 1
                if kindByte >= Self.integerKind {
                    let count = Int(kindByte - Self.integerKind) + 1
                    body(key, .scalar(.int(Self.integer(buffer, count: count, at: offset))))
                    offset += count
                    continue
                }
                switch Kind(rawValue: kindByte) ?? .false {
                case .string:
                    body(key, .string(Self.bytes(buffer, count: Int(LEB128.read(buffer, at: &offset)), &offset)))
                case .json:
                    body(key, .json(Self.bytes(buffer, count: Int(LEB128.read(buffer, at: &offset)), &offset)))
                case .double: body(key, .scalar(.double(Double(bitPattern: Self.fixed(buffer, &offset)))))
                case .false: body(key, .scalar(.bool(false)))
                case .true: body(key, .scalar(.bool(true)))
                }
            }
        }
    }

    // MARK: Encoding

    @inline(__always)
    private static func bytes(_ buffer: UnsafeRawBufferPointer, count: Int, _ offset: inout Int)
        -> UnsafeRawBufferPointer
    {
        let field = UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
        offset += count
        return field
    }

    /// The integer of `count` bytes at `offset`, sign-extended.
    @inline(__always)
    private static func integer(_ buffer: UnsafeRawBufferPointer, count: Int, at offset: Int) -> Int64 {
        var bits: UInt64 = 0
        if offset + 8 <= buffer.count {
            bits = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        } else {
            for index in 0..<count { bits |= UInt64(buffer[offset + index]) << (8 * index) }
        }
        let unused = UInt64(64 - 8 * count)
        return Int64(bitPattern: bits << unused) >> unused
    }

    private static func fixed(_ buffer: UnsafeRawBufferPointer, _ offset: inout Int) -> UInt64 {
        let value = buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return UInt64(littleEndian: value)
    }
}

/// Two sets of packed attributes in one storage, the first from its start and the second right
/// after: a value proposition's attributes and action attributes, in 16 bytes rather than 32,
/// so that a record stays within 80 bytes (`RecordSizeTests`), and one allocation rather than
/// two. Unchecked `Sendable` as ``PackedAttributes`` is.
@usableFromInline struct PackedAttributePair: @unchecked Sendable {
    @usableFromInline var storage: PackedByteStorage?
    @usableFromInline var firstCount: Int32
    @usableFromInline var secondCount: Int32

    /// The pair of `first` and `second`, in the storage one of them has when the other is empty
    /// or lies right after it there, in new storage of both otherwise.
    init(_ first: PackedAttributes, _ second: PackedAttributes) {
        firstCount = first.count
        secondCount = second.count
        if second.isEmpty, first.start == 0 {
            storage = first.storage
        } else if first.isEmpty, second.start == 0 {
            storage = second.storage
        } else if first.start == 0, first.storage === second.storage, second.start == first.count {
            storage = first.storage
        } else {
            let made = PackedByteStorage.make(capacity: Int(first.count) + Int(second.count))
            first.withPackedBytes { made.write($0, at: 0) }
            second.withPackedBytes { made.write($0, at: Int(first.count)) }
            storage = made
        }
    }

    var first: PackedAttributes { PackedAttributes(pairStorage: storage, start: 0, count: firstCount) }
    var second: PackedAttributes {
        PackedAttributes(pairStorage: storage, start: firstCount, count: secondCount)
    }
}

extension PackedAttributes {
    /// One of a ``PackedAttributePair``'s: none when `count` is 0.
    fileprivate init(pairStorage: PackedByteStorage?, start: Int32, count: Int32) {
        self.init()
        guard count > 0 else { return }
        storage = pairStorage
        self.start = start
        self.count = count
    }
}
