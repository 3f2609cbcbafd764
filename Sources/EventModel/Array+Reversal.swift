extension Array {
    /// Reverses the elements in place, moving each once. `reverse()` copied each element and
    /// destroyed the original.
    @inlinable
    package mutating func reverseByMoving() {
        withUnsafeMutableBufferPointer { buffer in
            var (low, high) = (0, buffer.count - 1)
            while low < high {
                buffer.swapAt(low, high)
                (low, high) = (low + 1, high - 1)
            }
        }
    }
}
