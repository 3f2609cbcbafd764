import EventModel

/// A block of an input's lines, cut by a ``LineBlockSource`` and not decoded yet: their bytes,
/// copied out of the line buffer, so that any thread can decode them
/// (``RecordDecoder/decode(_:)``) while the input is read on.
package struct LineBlock: Sendable {
    /// One line event: a line, or the excerpt of a line too long, at `start` in `bytes`.
    struct Slice: Sendable {
        let number: Int
        let start: Int
        let count: Int
        let isTooLong: Bool
    }

    /// The input's name for messages.
    let file: String
    /// The longest line kept, for the reason a line too long is rejected.
    let maxLineLength: Int
    private(set) var slices: [Slice] = []
    /// How many line events it holds (the entries its decoding gives).
    package var lineCount: Int { slices.count }
    /// The lines' bytes, one after the other, then ``LineReader/padding`` zero bytes once the
    /// block is complete, so that every line can be parsed in place.
    private(set) var bytes: [UInt8] = []
    /// Bytes read from the input once the block was cut (compressed bytes, for gzip).
    var bytesRead: Int64 = 0
    /// Whether the input ended with this block: no block follows it.
    package internal(set) var isLast = false
    /// The read error or damaged gzip stream that ended the input after the block's lines.
    var error: EventLogError?

    init(file: String, maxLineLength: Int) {
        self.file = file
        self.maxLineLength = maxLineLength
    }

    /// Adds a line event's bytes: all of a line, the first ``RejectedLine/excerptLimit`` of
    /// a line too long (all that its rejection keeps).
    mutating func append(_ event: LineEvent) {
        let start = bytes.count
        switch event {
        case .line(let line):
            bytes.append(contentsOf: line.bytes)
            slices.append(Slice(number: line.number, start: start, count: line.bytes.count, isTooLong: false))
        case .tooLong(let number, let prefix):
            let excerpt = UnsafeRawBufferPointer(rebasing: prefix.prefix(RejectedLine.excerptLimit))
            bytes.append(contentsOf: excerpt)
            slices.append(Slice(number: number, start: start, count: excerpt.count, isTooLong: true))
        }
    }

    /// Pads the bytes for parsing in place: no line is added after.
    mutating func complete() {
        bytes.append(contentsOf: repeatElement(0, count: LineReader.padding))
    }
}

/// A ``LineBlock`` decoded: its entries, and how its input was left.
package struct DecodedBlock: Sendable {
    /// Optional, so that the taker moves each entry out (`take()`) rather than copying it.
    package var entries: [LogEntry?]
    /// For each entry, ``RecordDecoder/lastTimestampWasNumber`` just after its line was decoded.
    package let timestampWasNumber: [Bool]
    /// Bytes read from the input once the block was cut.
    package let bytesRead: Int64
    /// Whether the input ended with this block.
    package let isLast: Bool
    /// The read error or damaged gzip stream that ended the input after the block's lines.
    package let error: EventLogError?
}

extension RecordDecoder {
    /// Decodes a block's lines into their entries, in order: those an ``EntrySource`` would
    /// have delivered for the same lines. `inspect` sees each entry as it is made, before it is
    /// moved into the block (reading it there would copy it: a retain and a release of each
    /// of its references).
    package func decode(_ block: LineBlock, inspect: (borrowing LogEntry) -> Void = { _ in }) -> DecodedBlock {
        var entries: [LogEntry?] = []
        entries.reserveCapacity(block.slices.count)
        var timestampWasNumber: [Bool] = []
        timestampWasNumber.reserveCapacity(block.slices.count)
        // The block's OpenAVT attributes in memory of its own, in pieces of 8 KiB.
        arena = sharesBlockStorage ? PackedAttributesArena(chunkCapacity: 8_192) : nil
        defer { arena = nil }
        block.bytes.withUnsafeBytes { buffer in
            for slice in block.slices {
                let bytes = UnsafeRawBufferPointer(rebasing: buffer[slice.start..<slice.start + slice.count])
                let event =
                    slice.isTooLong
                    ? LineEvent.tooLong(lineNumber: slice.number, prefix: bytes)
                    : .line(Line(number: slice.number, bytes: bytes, readableCount: buffer.count - slice.start))
                deliver(event, file: block.file, maxLineLength: block.maxLineLength) { entry in
                    inspect(entry)
                    entries.append(entry)
                    timestampWasNumber.append(lastTimestampWasNumber)
                }
            }
        }
        return DecodedBlock(
            entries: entries, timestampWasNumber: timestampWasNumber, bytesRead: block.bytesRead, isLast: block.isLast,
            error: block.error)
    }
}
