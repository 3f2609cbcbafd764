#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The buffer a ``LineSource`` fills and splits into lines.
///
/// It holds up to `maxLineLength + fillSize` bytes of data followed by ``LineReader/padding``
/// readable bytes, every byte zero-initialized when allocated. Lines are handed out in place;
/// only the unfinished line at the end of the data is moved to the front before the next
/// fill, and it is never longer than `maxLineLength` (a longer one is reported and dropped),
/// so every fill gets `fillSize` bytes of room. The room starts at one fill and a page
/// (``unfinishedRoom``) for the unfinished line, and grows, the part beyond one fill in pages
/// and at least doubling, only when an unfinished line and the next fill do not fit.
final class LineBuffer {
    /// The room for an unfinished line a new buffer has beside one fill, and the step its
    /// growth is rounded up to.
    static let unfinishedRoom = 4096

    private var base: UnsafeMutableRawPointer
    /// Bytes of data room; ``padding`` more bytes follow them.
    private var capacity: Int
    private let maxCapacity: Int
    private let padding: Int
    private let maxLineLength: Int
    private let fillSize: Int
    /// Start of the unfinished line.
    private var start = 0
    /// Where the search for the next line feed resumes.
    private var scan = 0
    /// End of the data.
    private var end = 0
    /// Inside a line that was found too long: its bytes are dropped up to the line feed.
    private var skipping = false
    /// The number of the unfinished line.
    private(set) var lineNumber = 1

    init(maxLineLength: Int, fillSize: Int, padding: Int) {
        self.maxLineLength = maxLineLength
        self.fillSize = fillSize
        self.padding = padding
        maxCapacity = maxLineLength + fillSize
        capacity = min(max(fillSize, 2) + Self.unfinishedRoom, maxCapacity)
        base = Self.allocate(capacity + padding)
    }

    deinit {
        base.deallocate()
    }

    /// The bytes allocated: data room and padding.
    var allocatedByteCount: Int { capacity + padding }

    private static func allocate(_ byteCount: Int) -> UnsafeMutableRawPointer {
        let base = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
        return base
    }

    /// Room for the next fill: `fillSize` bytes right after the data. Call
    /// ``didFill(_:)`` with the number of bytes written there.
    func nextFillRegion() -> UnsafeMutableRawBufferPointer {
        if capacity - end < fillSize {
            compact()
            if capacity - end < fillSize {
                grow(toHold: end + fillSize)
            }
        }
        return UnsafeMutableRawBufferPointer(start: base + end, count: min(fillSize, capacity - end))
    }

    /// The room of an empty buffer for sniffing the input's first bytes: at least `count`
    /// bytes (and 2), unless that is more than the buffer may hold. Call ``didFill(_:)``
    /// with the number of bytes written there.
    func initialRegion(count: Int) -> UnsafeMutableRawBufferPointer {
        let wanted = min(max(count, 2), maxCapacity)
        if capacity - end < wanted {
            grow(toHold: end + wanted)
        }
        return UnsafeMutableRawBufferPointer(start: base + end, count: capacity - end)
    }

    /// Records that `count` bytes were written at the start of ``nextFillRegion()``.
    func didFill(_ count: Int) {
        end += count
    }

    /// Reports the lines that are complete in the buffer, and an unfinished line as soon as
    /// it is longer than the maximum, stopping after `limit` reports.
    ///
    /// - Returns: the number of lines reported (blank lines are not); fewer than `limit`
    ///   when every complete line was reported.
    @discardableResult
    func drain(upTo limit: Int = .max, _ body: (LineEvent) throws -> Void) rethrows -> Int {
        // Work on locals: stored properties of a class cost an exclusivity check per access.
        var start = self.start
        var scan = self.scan
        var number = lineNumber
        var skipping = self.skipping
        let end = self.end
        var reported = 0
        defer {
            self.start = start
            self.scan = scan
            self.lineNumber = number
            self.skipping = skipping
        }
        if skipping {
            guard let feed = memchr(base + scan, 0x0A, end - scan) else {
                start = end
                scan = end
                return reported
            }
            skipping = false
            number += 1
            start = feed - base + 1
            scan = start
        }
        while reported < limit {
            guard let feed = memchr(base + scan, 0x0A, end - scan) else {
                scan = end
                if end - start > maxLineLength {
                    let tooLong = (number, start)
                    skipping = true
                    start = end
                    reported += 1
                    try body(
                        .tooLong(
                            lineNumber: tooLong.0,
                            prefix: UnsafeRawBufferPointer(start: base + tooLong.1, count: end - tooLong.1)))
                }
                return reported
            }
            let lineEnd = feed - base
            let lineStart = start
            let lineNumber = number
            number += 1
            start = lineEnd + 1
            scan = start
            if try emit(from: lineStart, to: lineEnd, number: lineNumber, body) {
                reported += 1
            }
        }
        return reported
    }

    /// Reports the last line when the input does not end with a line feed.
    func finish(_ body: (LineEvent) throws -> Void) rethrows {
        guard !skipping, end > start else { return }
        let lineStart = start
        start = end
        scan = end
        try emit(from: lineStart, to: end, number: lineNumber, body)
    }

    /// Reports one line unless it is blank (only spaces, tabs and carriage returns);
    /// returns whether it was reported.
    @discardableResult
    private func emit(
        from lineStart: Int, to lineEnd: Int, number: Int, _ body: (LineEvent) throws -> Void
    ) rethrows -> Bool {
        if lineEnd - lineStart > maxLineLength {
            try body(
                .tooLong(
                    lineNumber: number,
                    prefix: UnsafeRawBufferPointer(start: base + lineStart, count: lineEnd - lineStart)))
            return true
        }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        var contentEnd = lineEnd
        if contentEnd > lineStart && bytes[contentEnd - 1] == 0x0D {
            contentEnd -= 1
        }
        var index = lineStart
        while index < contentEnd {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0D else { break }
            index += 1
        }
        guard index < contentEnd else { return false }
        let line = Line(
            number: number,
            bytes: UnsafeRawBufferPointer(start: base + lineStart, count: contentEnd - lineStart),
            readableCount: capacity + padding - lineStart
        )
        try body(.line(line))
        return true
    }

    /// Moves the unfinished line to the front of the buffer.
    private func compact() {
        guard start > 0 else { return }
        let count = end - start
        if count > 0 {
            memmove(base, base + start, count)
        }
        scan -= start
        end = count
        start = 0
    }

    /// Reallocates the buffer with room for at least `needed` bytes of data, keeping the data.
    private func grow(toHold needed: Int) {
        let page = Self.unfinishedRoom
        let beyondOneFill = max((needed - fillSize + page - 1) / page * page, 2 * (capacity - fillSize))
        let grown = min(maxCapacity, fillSize + beyondOneFill)
        guard grown > capacity else { return }
        let larger = Self.allocate(grown + padding)
        larger.copyMemory(from: base, byteCount: end)
        base.deallocate()
        base = larger
        capacity = grown
    }
}
