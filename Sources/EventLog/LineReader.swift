import CSimdjson

/// Reads one input, a file or standard input, as lines, decompressing gzip on the fly.
///
/// Gzip is recognized by its magic bytes (`1f 8b`), not by the file name; several
/// concatenated gzip members read as one stream, as `zcat` reads them, and zero bytes
/// after the last member are ignored. Anything else is read as plain bytes.
///
/// Memory stays the same whatever the file size: one read buffer of
/// ``LineReaderConfiguration/readSize`` bytes (gzip only) and one line buffer of
/// `maxLineLength + fillSize` bytes plus ``padding``. Lines are split on `\n`, a `\r`
/// before it is dropped, blank lines (only spaces, tabs, carriage returns) are skipped but
/// counted, and a last line without `\n` is a line too.
///
/// ```swift
/// let reader = try LineReader(path: "a.jsonl.gz")
/// try reader.forEachLine { event in
///     if case .line(let line) = event { print(line.number, line.bytes.count) }
/// }
/// ```
public final class LineReader {
    /// The longest line accepted by default, in bytes, not counting its line feed (1 MiB).
    public static let maxLineLength = LineReaderConfiguration.defaultMaxLineLength
    /// Readable bytes guaranteed after every line's bytes (simdjson's `SIMDJSON_PADDING`).
    public static let padding = Int(csj_padding())

    /// The input's name for messages: its path as given, or `<stdin>` for `-`.
    public let displayName: String
    /// The longest line this reader accepts (see ``LineReaderConfiguration/maxLineLength``).
    public var maxLineLength: Int { configuration.maxLineLength }
    private let configuration: LineReaderConfiguration
    private let input: InputFile

    /// Bytes read from the input so far (compressed bytes, for gzip), for progress reports.
    public var bytesRead: Int64 { input.bytesRead }
    private var consumed = false

    /// Opens `path` (`-` for standard input).
    ///
    /// - Throws: ``EventLogError`` when the file cannot be opened or is a directory.
    public init(path: String, configuration: LineReaderConfiguration = LineReaderConfiguration()) throws(EventLogError)
    {
        let displayName = LineReader.displayName(for: path)
        self.displayName = displayName
        self.configuration = configuration
        self.input = try InputFile(path: path, displayName: displayName)
    }

    /// The name of an input in messages: `<stdin>` for `-`, otherwise the path itself.
    public static func displayName(for path: String) -> String {
        path == "-" ? "<stdin>" : path
    }

    /// Reads the input to its end, calling `body` for each non-blank line in order.
    ///
    /// The input is read once: a second call reports nothing. The bytes a ``LineEvent``
    /// points to are valid only during the call of `body` that receives it.
    ///
    /// - Throws: ``EventLogError`` for a read error or a damaged gzip stream (after all
    ///   lines complete before the damage were reported), or whatever `body` throws.
    public func forEachLine(_ body: (LineEvent) throws -> Void) throws {
        guard !consumed else { return }
        consumed = true
        let buffer = LineBuffer(
            maxLineLength: configuration.maxLineLength,
            fillSize: configuration.fillSize,
            padding: LineReader.padding
        )
        // Sniff the first two bytes, reading them into the line buffer.
        let first = buffer.initialRegion()
        let sniffLimit = min(max(configuration.readSize, 2), first.count)
        var sniffed = 0
        while sniffed < 2 {
            guard let target = first.baseAddress else { break }
            let count = try input.readSome(into: target + sniffed, count: sniffLimit - sniffed)
            if count == 0 {
                break
            }
            sniffed += count
        }
        if sniffed >= 2 && first[0] == 0x1F && first[1] == 0x8B {
            try readGzip(into: buffer, initialInput: UnsafeRawBufferPointer(rebasing: first[0..<sniffed]), body)
        } else {
            buffer.didFill(sniffed)
            try buffer.drain(body)
            try readPlain(into: buffer, body)
        }
        try buffer.finish(body)
    }

    private func readPlain(into buffer: LineBuffer, _ body: (LineEvent) throws -> Void) throws {
        while true {
            let region = buffer.nextFillRegion()
            guard let target = region.baseAddress else { return }
            let count = try input.readSome(into: target, count: min(region.count, configuration.readSize))
            if count == 0 {
                return
            }
            buffer.didFill(count)
            try buffer.drain(body)
        }
    }

    private func readGzip(
        into buffer: LineBuffer, initialInput: UnsafeRawBufferPointer, _ body: (LineEvent) throws -> Void
    ) throws {
        let inputSize = max(configuration.readSize, initialInput.count)
        let inputBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: inputSize, alignment: 64)
        defer { inputBuffer.deallocate() }
        guard let inputBase = inputBuffer.baseAddress else { return }
        inputBuffer.copyMemory(from: initialInput)
        let inflater = GzipInflater(displayName: displayName)
        inflater.supply(inputBase, count: initialInput.count)
        var inputEnded = false
        while true {
            if inflater.needsInput && !inputEnded {
                let count = try input.readSome(into: inputBase, count: configuration.readSize)
                if count == 0 {
                    inputEnded = true
                } else {
                    inflater.supply(inputBase, count: count)
                }
            }
            let region = buffer.nextFillRegion()
            guard let target = region.baseAddress else { return }
            let step: GzipInflater.Step
            do {
                step = try inflater.inflate(into: target, capacity: region.count, inputEnded: inputEnded)
            } catch {
                guard error.kind == .truncatedGzip else { throw error }
                throw EventLogError(
                    file: displayName, kind: .truncatedGzip,
                    message: "truncated gzip stream (cut in line \(buffer.lineNumber))")
            }
            switch step {
            case .finished:
                return
            case .produced(let count):
                if count > 0 {
                    buffer.didFill(count)
                    try buffer.drain(body)
                }
            }
        }
    }
}
