import TextFormat

/// A growing run of bytes written through a pointer, for the encoders' hottest loops.
///
/// Appending to an `[UInt8]` checks that the array is uniquely referenced and goes through
/// the generic `append(contentsOf:)` on every call; the writer owns
/// its memory, so an append is a capacity check and a copy. It cannot be copied, and frees
/// its memory when it ends; ``finish()`` hands its bytes over as an array.
///
/// An output file's buffer is one too, so that the largest reports (the metrics) are
/// encoded straight into it (``MetricsReport/appendInflux(_:with:into:)``) rather than into an
/// array copied into it.
package struct ByteWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The bytes written so far.
    package private(set) var count = 0

    /// An empty writer with room for `capacity` bytes before it grows.
    package init(capacity: Int = 4_096) {
        self.capacity = Swift.max(capacity, 64)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The bytes written, as an array.
    package consuming func finish() -> [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// Drops the bytes from `start` on, keeping the memory.
    package mutating func truncate(to start: Int) {
        precondition(start >= 0 && start <= count, "truncating outside the written bytes")
        count = start
    }

    /// Calls `body` with the bytes from `start` on.
    package func withBytes<Result>(from start: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        body(UnsafeBufferPointer(start: base + start, count: count - start))
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if capacity - count < extra { grow(toHold: count + extra) }
    }

    private mutating func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends bytes.
    @inline(__always)
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends the bytes of an array (read in place: the array is not retained).
    @inline(__always)
    package mutating func append(_ bytes: borrowing [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends the UTF-8 bytes of a string.
    mutating func append(utf8 string: String) {
        var string = string
        string.withUTF8 { append($0) }
    }

    /// Appends `value` in decimal, with a leading `-` when negative (`Int64.min` included).
    @inline(__always)
    mutating func appendDecimal(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDecimal(value.magnitude)
    }

    /// Appends `value` in decimal: its digits counted first, then written in place.
    mutating func appendDecimal(_ value: UInt64) {
        let digits = DecimalFormatting.decimalDigits(value)
        reserve(digits)
        DecimalFormatting.writeDigits(of: value, endingAt: base + count + digits)
        count += digits
    }
}
