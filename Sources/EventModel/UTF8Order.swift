extension String {
    /// Whether the string comes before `other` in UTF-8 byte order, the order of every sorted
    /// report row and key (unlike `<`, which compares Unicode characters).
    ///
    /// Compares the contiguous UTF-8 bytes directly: the generic
    /// `utf8.lexicographicallyPrecedes` walks them one index at a time, several times slower.
    package func precedesInUTF8Order(_ other: String) -> Bool {
        let fast = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in Self.precedes(left, right) }
        }
        if let fast, let result = fast { return result }
        return utf8.lexicographicallyPrecedes(other.utf8)
    }

    private static func precedes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        let common = Swift.min(left.count, right.count)
        var index = 0
        while index < common {
            if left[index] != right[index] { return left[index] < right[index] }
            index += 1
        }
        return left.count < right.count
    }
}
