/// One non-blank line of input, without its line feed or a carriage return before it.
///
/// The bytes belong to the reader and are valid only during the callback that receives
/// the line: copy what must outlive it.
public struct Line {
    /// The 1-based line number, counting blank lines too.
    public let number: Int
    /// The line's bytes.
    public let bytes: UnsafeRawBufferPointer
    /// How many bytes may be read from `bytes.baseAddress` on: `bytes.count` plus at
    /// least ``LineReader/padding``, so the line can be parsed in place.
    public let readableCount: Int

    /// Describes a line; `readableCount` must not exceed the memory that is really readable.
    public init(number: Int, bytes: UnsafeRawBufferPointer, readableCount: Int) {
        self.number = number
        self.bytes = bytes
        self.readableCount = readableCount
    }
}

/// What a ``LineReader`` reports for each line that is not blank.
public enum LineEvent {
    /// A line of at most the configured maximum length.
    case line(Line)
    /// A line longer than the configured maximum: it was not kept whole, and reading
    /// resumes after its line feed. `prefix` holds its first bytes (all that was buffered
    /// when it was found too long: more than the maximum length), valid only during the
    /// callback.
    case tooLong(lineNumber: Int, prefix: UnsafeRawBufferPointer)
}
