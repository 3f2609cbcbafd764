/// Unsigned LEB128 varints: seven bits a byte, lowest first, the high bit set on every byte
/// but the last. Packed attributes and a session's stored records use them for lengths,
/// numbers and tags, most of which fit in a byte or two.
@usableFromInline package enum LEB128 {
    /// The most bytes a value takes.
    package static let maxSize = 10

    /// The bytes `value` takes.
    @inlinable
    package static func size(of value: UInt) -> Int {
        var size = 1
        var rest = value >> 7
        while rest > 0 {
            size += 1
            rest >>= 7
        }
        return size
    }

    /// Writes `value` at `offset` in `buffer` (which must have room for it) and moves `offset`
    /// past it.
    @inlinable
    package static func write(_ value: UInt, into buffer: UnsafeMutableRawBufferPointer, at offset: inout Int) {
        var rest = value
        while rest >= 0x80 {
            buffer[offset] = UInt8(truncatingIfNeeded: rest) | 0x80
            offset += 1
            rest >>= 7
        }
        buffer[offset] = UInt8(rest)
        offset += 1
    }

    /// Reads the value at `offset` in `buffer` and moves `offset` past it.
    @inlinable @inline(__always)
    package static func read(_ buffer: UnsafeRawBufferPointer, at offset: inout Int) -> UInt {
        var value: UInt = 0
        var shift: UInt = 0
        while true {
            let byte = buffer[offset]
            offset += 1
            value |= UInt(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }
}
