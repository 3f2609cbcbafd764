#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fixed-size buffer a ``LineReader`` fills and splits into lines.
///
/// It holds `maxLineLength + fillSize` bytes of data followed by ``LineReader/padding``
/// readable bytes, all zero-initialized once. Lines are handed out in place; only the
/// unfinished line at the end of the data is moved to the front before the next fill,
/// and it is never longer than `maxLineLength` (a longer one is reported and dropped),
/// so every fill has at least `fillSize` bytes of room.
final class LineBuffer {
    private let base: UnsafeMutableRawPointer
    private let capacity: Int
    private let allocation: Int
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
        capacity = maxLineLength + fillSize
        allocation = capacity + padding
        base = UnsafeMutableRawPointer.allocate(byteCount: allocation, alignment: 64)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: allocation)
    }

    deinit {
        base.deallocate()
    }

    /// Room for the next fill: up to `fillSize` bytes right after the data. Call
    /// ``didFill(_:)`` with the number of bytes written there.
    func nextFillRegion() -> UnsafeMutableRawBufferPointer {
        if capacity - end < fillSize {
            compact()
        }
        return UnsafeMutableRawBufferPointer(start: base + end, count: min(fillSize, capacity - end))
    }

    /// The whole room of an empty buffer (at least 2 bytes), for sniffing the input's
    /// first bytes. Call ``didFill(_:)`` with the number of bytes written there.
    func initialRegion() -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: base + end, count: capacity - end)
    }

    /// Records that `count` bytes were written at the start of ``nextFillRegion()``.
    func didFill(_ count: Int) {
        end += count
    }

    /// Reports every line that is complete in the buffer, and an unfinished line as soon
    /// as it is longer than the maximum.
    func drain(_ body: (LineEvent) throws -> Void) rethrows {
        // Work on locals: stored properties of a class cost an exclusivity check per access.
        var start = self.start
        var scan = self.scan
        var number = lineNumber
        var skipping = self.skipping
        let end = self.end
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
                return
            }
            skipping = false
            number += 1
            start = feed - base + 1
            scan = start
        }
        while true {
            guard let feed = memchr(base + scan, 0x0A, end - scan) else {
                scan = end
                if end - start > maxLineLength {
                    let tooLong = (number, start)
                    skipping = true
                    start = end
                    try body(
                        .tooLong(
                            lineNumber: tooLong.0,
                            prefix: UnsafeRawBufferPointer(start: base + tooLong.1, count: end - tooLong.1)))
                }
                return
            }
            let lineEnd = feed - base
            let lineStart = start
            let lineNumber = number
            number += 1
            start = lineEnd + 1
            scan = start
            try emit(from: lineStart, to: lineEnd, number: lineNumber, body)
        }
    }

    /// Reports the last line when the input does not end with a line feed.
    func finish(_ body: (LineEvent) throws -> Void) rethrows {
        guard !skipping, end > start else { return }
        let lineStart = start
        start = end
        scan = end
        try emit(from: lineStart, to: end, number: lineNumber, body)
    }

    /// Reports one line unless it is blank (only spaces, tabs and carriage returns).
    private func emit(from lineStart: Int, to lineEnd: Int, number: Int, _ body: (LineEvent) throws -> Void) rethrows {
        if lineEnd - lineStart > maxLineLength {
            try body(
                .tooLong(
                    lineNumber: number,
                    prefix: UnsafeRawBufferPointer(start: base + lineStart, count: lineEnd - lineStart)))
            return
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
        guard index < contentEnd else { return }
        let line = Line(
            number: number,
            bytes: UnsafeRawBufferPointer(start: base + lineStart, count: contentEnd - lineStart),
            readableCount: allocation - lineStart
        )
        try body(.line(line))
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
}
