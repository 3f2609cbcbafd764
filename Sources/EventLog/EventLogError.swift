/// A problem with a whole input file: it cannot be read, or its gzip stream is damaged.
///
/// Problems with single lines are not errors: they are ``RejectedLine``s and reading goes on.
public struct EventLogError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// The file does not exist or may not be opened (`open(2)` failed).
        case cannotOpen
        /// The path names a directory.
        case isDirectory
        /// Reading failed after the file was opened (`read(2)` failed).
        case readFailed
        /// The gzip stream ends in the middle of a member.
        case truncatedGzip
        /// The data could not be decompressed: a bad gzip header, deflate data or checksum.
        case corruptGzip
    }

    /// The file's display name: its path as given, or `<stdin>`.
    public var file: String
    /// What went wrong.
    public var kind: Kind
    /// The problem in words, without the file name, e.g. `truncated gzip stream (cut in line 12)`.
    public var message: String

    /// Creates an error.
    public init(file: String, kind: Kind, message: String) {
        self.file = file
        self.kind = kind
        self.message = message
    }

    /// `file: message`.
    public var description: String { "\(file): \(message)" }
}
