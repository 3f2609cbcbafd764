import CSimdjson

/// Reads one input, a file or standard input, as lines, decompressing gzip on the fly.
///
/// Gzip is recognized by its magic bytes (`1f 8b`), not by the file name; several
/// concatenated gzip members read as one stream, as `zcat` reads them, and zero bytes
/// after the last member are ignored. Anything else is read as plain bytes.
///
/// Memory stays bounded whatever the file size: for gzip, one read buffer of
/// ``LineReaderConfiguration/readSize`` bytes and ISA-L's inflate state; and one line buffer
/// of `fillSize` bytes, a page and ``padding``, which grows for long lines only, up to
/// `maxLineLength + fillSize` bytes. Lines are split on `\n`, a `\r` before it is dropped,
/// blank lines (only spaces, tabs, carriage returns) are skipped but counted, and a last line
/// without `\n` is a line too.
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
    public var displayName: String { source.displayName }
    /// The longest line this reader accepts (see ``LineReaderConfiguration/maxLineLength``).
    public var maxLineLength: Int { source.configuration.maxLineLength }
    private let source: LineSource

    /// Bytes read from the input so far (compressed bytes, for gzip), for progress reports.
    public var bytesRead: Int64 { source.bytesRead }
    private var consumed = false

    /// Opens `path` (`-` for standard input).
    ///
    /// - Throws: ``EventLogError`` when the file cannot be opened or is a directory.
    public init(path: String, configuration: LineReaderConfiguration = LineReaderConfiguration()) throws(EventLogError)
    {
        source = try LineSource(
            path: path, displayName: LineReader.displayName(for: path), configuration: configuration)
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
        defer { source.releaseBuffers() }
        while try source.fill() {
            try source.drain(body)
        }
        try source.finish(body)
    }
}
