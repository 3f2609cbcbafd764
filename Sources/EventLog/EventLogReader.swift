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
    /// Reading ahead, the bytes read up to the lines handed to `body` so far.
    public var bytesRead: Int64 { bytesReadAhead ?? lines.bytesRead }
    private var bytesReadAhead: Int64?
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

    /// Reads the input to its end as ``forEachEntry(_:)`` does, with the same entries in the
    /// same order; with a `thread`, that thread reads, inflates and splits the input into
    /// blocks of lines while this one decodes them and runs `body`.
    ///
    /// Measured: inflating, decoding and routing records made the calling thread the replay
    /// pipeline's longest stage, with its workers idle half the time. Only bytes cross
    /// between the threads: records are made, routed and released on the threads that use
    /// them (decoding on the replay's workers instead moved records' strings and buffers
    /// between cores, and cost more than it saved).
    ///
    /// - Throws: ``EventLogError`` for a read error or a damaged gzip stream (after the
    ///   entries of all lines before the damage).
    public func forEachEntry(readingAheadOn thread: ReadingThread?, _ body: (consuming LogEntry) -> Void) throws {
        guard let thread else { return try forEachEntry(body) }
        let file = displayName
        let maxLineLength = lines.maxLineLength
        let queue = LineBlockQueue()
        // Only the reading thread uses the line reader until it puts the end in the queue.
        nonisolated(unsafe) let lines = self.lines
        thread.run {
            var block = LineBlock.spareOrNew()
            // The block being filled, used without a retain and a release per line (measured:
            // 2 of a record's 40 atomic reference-count operations); `block` keeps it.
            var filling = Unmanaged.passUnretained(block)
            func handOver(last: Bool = false) {
                block.bytesRead = lines.bytesRead
                queue.put(.block(block))
                if !last {
                    block = LineBlock.spareOrNew()
                    filling = Unmanaged.passUnretained(block)
                }
            }
            var failure: (any Error)?
            do {
                try lines.forEachLine { event in
                    if !filling._withUnsafeGuaranteedRef({ $0.hasRoom(for: event) }) { handOver() }
                    let isFull = filling._withUnsafeGuaranteedRef { block in
                        block.append(event)
                        return block.isFull
                    }
                    if isFull { handOver() }
                }
            } catch {
                failure = error
            }
            if block.isEmpty { LineBlock.recycle(block) } else { handOver(last: true) }
            queue.put(.end(error: failure))
        }
        while true {
            switch queue.take() {
            case .block(let block):
                bytesReadAhead = block.bytesRead
                block.forEachLine { event in
                    decoder.deliver(event, file: file, maxLineLength: maxLineLength, to: body)
                }
                LineBlock.recycle(block)
            case .end(let error):
                bytesReadAhead = nil
                if let error { throw error }
                return
            }
        }
    }
}
