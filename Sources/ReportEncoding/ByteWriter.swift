/// A growing run of bytes written through a pointer, for the encoders' hottest loops.
///
/// Appending to an `[UInt8]` checks that the array is uniquely referenced and goes through
/// the generic `append(contentsOf:)` on every call (measured: some 90 instructions to copy a
/// metric's name, 190 to write a timestamp's digits through a stack buffer); the writer owns
/// its memory, so an append is a capacity check and a copy. It cannot be copied, and frees
/// its memory when it ends; ``finish()`` hands its bytes over as an array.
struct ByteWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The bytes written so far.
    private(set) var count = 0

    /// An empty writer with room for `capacity` bytes before it grows.
    init(capacity: Int = 4_096) {
        self.capacity = Swift.max(capacity, 64)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The bytes written, as an array.
    consuming func finish() -> [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// Drops the bytes from `start` on.
    mutating func truncate(to start: Int) {
        precondition(start >= 0 && start <= count, "truncating outside the written bytes")
        count = start
    }

    /// Calls `body` with the bytes from `start` on.
    func withBytes<Result>(from start: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
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
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends the bytes of an array (read in place: the array is not retained).
    @inline(__always)
    mutating func append(_ bytes: borrowing [UInt8]) {
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

    /// Appends `value` in decimal: its digits counted first, then written two at a time from
    /// the last, in place.
    mutating func appendDecimal(_ value: UInt64) {
        let digits = Self.decimalDigits(value)
        reserve(digits)
        var end = base + count + digits
        var rest = value
        let pairs = Self.digitPairs.utf8Start
        while rest >= 100 {
            let (quotient, pair) = rest.quotientAndRemainder(dividingBy: 100)
            end -= 2
            end[0] = pairs[Int(pair) &* 2]
            end[1] = pairs[Int(pair) &* 2 &+ 1]
            rest = quotient
        }
        if rest >= 10 {
            end -= 2
            end[0] = pairs[Int(rest) &* 2]
            end[1] = pairs[Int(rest) &* 2 &+ 1]
        } else {
            end -= 1
            end[0] = UInt8(truncatingIfNeeded: rest) &+ 0x30
        }
        count += digits
    }

    /// "00", "01", ... "99": the two digits of every number below 100.
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// The number of decimal digits of `value` (1 for 0): from its bit length, which gives the
    /// count or one less, told apart by one comparison.
    static func decimalDigits(_ value: UInt64) -> Int {
        let bits = UInt64.bitWidth - (value | 1).leadingZeroBitCount
        // ⌊bits × log10(2)⌋ (exact with 1233/4096 up to 64 bits): the digits of a number of this
        // length, or one less.
        let guess = (bits &* 1_233) >> 12
        return Swift.max(1, guess &+ (value >= powersOfTen[guess] ? 1 : 0))
    }

    /// 10^0 through 10^19.
    private static let powersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
        1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000,
        10_000_000_000_000_000_000,
    ]
}
