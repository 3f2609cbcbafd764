import EventModel

/// Reads one event-log input (a file, or `-` for standard input; gzip or plain) a few entries
/// at a time, so that many inputs can be read interleaved: the pull-based counterpart of
/// ``EventLogReader/forEachEntry(_:)``, with the same entries in the same order.
///
/// A source keeps its place between calls of ``next(upTo:_:)``. Before the first call it
/// holds only the open file; then a line buffer of `fillSize` + 4 KiB + ``LineReader/padding``
/// bytes (see ``LineReaderConfiguration``), which grows only for lines over 4 KiB, up to
/// `maxLineLength + fillSize`, and for gzip a read buffer of `readSize` bytes and ISA-L's
/// inflate state (87,368 bytes with ISA-L 2.30). With a `readSize` of 16 KiB and a `fillSize`
/// of 64 KiB that is 173,448 bytes for gzip, 69,696 for plain input. Reaching the end,
/// failing, or ``close()`` releases them all and closes the file.
///
/// ```swift
/// let decoder = RecordDecoder()
/// let source = try EntrySource(path: "a.jsonl.gz", decoder: decoder)
/// while try source.next(upTo: 1_000, { entries.append($0) }) {
///     // read other sources
/// }
/// ```
package final class EntrySource {
    /// The input's name for messages: its path as given, or `<stdin>` for `-`.
    package var displayName: String { lines.displayName }
    /// Bytes read from the input so far (compressed bytes, for gzip).
    package var bytesRead: Int64 { lines.bytesRead }
    /// The line number of the last entry delivered, 0 before the first. Blank lines are
    /// counted in line numbers but are not entries.
    package private(set) var lineNumber = 0

    private let lines: LineSource
    private let decoder: RecordDecoder
    private var isFinished = false
    /// Whether the input is a partition's part file (``PartLine``): each line is decoded at
    /// the input line number it gives, and ``placeTime`` says where a late record goes.
    private let isPart: Bool
    /// The longest line of the input the part file was split from.
    private let inputMaxLineLength: Int
    /// For a part file, the time of the place of the record being delivered when it came
    /// late (`nil` otherwise): set before each entry is handed over.
    package private(set) var placeTime: Timestamp?
    /// For a part file, whether the record being delivered is a jump (``PartLine``).
    package private(set) var placeIsJump = false

    /// Opens `path` (`-` for standard input); reading starts with the first ``next(upTo:_:)``.
    ///
    /// - Parameters:
    ///   - path: the file, or `-` for standard input.
    ///   - configuration: the sizes of the read and line buffers.
    ///   - decoder: decodes the lines into records. Its parser and caches take far more
    ///     memory than a source: let the sources read on one thread share one.
    /// - Throws: ``EventLogError`` when the file cannot be opened or is a directory.
    package init(
        path: String, configuration: LineReaderConfiguration = LineReaderConfiguration(), decoder: RecordDecoder,
        isPart: Bool = false, displayName: String? = nil
    ) throws(EventLogError) {
        var configuration = configuration
        inputMaxLineLength = configuration.maxLineLength
        // A part line is its input line with a prefix of at most 40 bytes.
        if isPart { configuration.maxLineLength += 64 }
        lines = try LineSource(
            path: path, displayName: displayName ?? LineReader.displayName(for: path), configuration: configuration)
        self.decoder = decoder
        self.isPart = isPart
    }

    /// Reads on, handing `body` the next entries in line order, at most `limit` of them.
    ///
    /// - Returns: true when it delivered `limit` entries (none when `limit` is 0 or less)
    ///   and more may follow; false once the input has ended: the entries of this call, if
    ///   any, were the last, and later calls deliver none.
    /// - Throws: ``EventLogError`` for a read error or a damaged gzip stream, after the
    ///   entries of all lines before the damage; the source is closed afterwards.
    package func next(upTo limit: Int, _ body: (consuming LogEntry) -> Void) throws(EventLogError) -> Bool {
        guard !isFinished else { return false }
        let decoder = self.decoder
        let file = lines.displayName
        let maxLineLength = inputMaxLineLength
        let isPart = self.isPart
        var last = lineNumber
        defer { lineNumber = last }
        func deliver(_ event: LineEvent) {
            switch event {
            case .line(let line): last = line.number
            case .tooLong(let number, _): last = number
            }
            guard isPart else {
                decoder.deliver(event, file: file, maxLineLength: maxLineLength, to: body)
                return
            }
            deliverPart(event, file: file, maxLineLength: maxLineLength, to: body)
        }
        let more: Bool
        do {
            more = try lines.read(upTo: limit, deliver)
        } catch {
            close()
            throw error
        }
        if !more { close() }
        return more
    }

    /// Delivers the entry of a part file's line (``PartLine``) at its input's line number.
    private func deliverPart(
        _ event: LineEvent, file: String, maxLineLength: Int, to body: (consuming LogEntry) -> Void
    ) {
        placeTime = nil
        placeIsJump = false
        guard case .line(let part) = event, let (number, mark, start) = PartLine.parsePrefix(part.bytes) else {
            let number: Int
            let bytes: UnsafeRawBufferPointer
            switch event {
            case .line(let line): (number, bytes) = (line.number, line.bytes)
            case .tooLong(let line, let prefix): (number, bytes) = (line, prefix)
            }
            let reason = "not a line of a partition's part file (avt-replay partition)"
            body(.rejected(RejectedLine(file: file, line: number, reason: reason, bytes: bytes)))
            return
        }
        let text = UnsafeRawBufferPointer(rebasing: part.bytes[start...])
        switch mark {
        case .tooLong:
            decoder.deliver(
                .tooLong(lineNumber: number, prefix: text), file: file, maxLineLength: maxLineLength, to: body)
            return
        case .late(let time): placeTime = time
        case .jump: placeIsJump = true
        case .inOrder: break
        }
        let line = Line(number: number, bytes: text, readableCount: part.readableCount - start)
        decoder.deliver(.line(line), file: file, maxLineLength: maxLineLength, to: body)
    }

    /// Releases the buffers and closes the file; later calls of ``next(upTo:_:)`` deliver
    /// nothing and return false. Idempotent.
    package func close() {
        isFinished = true
        lines.close()
    }

    /// The bytes of buffers and inflate state held now.
    var allocatedByteCount: Int { lines.allocatedByteCount }
}
