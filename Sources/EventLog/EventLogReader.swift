import EventModel
import Foundation

/// Reads one event-log input (a file, or `-` for standard input; gzip or plain) and
/// decodes its lines: ``LineReader`` and ``RecordDecoder`` together.
///
/// ```swift
/// let reader = try EventLogReader(path: "a.jsonl.gz")
/// try reader.forEachEntry { entry in
///     switch entry {
///     case .record(let record, let line): ...
///     case .rejected(let rejection): print(rejection)   // a.jsonl.gz:12: missing "ts"
///     }
/// }
/// ```
public final class EventLogReader {
    /// The input's name for messages: its path as given, or `<stdin>` for `-`.
    public var displayName: String { lines.displayName }
    private let lines: LineReader

    /// Bytes read from the input so far (compressed bytes, for gzip), for progress reports.
    public var bytesRead: Int64 { lines.bytesRead }
    private let decoder = RecordDecoder()

    /// Opens `path` (`-` for standard input).
    ///
    /// - Throws: ``EventLogError`` when the file cannot be opened or is a directory.
    public init(path: String, configuration: LineReaderConfiguration = LineReaderConfiguration()) throws(EventLogError)
    {
        lines = try LineReader(path: path, configuration: configuration)
    }

    /// Reads the input to its end, calling `body` for each non-blank line in order. Each entry
    /// is handed over, so that its record can be moved on rather than copied.
    ///
    /// - Throws: ``EventLogError`` for a read error or a damaged gzip stream (after the
    ///   entries of all lines before the damage), or whatever `body` throws.
    public func forEachEntry(_ body: (consuming LogEntry) throws -> Void) throws {
        let file = displayName
        let maxLineLength = lines.maxLineLength
        try lines.forEachLine { event in
            try decoder.deliver(event, file: file, maxLineLength: maxLineLength, to: body)
        }
    }
}
