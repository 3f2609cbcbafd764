/// Attributes packed into one byte buffer, as records keep them while their session is open.
///
/// A decoded record waits in memory until its session closes, and its attributes as a
/// dictionary took some 800 bytes (keys, values, the table's free slots); packed, they take
/// about what their JSON did. ``unpacked()`` gives the dictionary back when the record is
/// replayed.
///
/// Layout, entry after entry: the key (length, UTF-8 bytes), a kind byte, then the value:
/// a string as length and bytes, an integer or a double as 8 little-endian bytes, a Boolean
/// in its kind. Lengths are LEB128 varints. Keys are unique; buffers packed from a
/// dictionary list them in UTF-8 byte order, so equal dictionaries pack equal.
public struct PackedAttributes: Hashable, Sendable {
    private var bytes: [UInt8] = []

    private enum Kind: UInt8 {
        case string = 0
        case int = 1
        case double = 2
        case `false` = 3
        case `true` = 4
    }

    /// No attributes.
    public init() {}

    /// Packs a dictionary, keys in UTF-8 byte order.
    public init(_ attributes: Attributes) {
        guard !attributes.isEmpty else { return }
        let entries = attributes.sorted { $0.key < $1.key }
        var size = 0
        for (key, value) in entries {
            let keyBytes = key.rawValue.utf8.count
            switch value {
            case .string(let text):
                size += Self.packedSize(keyBytes: keyBytes, valueBytes: text.utf8.count, isString: true)
            case .int, .double: size += Self.packedSize(keyBytes: keyBytes, valueBytes: 8, isString: false)
            case .bool: size += Self.packedSize(keyBytes: keyBytes, valueBytes: 0, isString: false)
            }
        }
        self = Self.pack(byteCount: size) { writer in
            for (key, value) in entries {
                var name = key.rawValue
                name.withUTF8 { name in
                    let key = UnsafeRawBufferPointer(name)
                    switch value {
                    case .string(var text):
                        text.withUTF8 { writer.append(key: key, string: UnsafeRawBufferPointer($0)) }
                    case .int(let number): writer.append(key: key, int: number)
                    case .double(let number): writer.append(key: key, double: number)
                    case .bool(let flag): writer.append(key: key, bool: flag)
                    }
                }
            }
        }
    }

    /// Whether there are none.
    public var isEmpty: Bool { bytes.isEmpty }

    // MARK: Packing entries one by one

    /// Packs entries that take `byteCount` bytes (the sum of their
    /// ``packedSize(keyBytes:valueBytes:isString:)``), written by `body` into storage of
    /// exactly that size. The caller keeps keys unique.
    public static func pack(byteCount: Int, _ body: (inout Writer) -> Void) -> PackedAttributes {
        var packed = PackedAttributes()
        packed.bytes = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            var writer = Writer(buffer: UnsafeMutableRawBufferPointer(buffer))
            body(&writer)
            precondition(writer.offset == byteCount, "packed entries differ from their announced size")
            initialized = byteCount
        }
        return packed
    }

    /// Writes entries into the storage of ``pack(byteCount:_:)``.
    public struct Writer {
        fileprivate let buffer: UnsafeMutableRawBufferPointer
        fileprivate var offset = 0

        /// Appends a string attribute.
        public mutating func append(key: UnsafeRawBufferPointer, string: UnsafeRawBufferPointer) {
            write(key)
            writeByte(Kind.string.rawValue)
            write(string)
        }

        /// Appends an integer attribute.
        public mutating func append(key: UnsafeRawBufferPointer, int: Int64) {
            write(key)
            writeFixed(.int, UInt64(bitPattern: int))
        }

        /// Appends a floating-point attribute.
        public mutating func append(key: UnsafeRawBufferPointer, double: Double) {
            write(key)
            writeFixed(.double, double.bitPattern)
        }

        /// Appends a Boolean attribute.
        public mutating func append(key: UnsafeRawBufferPointer, bool: Bool) {
            write(key)
            writeByte(bool ? Kind.true.rawValue : Kind.false.rawValue)
        }

        private mutating func writeByte(_ byte: UInt8) {
            buffer[offset] = byte
            offset += 1
        }

        private mutating func write(_ data: UnsafeRawBufferPointer) {
            var length = UInt(data.count)
            while length >= 0x80 {
                writeByte(UInt8(truncatingIfNeeded: length) | 0x80)
                length >>= 7
            }
            writeByte(UInt8(length))
            if let source = data.baseAddress, let target = buffer.baseAddress, data.count > 0 {
                (target + offset).copyMemory(from: source, byteCount: data.count)
            }
            offset += data.count
        }

        private mutating func writeFixed(_ kind: Kind, _ value: UInt64) {
            writeByte(kind.rawValue)
            buffer.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt64.self)
            offset += 8
        }
    }

    /// The bytes an entry takes: its key's and value's lengths with their length prefixes,
    /// and the kind byte. `valueBytes` is a string's length, 8 for a number, 0 for a Boolean.
    public static func packedSize(keyBytes: Int, valueBytes: Int, isString: Bool) -> Int {
        varintSize(keyBytes) + keyBytes + 1 + valueBytes + (isString ? varintSize(valueBytes) : 0)
    }

    private static func varintSize(_ value: Int) -> Int {
        var size = 1
        var rest = value >> 7
        while rest > 0 {
            size += 1
            rest >>= 7
        }
        return size
    }

    // MARK: Unpacking

    /// The attributes as a dictionary.
    public func unpacked() -> Attributes {
        var attributes = Attributes()
        forEachEntry { key, value in
            let name = AttributeKey(String(decoding: key, as: UTF8.self))
            switch value {
            case .string(let text): attributes[name] = .string(String(decoding: text, as: UTF8.self))
            case .scalar(let value): attributes[name] = value
            }
        }
        return attributes
    }

    /// The value of one attribute, or `nil` when there is none: a walk over the entries that
    /// compares names only where the lengths match, with no dictionary and no string made
    /// but the value's (measured: unpacking every attribute of each replayed record cost
    /// some 4,000 instructions a record, where its events read a few).
    public subscript(key: AttributeKey) -> AttributeValue? {
        guard !bytes.isEmpty else { return nil }
        let found = key.rawValue.utf8.withContiguousStorageIfAvailable { name in
            value(named: UnsafeRawBufferPointer(name))
        }
        if let found { return found }
        return Array(key.rawValue.utf8).withUnsafeBytes { value(named: $0) }
    }

    private func value(named name: UnsafeRawBufferPointer) -> AttributeValue? {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let key = Self.field(buffer, &offset)
                let matches = key.count == name.count && Self.equal(key, name)
                let kind = Kind(rawValue: buffer[offset]) ?? .false
                offset += 1
                switch kind {
                case .string:
                    let text = Self.field(buffer, &offset)
                    if matches { return .string(String(decoding: text, as: UTF8.self)) }
                case .int:
                    let number = Self.fixed(buffer, &offset)
                    if matches { return .int(Int64(bitPattern: number)) }
                case .double:
                    let number = Self.fixed(buffer, &offset)
                    if matches { return .double(Double(bitPattern: number)) }
                case .false:
                    if matches { return .bool(false) }
                case .true:
                    if matches { return .bool(true) }
                }
            }
            return nil
        }
    }

    /// A packed value: a string's bytes, or a number or Boolean.
    private enum Entry {
        case string(UnsafeRawBufferPointer)
        case scalar(AttributeValue)
    }

    /// Calls `body` with each entry's key bytes and value, in packing order.
    private func forEachEntry(_ body: (UnsafeRawBufferPointer, Entry) -> Void) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let key = Self.field(buffer, &offset)
                let kind = Kind(rawValue: buffer[offset]) ?? .false
                offset += 1
                switch kind {
                case .string: body(key, .string(Self.field(buffer, &offset)))
                case .int: body(key, .scalar(.int(Int64(bitPattern: Self.fixed(buffer, &offset)))))
                case .double: body(key, .scalar(.double(Double(bitPattern: Self.fixed(buffer, &offset)))))
                case .false: body(key, .scalar(.bool(false)))
                case .true: body(key, .scalar(.bool(true)))
                }
            }
        }
    }

    // MARK: Encoding

    /// A length-prefixed field's bytes.
    private static func field(_ buffer: UnsafeRawBufferPointer, _ offset: inout Int) -> UnsafeRawBufferPointer {
        var length = 0
        var shift = 0
        while true {
            let byte = buffer[offset]
            offset += 1
            length |= Int(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        let field = UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + length])
        offset += length
        return field
    }

    /// Whether two byte strings of the same length are the same, compared eight at a time.
    private static func equal(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset + 8 <= lhs.count {
            if lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        while offset < lhs.count {
            if lhs[offset] != rhs[offset] { return false }
            offset += 1
        }
        return true
    }

    private static func fixed(_ buffer: UnsafeRawBufferPointer, _ offset: inout Int) -> UInt64 {
        let value = buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return UInt64(littleEndian: value)
    }
}
