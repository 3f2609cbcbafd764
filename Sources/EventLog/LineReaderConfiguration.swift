/// Buffer sizes of a ``LineReader`` or an `EntrySource`. The defaults suit reading one input
/// at a time; tests shrink them to exercise every boundary.
public struct LineReaderConfiguration: Hashable, Sendable {
    /// The longest line accepted, in bytes, not counting its line feed (1 MiB).
    public static let defaultMaxLineLength = 1 << 20
    /// Bytes requested per `read(2)` (256 KiB).
    public static let defaultReadSize = 256 << 10
    /// Bytes of line buffer filled per read or inflate step (1 MiB).
    public static let defaultFillSize = 1 << 20

    /// The longest line accepted, in bytes, not counting its line feed; longer lines are
    /// reported as ``LineEvent/tooLong(lineNumber:prefix:)``.
    public var maxLineLength: Int
    /// Bytes requested per `read(2)` call.
    public var readSize: Int
    /// The most bytes one read (plain input) or one inflate call (gzip) adds to the line buffer.
    public var fillSize: Int

    /// Creates a configuration; every size is clamped to at least 1 byte (`readSize` to
    /// at most 1 GiB, as the inflater counts input in 32 bits).
    public init(
        maxLineLength: Int = LineReaderConfiguration.defaultMaxLineLength,
        readSize: Int = LineReaderConfiguration.defaultReadSize,
        fillSize: Int = LineReaderConfiguration.defaultFillSize
    ) {
        self.maxLineLength = max(1, maxLineLength)
        self.readSize = min(max(1, readSize), 1 << 30)
        self.fillSize = min(max(1, fillSize), 1 << 30)
    }
}
