/// A compact binary `Encoder` and `Decoder` for the `Codable` state of `--state`, written as it
/// goes (no tree of values in between, nothing sorted but dictionaries) and read in place.
///
/// A value is a tag byte and what the tag says follows:
///
/// | tag | value | followed by |
/// |---|---|---|
/// | `0x80` to `0xFF` | the integer 0 to 127 (the tag less `0x80`) | nothing |
/// | `0x00` | nil | nothing |
/// | `0x01`, `0x02` | false, true | nothing |
/// | `0x03` | an integer `n` from 128 | `n` as a LEB128 varint |
/// | `0x04` | a negative integer `n` | `-1 - n` as a varint |
/// | `0x05` | a `Double` | its bit pattern, 8 bytes little-endian |
/// | `0x06` | a `Float` | its bit pattern, 4 bytes little-endian |
/// | `0x07` | a string | the varint length of its UTF-8, the UTF-8 |
/// | `0x08` | a keyed container | the varint length in bytes of its entries, the entries |
/// | `0x09` | an unkeyed container | the varint length in bytes of its values, the values |
///
/// An entry of a keyed container is its key (the varint length of the `stringValue`'s UTF-8,
/// the UTF-8, no tag) and its value, in the order the code wrote them. A value that wrote
/// nothing (an empty `encode(to:)`, an unused `superEncoder`) is an empty keyed container, as
/// with Foundation's coders. Integers of every width take the same bytes for the same number.
///
/// Deterministic: the same value, encoded by the same code, gives the same bytes. A dictionary
/// keyed by `String` or `Int` (a keyed container of the standard library's dictionary key) has
/// its entries sorted by their keys' UTF-8; a dictionary keyed otherwise is an unkeyed
/// container in its table's order, which changes from process to process: state keeps such a
/// dictionary sorted itself (``SortedAttributes``).
package struct StateEncoder: Sendable {
    /// What `Encoder.userInfo` gives the values encoded.
    package var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    package init() {}

    /// Appends the encoding of `value` to `bytes`; on error, `bytes` is left as it was.
    package func encode<T: Encodable>(_ value: T, into bytes: inout [UInt8]) throws {
        let writer = StateWriter(userInfo: userInfo)
        let start = bytes.count
        var isWhole = false
        swap(&writer.bytes, &bytes)
        defer {
            swap(&writer.bytes, &bytes)
            if !isWhole { bytes.removeSubrange(start...) }
        }
        try writer.encodeTopLevel(value)
        isWhole = true
    }
}

/// Reads what ``StateEncoder`` writes (the format is in its comment).
///
/// Every read is checked against the buffer's bounds: truncated or corrupt bytes throw
/// `DecodingError.dataCorrupted`, a missing key `keyNotFound`, a value of another type
/// `typeMismatch`, nil for a value that cannot be nil `valueNotFound`, an integer out of its
/// type's range `dataCorrupted`, containers nested deeper than ``maximumDepth``
/// `dataCorrupted`. A value of an unkeyed container that cannot be decoded is not skipped.
/// `superDecoder(forKey:)` throws `keyNotFound` for a missing key (Foundation's gives a decoder
/// of nil). Of a key written twice in a container, which one is read is unspecified.
package struct StateDecoder {
    /// What `Decoder.userInfo` gives the values decoded.
    package var userInfo: [CodingUserInfoKey: Any] = [:]

    /// How deep containers may nest.
    package static let maximumDepth = 256

    /// The largest magnitude an integer may have (`dataCorrupted` beyond it), but in values of
    /// the input, decoded within `decodingInputValues(_:_:)`; `nil` for none. A state file is
    /// read with `StoredRange/magnitude`: no counter, duration or time a run keeps comes
    /// near it, and the arithmetic the replay goes on with cannot overflow.
    package var integerLimit: UInt64?

    package init() {}

    /// Decodes one value from `bytes` (the whole buffer is the value). The buffer is read only
    /// during the call: a decoder a value keeps past it throws instead of reading it.
    package func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
        let reader = StateReader(bytes: StateBytes(bytes), userInfo: userInfo, integerLimit: integerLimit ?? .max)
        defer { reader.bytes = StateBytes(UnsafeRawBufferPointer(start: nil, count: 0)) }
        guard reader.bytes.end(ofValueAt: 0) == bytes.count else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "the bytes are not one whole encoded value"))
        }
        return try ValueReader(reader: reader, offset: 0, depth: 0).decode(T.self)
    }
}

/// Decodes a value of the input (an attribute's value, a bitrate a record gave), whose integers
/// ``StateDecoder/integerLimit`` does not limit: a record may give any `Int64`. With another
/// decoder, just `body`.
package func decodingInputValues<T>(_ decoder: any Decoder, _ body: () throws -> T) rethrows -> T {
    guard let reader = (decoder as? ValueReader)?.reader else { return try body() }
    reader.inputValues += 1
    defer { reader.inputValues -= 1 }
    return try body()
}

// MARK: - Format

/// The tags of the format (``StateEncoder``).
enum StateTag {
    static let null: UInt8 = 0x00
    static let `false`: UInt8 = 0x01
    static let `true`: UInt8 = 0x02
    static let integer: UInt8 = 0x03
    static let negative: UInt8 = 0x04
    static let double: UInt8 = 0x05
    static let float: UInt8 = 0x06
    static let string: UInt8 = 0x07
    static let keyed: UInt8 = 0x08
    static let unkeyed: UInt8 = 0x09
    /// `smallInteger | n` is the integer `n`, 0 to 127.
    static let smallInteger: UInt8 = 0x80

    static func name(_ tag: UInt8) -> String {
        switch tag {
        case null: "nil"
        case `false`, `true`: "a Boolean"
        case integer, negative, smallInteger...: "an integer"
        case double: "a Double"
        case float: "a Float"
        case string: "a string"
        case keyed: "a keyed container"
        case unkeyed: "an unkeyed container"
        default: "tag \(tag)"
        }
    }
}

/// The bytes a ``StateReader`` reads: the one place the state codec reads through a pointer.
///
/// Invariant: every read checks its offset against `buffer.count` first, so that no bytes,
/// however truncated or corrupt, make it read outside the buffer; the buffer stays valid while
/// the reader reads it (``StateDecoder/decode(_:from:)`` empties the reader's view before it
/// returns). Checked by `StateCodecTests` (every truncation of an encoding, corrupt bytes).
struct StateBytes {
    let buffer: UnsafeRawBufferPointer

    init(_ buffer: UnsafeRawBufferPointer) {
        self.buffer = buffer
    }

    var count: Int { buffer.count }

    func byte(at offset: Int) -> UInt8? {
        guard offset >= 0, offset < buffer.count else { return nil }
        return buffer[offset]
    }

    /// The LEB128 varint at `offset`, moving `offset` past it; nil when it runs past the end or
    /// takes more than 10 bytes.
    func varint(at offset: inout Int) -> UInt64? {
        if offset >= 0, offset < buffer.count, buffer[offset] < 0x80 {
            offset += 1
            return UInt64(buffer[offset - 1])
        }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset >= 0, offset < buffer.count, shift < 70 {
            let byte = buffer[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    /// A varint that counts bytes following it: nil unless all of them are in the buffer.
    func length(at offset: inout Int) -> Int? {
        guard let length = varint(at: &offset), length <= UInt64(buffer.count - offset) else { return nil }
        return Int(length)
    }

    /// `size` bytes at `offset`, little-endian.
    func littleEndian(at offset: Int, size: Int) -> UInt64? {
        guard offset >= 0, size <= buffer.count - offset else { return nil }
        var value: UInt64 = 0
        for index in 0..<size {
            value |= UInt64(buffer[offset + index]) << UInt64(8 * index)
        }
        return value
    }

    /// The string of the `count` bytes at `offset`, nil if they run past the end or are not UTF-8.
    func string(at offset: Int, count: Int) -> String? {
        guard offset >= 0, count >= 0, count <= buffer.count - offset else { return nil }
        let utf8 = UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
        var string = String(decoding: utf8, as: UTF8.self)
        var isASCII = true
        for byte in utf8 where byte >= 0x80 {
            isASCII = false
            break
        }
        if isASCII { return string }
        // Decoding replaces what is not UTF-8 (with U+FFFD): the bytes are UTF-8 if it gives them back.
        return string.withUTF8 { $0.elementsEqual(utf8) } ? string : nil
    }

    /// Whether the `count` bytes at `offset` are `name`.
    func bytes(at offset: Int, count: Int, equal name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == name.count, offset >= 0, count <= buffer.count - offset else { return false }
        for index in 0..<count where buffer[offset + index] != name[index] { return false }
        return true
    }

    /// Whether the `count` bytes at `offset` sort before the `otherCount` at `other`.
    func bytes(at offset: Int, count: Int, precede other: Int, count otherCount: Int) -> Bool {
        for index in 0..<min(count, otherCount) {
            let (left, right) = (byte(at: offset + index) ?? 0, byte(at: other + index) ?? 0)
            if left != right { return left < right }
        }
        return count < otherCount
    }

    /// The offset just past the value at `offset`; nil when it is not whole in the buffer. A
    /// container's contents are not looked at.
    func end(ofValueAt offset: Int) -> Int? {
        guard let tag = byte(at: offset) else { return nil }
        var position = offset + 1
        switch tag {
        case StateTag.smallInteger..., StateTag.null, StateTag.false, StateTag.true:
            return position
        case StateTag.integer, StateTag.negative:
            return varint(at: &position) == nil ? nil : position
        case StateTag.double:
            return 8 <= buffer.count - position ? position + 8 : nil
        case StateTag.float:
            return 4 <= buffer.count - position ? position + 4 : nil
        case StateTag.string, StateTag.keyed, StateTag.unkeyed:
            guard let length = length(at: &position) else { return nil }
            return position + length
        default:
            return nil
        }
    }
}

/// A key the codec makes itself: a coding path's index in an unkeyed container, `super`, a key
/// read back to say where an error is.
struct StateCodingKey: CodingKey {
    private let name: String?
    let intValue: Int?

    init(stringValue: String) {
        name = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        name = nil
        self.intValue = intValue
    }

    /// An index's name is made only when asked (for an error).
    var stringValue: String { name ?? "Index \(intValue ?? 0)" }

    static let `super` = StateCodingKey(stringValue: "super")
}

// MARK: - Encoding

/// The state of one encoding: the bytes, and the stack of what is open in them.
///
/// Codable has no call that closes a container, so a container stays open (its length not yet
/// written) until something is written to a container outside it or the encoding ends; writing
/// to a container that was closed so is an error (``failure``, thrown at the latest when the
/// encoding ends, since some of the calls cannot throw).
final class StateWriter {
    /// What is open, outermost first: containers, and value slots that nothing has been
    /// written to yet.
    struct Frame {
        enum Kind {
            /// A value's place, nothing written to it yet.
            case slot
            case keyed
            /// A keyed container of a dictionary, sorted when it closes.
            case dictionary
            case unkeyed
        }
        var kind: Kind
        /// Unique to this frame, so that a container closed and a new one at its depth differ.
        var id: Int
        /// A container's first byte after its tag, where its length goes once known.
        var start: Int
        /// Where its key is, for `codingPath`: from 0, the offset of the key written before
        /// it; -1 - n, the index n in an unkeyed container; `Int.min`, none (the outermost).
        var keyAt: Int
    }

    var bytes: [UInt8] = []
    var frames: [Frame] = []
    var nextID = 0
    var failure: EncodingError?
    let userInfo: [CodingUserInfoKey: Any]
    /// Whether this writer only finds out the type of dictionary keys (``dictionaryKeyType``).
    private let isProbe: Bool

    init(userInfo: [CodingUserInfoKey: any Sendable], isProbe: Bool = false) {
        self.userInfo = userInfo
        self.isProbe = isProbe
    }

    /// The standard library's key of a dictionary encoded as a keyed container (it is not
    /// public): found by encoding a dictionary once.
    private static let dictionaryKeyType: ObjectIdentifier? = {
        let probe = StateWriter(userInfo: [:], isProbe: true)
        try? probe.encodeTopLevel(["": 0])
        return probe.probedKeyType
    }()
    private var probedKeyType: ObjectIdentifier?

    func encodeTopLevel<T: Encodable>(_ value: T) throws {
        if !writePrimitive(value) {
            try encode(value, inSlot: 0, id: push(.slot, keyAt: .min))
        }
        close(above: -1)
        if let failure { throw failure }
    }

    /// Writes `value` if it is a string, integer, Double or Boolean (the values of arrays, the
    /// most common, written without a slot); false if not.
    func writePrimitive<T: Encodable>(_ value: T) -> Bool {
        if T.self == String.self, let value = value as? String {
            write(value)
        } else if T.self == Int64.self, let value = value as? Int64 {
            write(value)
        } else if T.self == Int.self, let value = value as? Int {
            write(Int64(value))
        } else if T.self == Double.self, let value = value as? Double {
            write(value)
        } else if T.self == Bool.self, let value = value as? Bool {
            write(value)
        } else {
            return false
        }
        return true
    }

    /// Writes `value` as the next value of the container at the top of the stack (its key
    /// written), in a slot of its own.
    func encode<T: Encodable>(_ value: T, keyAt: Int) throws {
        if writePrimitive(value) { return }
        let depth = frames.count
        try encode(value, inSlot: depth, id: push(.slot, keyAt: keyAt))
    }

    /// Encodes `value` into the slot `id` at `depth`, the top of the stack, and closes it (and
    /// what the value left open in it) since the value is whole.
    func encode<T: Encodable>(_ value: T, inSlot depth: Int, id: Int) throws {
        try value.encode(to: SlotWriter(writer: self, depth: depth, id: id))
        if depth < frames.count, frames[depth].id == id { close(above: depth - 1) }
    }

    /// Pushes a frame and gives its id.
    func push(_ kind: Frame.Kind, keyAt: Int) -> Int {
        nextID += 1
        frames.append(Frame(kind: kind, id: nextID, start: bytes.count, keyAt: keyAt))
        return nextID
    }

    /// Whether the frame `id` is open at `depth`, closing what is open inside it.
    func enter(_ depth: Int, _ id: Int) -> Bool {
        guard depth >= 0, depth < frames.count, frames[depth].id == id else { return false }
        if frames.count > depth + 1 { close(above: depth) }
        return true
    }

    /// Closes the frames deeper than `depth`.
    func close(above depth: Int) {
        while frames.count > depth + 1 {
            let frame = frames.removeLast()
            switch frame.kind {
            case .slot:
                // A value that wrote nothing: an empty keyed container, as with Foundation's coders.
                bytes.append(StateTag.keyed)
                bytes.append(0)
            case .keyed, .unkeyed:
                writeLength(of: frame.start)
            case .dictionary:
                sortEntries(from: frame.start + 1)
                writeLength(of: frame.start)
            }
        }
    }

    /// Writes the length of the container whose contents follow the byte at `start`, kept for
    /// it, making room for a length of more than one byte.
    private func writeLength(of start: Int) {
        let length = bytes.count - start - 1
        if length < 0x80 {
            bytes[start] = UInt8(length)
            return
        }
        let size = LEB128.size(of: UInt(length))
        bytes.insert(contentsOf: repeatElement(0, count: size - 1), at: start + 1)
        var rest = length
        for offset in start..<start + size {
            bytes[offset] = UInt8(truncatingIfNeeded: rest) | (offset < start + size - 1 ? 0x80 : 0)
            rest >>= 7
        }
    }

    /// Sorts the entries from `start` to the end by their keys' bytes.
    private func sortEntries(from start: Int) {
        var entries: [(start: Int, key: Int, keyCount: Int, end: Int)] = []
        let sorted: [UInt8]? = bytes.withUnsafeBytes { buffer in
            let bytes = StateBytes(buffer)
            var position = start
            while position < bytes.count {
                let entryStart = position
                guard let keyCount = bytes.length(at: &position), let end = bytes.end(ofValueAt: position + keyCount)
                else { return nil }
                entries.append((entryStart, position, keyCount, end))
                position = end
            }
            entries.sort { bytes.bytes(at: $0.key, count: $0.keyCount, precede: $1.key, count: $1.keyCount) }
            var sorted: [UInt8] = []
            sorted.reserveCapacity(buffer.count - start)
            for entry in entries {
                sorted.append(contentsOf: buffer[entry.start..<entry.end])
            }
            return sorted
        }
        if let sorted, sorted.count == bytes.count - start {
            bytes.replaceSubrange(start..., with: sorted)
        }
    }

    func fail(_ description: String, _ depth: Int) {
        guard failure == nil else { return }
        failure = .invalidValue(
            (), .init(codingPath: codingPath(depth), debugDescription: description))
    }

    func closedError(_ depth: Int) -> EncodingError {
        fail("written to a container or value that was closed: a deeper one was written after it", depth)
        return failure ?? .invalidValue((), .init(codingPath: [], debugDescription: "closed"))
    }

    /// The keys of the frames to `depth`, or as many as are still open.
    func codingPath(_ depth: Int) -> [any CodingKey] {
        bytes.withUnsafeBytes { buffer in
            frames.prefix(depth + 1).compactMap { frame -> (any CodingKey)? in
                if frame.keyAt == .min { return nil }
                if frame.keyAt < 0 { return StateCodingKey(intValue: -1 - frame.keyAt) }
                let bytes = StateBytes(buffer)
                var offset = frame.keyAt
                let count = bytes.length(at: &offset) ?? 0
                return StateCodingKey(stringValue: bytes.string(at: offset, count: count) ?? "?")
            }
        }
    }

    /// A keyed container begun in the slot `id` at `depth`, or the one already begun there.
    func keyedContainer<Key: CodingKey>(_: Key.Type, depth: Int, id: Int) -> KeyedWriter<Key> {
        guard enter(depth, id) else {
            fail("a container asked for of a value that was closed", depth)
            return KeyedWriter(writer: self, depth: depth, id: -1)
        }
        switch frames[depth].kind {
        case .slot:
            if isProbe { probedKeyType = ObjectIdentifier(Key.self) }
            let isDictionary = !isProbe && ObjectIdentifier(Key.self) == Self.dictionaryKeyType
            bytes.append(StateTag.keyed)
            frames[depth].kind = isDictionary ? .dictionary : .keyed
            frames[depth].start = bytes.count
            bytes.append(0)
        case .keyed, .dictionary:
            break
        case .unkeyed:
            fail("a keyed container asked for of a value with an unkeyed one", depth)
            return KeyedWriter(writer: self, depth: depth, id: -1)
        }
        return KeyedWriter(writer: self, depth: depth, id: id)
    }

    /// An unkeyed container begun in the slot `id` at `depth`.
    func unkeyedContainer(depth: Int, id: Int) -> UnkeyedWriter {
        guard enter(depth, id) else {
            fail("a container asked for of a value that was closed", depth)
            return UnkeyedWriter(writer: self, depth: depth, id: -1)
        }
        switch frames[depth].kind {
        case .slot:
            bytes.append(StateTag.unkeyed)
            frames[depth].kind = .unkeyed
            frames[depth].start = bytes.count
            bytes.append(0)
        case .unkeyed:
            break
        case .keyed, .dictionary:
            fail("an unkeyed container asked for of a value with a keyed one", depth)
            return UnkeyedWriter(writer: self, depth: depth, id: -1)
        }
        return UnkeyedWriter(writer: self, depth: depth, id: id)
    }

    /// Writes a key, the container at `depth` having been entered, and gives its offset.
    @discardableResult
    func writeKey(_ key: some CodingKey) -> Int {
        let offset = bytes.count
        var name = key.stringValue
        name.withUTF8 { name in
            writeVarint(UInt64(name.count))
            if name.count <= 8 {
                // Byte by byte: cheaper than `append(contentsOf:)` for the short keys of state.
                for byte in name { bytes.append(byte) }
            } else {
                bytes.append(contentsOf: name)
            }
        }
        return offset
    }

    func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    func write(_ value: UInt64) {
        if value < 0x80 {
            bytes.append(StateTag.smallInteger | UInt8(value))
        } else {
            bytes.append(StateTag.integer)
            writeVarint(value)
        }
    }

    func write(_ value: Int64) {
        if value >= 0 {
            write(UInt64(value))
        } else {
            bytes.append(StateTag.negative)
            writeVarint(UInt64(bitPattern: ~value))
        }
    }

    func write(_ value: Double) {
        bytes.append(StateTag.double)
        var bits = value.bitPattern
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    func write(_ value: Float) {
        bytes.append(StateTag.float)
        var bits = value.bitPattern
        for _ in 0..<4 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    func write(_ value: String) {
        bytes.append(StateTag.string)
        var value = value
        value.withUTF8 { utf8 in
            writeVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    func write(_ value: Bool) {
        bytes.append(value ? StateTag.true : StateTag.false)
    }
}

/// The `Encoder` of one value: the slot `id` at `depth` of the writer's stack.
struct SlotWriter: Encoder {
    let writer: StateWriter
    let depth: Int
    let id: Int

    var codingPath: [any CodingKey] { writer.codingPath(depth) }
    var userInfo: [CodingUserInfoKey: Any] { writer.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(writer.keyedContainer(Key.self, depth: depth, id: id))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.unkeyedContainer(depth: depth, id: id)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueWriter(writer: writer, depth: depth, id: id)
    }
}

/// A value's single-value container: writing to it fills the slot and closes it.
struct SingleValueWriter: SingleValueEncodingContainer {
    let writer: StateWriter
    let depth: Int
    let id: Int

    var codingPath: [any CodingKey] { writer.codingPath(depth) }

    /// Enters the slot, throwing when it was closed or filled.
    private func enter() throws {
        guard writer.enter(depth, id), writer.frames[depth].kind == .slot else {
            throw writer.closedError(depth)
        }
    }

    private func filled() {
        writer.frames.removeLast()
    }

    mutating func encodeNil() throws {
        try enter()
        writer.bytes.append(StateTag.null)
        filled()
    }
    mutating func encode(_ value: Bool) throws {
        try enter()
        writer.write(value)
        filled()
    }
    mutating func encode(_ value: String) throws {
        try enter()
        writer.write(value)
        filled()
    }
    mutating func encode(_ value: Double) throws {
        try enter()
        writer.write(value)
        filled()
    }
    mutating func encode(_ value: Float) throws {
        try enter()
        writer.write(value)
        filled()
    }
    mutating func encode(_ value: Int) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int8) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int16) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int32) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int64) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt8) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt16) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt32) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt64) throws { try encodeInteger(value) }

    private func encodeInteger(_ value: some FixedWidthInteger) throws {
        try enter()
        writer.writeInteger(value)
        filled()
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try enter()
        if writer.writePrimitive(value) {
            filled()
        } else {
            try writer.encode(value, inSlot: depth, id: id)
        }
    }
}

extension StateWriter {
    func writeInteger(_ value: some FixedWidthInteger) {
        if value < 0 {
            write(Int64(value))
        } else {
            write(UInt64(value))
        }
    }
}

/// A keyed container: the frame `id` at `depth` (`id` -1: one that could not be made).
struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: StateWriter
    let depth: Int
    let id: Int

    var codingPath: [any CodingKey] { writer.codingPath(depth) }

    /// Enters the container and writes `key`, throwing when it was closed; gives the key's offset.
    @discardableResult
    private func enter(_ key: Key) throws -> Int {
        guard writer.enter(depth, id) else { throw writer.closedError(depth) }
        return writer.writeKey(key)
    }

    mutating func encodeNil(forKey key: Key) throws {
        try enter(key)
        writer.bytes.append(StateTag.null)
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try enter(key)
        writer.write(value)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        try enter(key)
        writer.write(value)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try enter(key)
        writer.write(value)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try enter(key)
        writer.write(value)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeInteger(value, key) }

    private func encodeInteger(_ value: some FixedWidthInteger, _ key: Key) throws {
        try enter(key)
        writer.writeInteger(value)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try writer.encode(value, keyAt: try enter(key))
    }

    // Nothing for nil, as the protocol's defaults do, without their generic detour.

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encodeInteger(value, key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encodeInteger(value, key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encodeInteger(value, key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encodeInteger(value, key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encodeInteger(value, key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encodeInteger(value, key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encodeInteger(value, key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encodeInteger(value, key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encodeInteger(value, key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encodeInteger(value, key) }
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try writer.encode(value, keyAt: try enter(key)) }
    }

    /// Enters the container, writes `key` and opens a slot for its value.
    private func slot(_ key: some CodingKey) -> Int? {
        guard writer.enter(depth, id) else {
            writer.fail("written to a container that was closed: a deeper one was written after it", depth)
            return nil
        }
        return writer.push(.slot, keyAt: writer.writeKey(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        guard let slot = slot(key) else {
            return KeyedEncodingContainer(KeyedWriter<NestedKey>(writer: writer, depth: depth + 1, id: -1))
        }
        return KeyedEncodingContainer(writer.keyedContainer(NestedKey.self, depth: depth + 1, id: slot))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        guard let slot = slot(key) else { return UnkeyedWriter(writer: writer, depth: depth + 1, id: -1) }
        return writer.unkeyedContainer(depth: depth + 1, id: slot)
    }

    mutating func superEncoder() -> any Encoder {
        SlotWriter(writer: writer, depth: depth + 1, id: slot(StateCodingKey.super) ?? -1)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        SlotWriter(writer: writer, depth: depth + 1, id: slot(key) ?? -1)
    }
}

/// An unkeyed container: the frame `id` at `depth` (`id` -1: one that could not be made).
struct UnkeyedWriter: UnkeyedEncodingContainer {
    let writer: StateWriter
    let depth: Int
    let id: Int
    private(set) var count = 0

    init(writer: StateWriter, depth: Int, id: Int) {
        self.writer = writer
        self.depth = depth
        self.id = id
    }

    var codingPath: [any CodingKey] { writer.codingPath(depth) }

    /// Enters the container for one more value, throwing when it was closed.
    private mutating func enter() throws {
        guard writer.enter(depth, id) else { throw writer.closedError(depth) }
        count += 1
    }

    mutating func encodeNil() throws {
        try enter()
        writer.bytes.append(StateTag.null)
    }
    mutating func encode(_ value: Bool) throws {
        try enter()
        writer.write(value)
    }
    mutating func encode(_ value: String) throws {
        try enter()
        writer.write(value)
    }
    mutating func encode(_ value: Double) throws {
        try enter()
        writer.write(value)
    }
    mutating func encode(_ value: Float) throws {
        try enter()
        writer.write(value)
    }
    mutating func encode(_ value: Int) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int8) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int16) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int32) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int64) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt8) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt16) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt32) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt64) throws { try encodeInteger(value) }

    private mutating func encodeInteger(_ value: some FixedWidthInteger) throws {
        try enter()
        writer.writeInteger(value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try enter()
        try writer.encode(value, keyAt: -count)
    }

    /// Enters the container and opens a slot for one more value.
    private mutating func slot() -> Int {
        guard writer.enter(depth, id) else {
            writer.fail("written to a container that was closed: a deeper one was written after it", depth)
            return -1
        }
        count += 1
        return writer.push(.slot, keyAt: -count)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(writer.keyedContainer(NestedKey.self, depth: depth + 1, id: slot()))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.unkeyedContainer(depth: depth + 1, id: slot())
    }

    mutating func superEncoder() -> any Encoder {
        SlotWriter(writer: writer, depth: depth + 1, id: slot())
    }
}

// MARK: - Decoding

/// The state of one decoding: the bytes and the user's info.
final class StateReader {
    var bytes: StateBytes
    let userInfo: [CodingUserInfoKey: Any]
    /// The indexes of the keyed containers opened so far (``KeyedReader``), one after the other
    /// (one array a decoding, not one a container): for each, where its next search starts (the
    /// entry after the one found last, since code mostly reads keys in the order it wrote them),
    /// then each entry's key offset (its UTF-8's, past its length) and value offset, in the
    /// order written.
    var index: [Int] = []
    /// ``StateDecoder/integerLimit``, and how many values of the input are being decoded (in
    /// which integers are not limited).
    let integerLimit: UInt64
    var inputValues = 0

    init(bytes: StateBytes, userInfo: [CodingUserInfoKey: Any], integerLimit: UInt64 = .max) {
        self.bytes = bytes
        self.userInfo = userInfo
        self.integerLimit = integerLimit
    }

    /// The keys from the outermost value to the value at `target`, found by walking down to it
    /// (containers keep no path: it is only needed for errors). The keys are the codec's own,
    /// with the names written.
    func codingPath(to target: Int) -> [any CodingKey] {
        var path: [any CodingKey] = []
        var offset = 0
        descending: while offset != target, path.count <= StateDecoder.maximumDepth {
            guard let tag = bytes.byte(at: offset), tag == StateTag.keyed || tag == StateTag.unkeyed else { break }
            var position = offset + 1
            guard let length = bytes.length(at: &position) else { break }
            let end = position + length
            var index = 0
            while position < end {
                var key: any CodingKey = StateCodingKey(intValue: index)
                if tag == StateTag.keyed {
                    guard let keyCount = bytes.length(at: &position) else { break descending }
                    key = StateCodingKey(stringValue: bytes.string(at: position, count: keyCount) ?? "?")
                    position += keyCount
                }
                guard let valueEnd = bytes.end(ofValueAt: position), valueEnd <= end else { break descending }
                if position <= target, target < valueEnd {
                    path.append(key)
                    offset = position
                    continue descending
                }
                position = valueEnd
                index += 1
            }
            break
        }
        return path
    }

    /// Corrupt bytes, at the value at `offset`.
    func corrupt(_ description: String, at offset: Int) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath(to: offset), debugDescription: description))
    }

    /// The value at `offset` is not a `type`: nil, another type, or no value at all.
    func mismatch(_ type: Any.Type, at offset: Int) -> DecodingError {
        let path = codingPath(to: offset)
        guard let tag = bytes.byte(at: offset) else {
            return .dataCorrupted(.init(codingPath: path, debugDescription: "the bytes end before a value"))
        }
        if tag == StateTag.null {
            return .valueNotFound(type, .init(codingPath: path, debugDescription: "expected \(type), found nil"))
        }
        return .typeMismatch(
            type, .init(codingPath: path, debugDescription: "expected \(type), found \(StateTag.name(tag))"))
    }

    // The values at an offset, each checked as it is read.

    func isNil(at offset: Int) -> Bool {
        bytes.byte(at: offset) == StateTag.null
    }

    func bool(at offset: Int) throws -> Bool {
        switch bytes.byte(at: offset) {
        case StateTag.true: true
        case StateTag.false: false
        default: throw mismatch(Bool.self, at: offset)
        }
    }

    func integer<T: FixedWidthInteger>(_: T.Type, at offset: Int) throws -> T {
        guard let tag = bytes.byte(at: offset) else { throw mismatch(T.self, at: offset) }
        if tag >= StateTag.smallInteger { return T(tag & 0x7F) }
        var position = offset + 1
        guard tag == StateTag.integer || tag == StateTag.negative else { throw mismatch(T.self, at: offset) }
        guard let magnitude = bytes.varint(at: &position) else {
            throw corrupt("the bytes end within an integer", at: offset)
        }
        // Beyond the limit: a positive number above it, a negative one (-1 - magnitude) below minus it.
        if magnitude >= integerLimit, integerLimit != .max, inputValues == 0,
            tag == StateTag.negative || magnitude > integerLimit
        {
            let number = tag == StateTag.integer ? "\(magnitude)" : "-\(magnitude)-1"
            throw corrupt("the number \(number) is beyond ±\(integerLimit), more than any run keeps", at: offset)
        }
        if tag == StateTag.integer {
            if let value = T(exactly: magnitude) { return value }
        } else if T.isSigned, magnitude <= UInt64(T.max) {
            // -1 - magnitude, which fits since magnitude <= T.max.
            return ~T(magnitude)
        }
        let number = tag == StateTag.integer ? "\(magnitude)" : "-\(magnitude)-1"
        throw corrupt("the number \(number) does not fit in \(T.self)", at: offset)
    }

    func double(at offset: Int) throws -> Double {
        switch bytes.byte(at: offset) {
        case StateTag.double:
            guard let bits = bytes.littleEndian(at: offset + 1, size: 8) else {
                throw corrupt("the bytes end within a Double", at: offset)
            }
            return Double(bitPattern: bits)
        case StateTag.float:
            return Double(try float(at: offset))
        case .some(StateTag.integer), .some(StateTag.negative), .some(StateTag.smallInteger...):
            let value = try integer(Int64.self, at: offset)
            guard let double = Double(exactly: value) else {
                throw corrupt("the number \(value) does not fit in Double", at: offset)
            }
            return double
        default:
            throw mismatch(Double.self, at: offset)
        }
    }

    func float(at offset: Int) throws -> Float {
        switch bytes.byte(at: offset) {
        case StateTag.float:
            guard let bits = bytes.littleEndian(at: offset + 1, size: 4) else {
                throw corrupt("the bytes end within a Float", at: offset)
            }
            return Float(bitPattern: UInt32(truncatingIfNeeded: bits))
        case StateTag.double:
            let value = try double(at: offset)
            let float = Float(value)
            guard Double(float) == value || value.isNaN else {
                throw corrupt("the number \(value) does not fit in Float", at: offset)
            }
            return float
        case .some(StateTag.integer), .some(StateTag.negative), .some(StateTag.smallInteger...):
            let value = try integer(Int64.self, at: offset)
            guard let float = Float(exactly: value) else {
                throw corrupt("the number \(value) does not fit in Float", at: offset)
            }
            return float
        default:
            throw mismatch(Float.self, at: offset)
        }
    }

    func string(at offset: Int) throws -> String {
        guard bytes.byte(at: offset) == StateTag.string else { throw mismatch(String.self, at: offset) }
        var position = offset + 1
        guard let count = bytes.length(at: &position) else {
            throw corrupt("the bytes end within a string", at: offset)
        }
        guard let string = bytes.string(at: position, count: count) else {
            throw corrupt("a string is not UTF-8", at: offset)
        }
        return string
    }

    /// The contents of the container at `offset`, `tag` being its kind.
    func contents(of tag: UInt8, at offset: Int, type: Any.Type) throws -> Range<Int> {
        guard bytes.byte(at: offset) == tag else { throw mismatch(type, at: offset) }
        var position = offset + 1
        guard let length = bytes.length(at: &position) else {
            throw corrupt("the bytes end within a container", at: offset)
        }
        return position..<position + length
    }

    /// Decodes a `T` of the value at `offset`, in `depth` containers.
    func decode<T: Decodable>(_: T.Type, at offset: Int, depth: Int) throws -> T {
        // The scalars of arrays, the most common, read without a decoder.
        if T.self == String.self, let value = try string(at: offset) as? T { return value }
        if T.self == Int64.self, let value = try integer(Int64.self, at: offset) as? T { return value }
        if T.self == Int.self, let value = try integer(Int.self, at: offset) as? T { return value }
        if T.self == Double.self, let value = try double(at: offset) as? T { return value }
        if T.self == Bool.self, let value = try bool(at: offset) as? T { return value }
        return try T(from: ValueReader(reader: self, offset: offset, depth: depth))
    }
}

/// The `Decoder`, and single-value container, of the value at `offset`, `depth` deep.
struct ValueReader: Decoder, SingleValueDecodingContainer {
    let reader: StateReader
    let offset: Int
    let depth: Int

    var codingPath: [any CodingKey] { reader.codingPath(to: offset) }
    var userInfo: [CodingUserInfoKey: Any] { reader.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try KeyedReader<Key>(reader: reader, offset: offset, depth: depth))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try UnkeyedReader(reader: reader, offset: offset, depth: depth)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { reader.isNil(at: offset) }
    func decode(_ type: Bool.Type) throws -> Bool { try reader.bool(at: offset) }
    func decode(_ type: String.Type) throws -> String { try reader.string(at: offset) }
    func decode(_ type: Double.Type) throws -> Double { try reader.double(at: offset) }
    func decode(_ type: Float.Type) throws -> Float { try reader.float(at: offset) }
    func decode(_ type: Int.Type) throws -> Int { try reader.integer(type, at: offset) }
    func decode(_ type: Int8.Type) throws -> Int8 { try reader.integer(type, at: offset) }
    func decode(_ type: Int16.Type) throws -> Int16 { try reader.integer(type, at: offset) }
    func decode(_ type: Int32.Type) throws -> Int32 { try reader.integer(type, at: offset) }
    func decode(_ type: Int64.Type) throws -> Int64 { try reader.integer(type, at: offset) }
    func decode(_ type: UInt.Type) throws -> UInt { try reader.integer(type, at: offset) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try reader.integer(type, at: offset) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try reader.integer(type, at: offset) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try reader.integer(type, at: offset) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try reader.integer(type, at: offset) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try reader.decode(type, at: offset, depth: depth) }
}

/// A keyed container: its entries indexed once, when it is opened, in the reader's `index`.
struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    private let reader: StateReader
    /// The container's own offset (its tag's).
    private let offset: Int
    /// The depth of its values.
    private let depth: Int
    /// Where its index starts in the reader's `index`.
    private let base: Int
    /// How many entries it has.
    private let count: Int

    init(reader: StateReader, offset: Int, depth: Int) throws {
        self.reader = reader
        self.offset = offset
        self.depth = depth + 1
        guard depth < StateDecoder.maximumDepth else {
            throw reader.corrupt("containers nest deeper than \(StateDecoder.maximumDepth)", at: offset)
        }
        let contents = try reader.contents(of: StateTag.keyed, at: offset, type: [String: Any].self)
        let bytes = reader.bytes
        base = reader.index.count
        reader.index.append(0)
        var position = contents.lowerBound
        while position < contents.upperBound {
            guard let keyCount = bytes.length(at: &position), position + keyCount < contents.upperBound,
                let end = bytes.end(ofValueAt: position + keyCount), end <= contents.upperBound
            else {
                throw reader.corrupt("a keyed container's entry is cut short", at: offset)
            }
            reader.index.append(position)
            reader.index.append(position + keyCount)
            position = end
        }
        count = (reader.index.count - base - 1) / 2
    }

    var codingPath: [any CodingKey] { reader.codingPath(to: offset) }

    var allKeys: [Key] {
        // A plain loop: `compactMap` is not specialized for a `Key` known only at run time.
        var keys: [Key] = []
        keys.reserveCapacity(count)
        var entry = 0
        while entry < count {
            let key = reader.index[base + 1 + 2 * entry]
            let value = reader.index[base + 2 + 2 * entry]
            if let key = Key(stringValue: reader.bytes.string(at: key, count: value - key) ?? "") { keys.append(key) }
            entry += 1
        }
        return keys
    }

    /// The offset of the value of `key`, or nil.
    private func find(_ key: some CodingKey) -> Int? {
        var name = key.stringValue
        return name.withUTF8 { name in
            let bytes = reader.bytes
            var entry = reader.index[base]
            if entry >= count { entry = 0 }
            for _ in 0..<count {
                let key = reader.index[base + 1 + 2 * entry]
                let value = reader.index[base + 2 + 2 * entry]
                entry += 1
                if bytes.bytes(at: key, count: value - key, equal: name) {
                    reader.index[base] = entry
                    return value
                }
                if entry == count { entry = 0 }
            }
            return nil
        }
    }

    /// The offset of the value of `key`, throwing `keyNotFound`.
    private func value(_ key: some CodingKey) throws -> Int {
        guard let value = find(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "no value for the key \"\(key.stringValue)\""))
        }
        return value
    }

    /// The offset of the value of `key`, nil when absent or nil.
    private func present(_ key: Key) -> Int? {
        guard let value = find(key), !reader.isNil(at: value) else { return nil }
        return value
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { reader.isNil(at: try value(key)) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try reader.bool(at: try value(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try reader.string(at: try value(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try reader.double(at: try value(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try reader.float(at: try value(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try reader.integer(type, at: try value(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try reader.integer(type, at: try value(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try reader.integer(type, at: try value(key))
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try reader.integer(type, at: try value(key))
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try reader.integer(type, at: try value(key))
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try reader.integer(type, at: try value(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try reader.integer(type, at: try value(key))
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try reader.integer(type, at: try value(key))
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try reader.integer(type, at: try value(key))
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try reader.integer(type, at: try value(key))
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try reader.decode(type, at: try value(key), depth: depth)
    }

    // One search each, where the protocol's defaults make three.

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = present(key) else { return nil }
        return try reader.bool(at: value)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = present(key) else { return nil }
        return try reader.string(at: value)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let value = present(key) else { return nil }
        return try reader.double(at: value)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let value = present(key) else { return nil }
        return try reader.float(at: value)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let value = present(key) else { return nil }
        return try reader.integer(type, at: value)
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        guard let value = present(key) else { return nil }
        return try reader.integer(type, at: value)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        guard let value = present(key) else { return nil }
        return try reader.integer(type, at: value)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        guard let value = present(key) else { return nil }
        return try reader.integer(type, at: value)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        guard let value = present(key) else { return nil }
        return try reader.integer(type, at: value)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        guard let value = present(key) else { return nil }
        return try reader.integer(type, at: value)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        guard let value = present(key) else { return nil }
        return try reader.integer(type, at: value)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        guard let value = present(key) else { return nil }
        return try reader.integer(type, at: value)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        guard let value = present(key) else { return nil }
        return try reader.integer(type, at: value)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        guard let value = present(key) else { return nil }
        return try reader.integer(type, at: value)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = present(key) else { return nil }
        return try reader.decode(type, at: value, depth: depth)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(try KeyedReader<NestedKey>(reader: reader, offset: try value(key), depth: depth))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try UnkeyedReader(reader: reader, offset: try value(key), depth: depth)
    }

    func superDecoder() throws -> any Decoder {
        ValueReader(reader: reader, offset: try value(StateCodingKey.super), depth: depth)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueReader(reader: reader, offset: try value(key), depth: depth)
    }
}

/// An unkeyed container, read in order.
struct UnkeyedReader: UnkeyedDecodingContainer {
    private let reader: StateReader
    /// The container's own offset (its tag's).
    private let offset: Int
    /// The depth of its values.
    private let depth: Int
    private let contents: Range<Int>
    /// The offset of the next value.
    private var position: Int
    private(set) var currentIndex = 0

    init(reader: StateReader, offset: Int, depth: Int) throws {
        self.reader = reader
        self.offset = offset
        self.depth = depth + 1
        guard depth < StateDecoder.maximumDepth else {
            throw reader.corrupt("containers nest deeper than \(StateDecoder.maximumDepth)", at: offset)
        }
        contents = try reader.contents(of: StateTag.unkeyed, at: offset, type: [Any].self)
        position = contents.lowerBound
    }

    var codingPath: [any CodingKey] { reader.codingPath(to: offset) }

    var isAtEnd: Bool { position >= contents.upperBound }

    /// How many values it has, all of them: counted when asked.
    var count: Int? {
        var count = 0
        var position = contents.lowerBound
        while position < contents.upperBound, let end = reader.bytes.end(ofValueAt: position) {
            count += 1
            position = end
        }
        return count
    }

    /// The offset of the next value and of its end: the caller moves to the end once it has
    /// read the value (a value that cannot be read is not skipped).
    private func next(_ type: Any.Type) throws -> (value: Int, end: Int) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                .init(
                    codingPath: codingPath + [StateCodingKey(intValue: currentIndex)],
                    debugDescription: "an unkeyed container has no more values"))
        }
        guard let end = reader.bytes.end(ofValueAt: position), end <= contents.upperBound else {
            throw reader.corrupt("an unkeyed container's value is cut short", at: offset)
        }
        return (position, end)
    }

    private mutating func move(to end: Int) {
        position = end
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        if !isAtEnd, !reader.isNil(at: position) { return false }
        move(to: try next(Any?.self).end)
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let next = try next(type)
        let result = try reader.bool(at: next.value)
        move(to: next.end)
        return result
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let next = try next(type)
        let result = try reader.string(at: next.value)
        move(to: next.end)
        return result
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let next = try next(type)
        let result = try reader.double(at: next.value)
        move(to: next.end)
        return result
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        let next = try next(type)
        let result = try reader.float(at: next.value)
        move(to: next.end)
        return result
    }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeInteger(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger(type) }

    private mutating func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let next = try next(type)
        let result = try reader.integer(type, at: next.value)
        move(to: next.end)
        return result
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let next = try next(type)
        let result = try reader.decode(type, at: next.value, depth: depth)
        move(to: next.end)
        return result
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let next = try next(KeyedDecodingContainer<NestedKey>.self)
        let result = KeyedDecodingContainer(
            try KeyedReader<NestedKey>(reader: reader, offset: next.value, depth: depth))
        move(to: next.end)
        return result
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let next = try next((any UnkeyedDecodingContainer).self)
        let result = try UnkeyedReader(reader: reader, offset: next.value, depth: depth)
        move(to: next.end)
        return result
    }

    mutating func superDecoder() throws -> any Decoder {
        let next = try next((any Decoder).self)
        let result = ValueReader(reader: reader, offset: next.value, depth: depth)
        move(to: next.end)
        return result
    }
}
