extension Array where Element == UInt8 {
    /// Appends the bytes of another array through its buffer: `append(contentsOf:)` takes its
    /// argument owned, which costs a retain and a release of the other array on every call
    /// (measured: two of them for every metric point written).
    @inline(__always)
    mutating func appendBytes(of other: [UInt8]) {
        other.withUnsafeBufferPointer { append(contentsOf: $0) }
    }
}
