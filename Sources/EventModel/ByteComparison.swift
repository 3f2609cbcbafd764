/// Whether `count` bytes at `lhs` and `rhs` are the same, compared in place eight at a time,
/// the last eight read again where they overlap. Names, ids and attribute keys are short: a
/// call to `memcmp` for each cost more than this.
@inlinable @inline(__always)
package func sameBytes(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, count: Int) -> Bool {
    guard count >= 8 else {
        var offset = 0
        while offset < count {
            if lhs.load(fromByteOffset: offset, as: UInt8.self) != rhs.load(fromByteOffset: offset, as: UInt8.self) {
                return false
            }
            offset += 1
        }
        return true
    }
    var offset = 0
    while offset + 8 < count {
        if lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            != rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        {
            return false
        }
        offset += 8
    }
    return lhs.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        == rhs.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
}

/// Whether two buffers hold the same bytes (``sameBytes(_:_:count:)`` when their lengths match).
@inlinable @inline(__always)
package func sameBytes(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
    guard lhs.count == rhs.count else { return false }
    guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
    return sameBytes(left, right, count: lhs.count)
}
