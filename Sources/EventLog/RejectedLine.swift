/// A line of an event log that was not replayed, and why.
public struct RejectedLine: Hashable, Sendable, CustomStringConvertible {
    /// The most bytes of a rejected line that are kept in ``excerpt``.
    public static let excerptLimit = 200

    /// The file's display name: its path as given, or `<stdin>`.
    public var file: String
    /// The 1-based line number.
    public var line: Int
    /// Why the line was rejected, e.g. `"ts" must be an integer or an RFC 3339 string`.
    public var reason: String
    /// The first ``excerptLimit`` bytes of the line (possibly cutting a UTF-8 sequence).
    public var excerpt: [UInt8]

    /// Creates a rejection, keeping at most ``excerptLimit`` bytes of `excerpt`.
    public init(file: String, line: Int, reason: String, excerpt: some Collection<UInt8>) {
        self.file = file
        self.line = line
        self.reason = reason
        self.excerpt = Array(excerpt.prefix(RejectedLine.excerptLimit))
    }

    /// Creates a rejection from the bytes of the line, keeping its first ``excerptLimit`` bytes.
    public init(file: String, line: Int, reason: String, bytes: UnsafeRawBufferPointer) {
        self.init(
            file: file, line: line, reason: reason,
            excerpt: UnsafeRawBufferPointer(rebasing: bytes.prefix(RejectedLine.excerptLimit)))
    }

    /// The excerpt as text; invalid UTF-8 (such as a sequence cut at the limit) becomes U+FFFD.
    public var excerptText: String {
        String(decoding: excerpt, as: UTF8.self)
    }

    /// `file:line: reason`, e.g. `a.jsonl.gz:12: missing "ts"`.
    public var description: String {
        "\(file):\(line): \(reason)"
    }
}
