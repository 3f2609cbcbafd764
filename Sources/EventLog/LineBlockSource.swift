/// Reads one input a block of lines at a time without decoding them: the sequential half of an
/// ``EntrySource`` (reading, inflating, cutting lines), whose blocks a ``RecordDecoder`` decodes
/// on any thread. Called with the same limits, its blocks hold the lines of the entries that
/// ``EntrySource/next(upTo:_:)`` delivers, and the input ends at the same call.
///
/// Not thread-safe: one thread at a time reads a source, but that may be a different one each time.
package final class LineBlockSource {
    private let lines: LineSource
    private var isFinished = false

    /// Opens `path` (`-` for standard input); reading starts with the first ``skip(_:)`` or
    /// ``next(upTo:)``.
    /// - Throws: ``EventLogError`` when the file cannot be opened or is a directory.
    package init(path: String, configuration: LineReaderConfiguration) throws(EventLogError) {
        lines = try LineSource(path: path, displayName: LineReader.displayName(for: path), configuration: configuration)
    }

    /// Bytes read from the input so far (compressed bytes, for gzip).
    package var bytesRead: Int64 { lines.bytesRead }

    /// Reads past the lines of the next `count` entries.
    /// - Throws: ``EventLogError`` for a read error or a damaged gzip stream; the source is
    ///   closed afterwards.
    package func skip(_ count: Int) throws(EventLogError) {
        guard !isFinished else { return }
        do {
            if try !lines.read(upTo: count, { _ in }) { close() }
        } catch {
            close()
            throw error
        }
    }

    /// The lines of the next entries, at most `limit` of them. The block is the last
    /// (``LineBlock/isLast``) when the input ended in it, or an error (``LineBlock/error``)
    /// after its lines; the source is closed then, and later blocks are empty and last.
    package func next(upTo limit: Int) -> LineBlock {
        var block = LineBlock(file: lines.displayName, maxLineLength: lines.configuration.maxLineLength)
        if isFinished {
            block.isLast = true
        } else {
            do {
                block.isLast = try !lines.read(upTo: limit) { block.append($0) }
            } catch {
                block.error = error
                block.isLast = true
            }
            if block.isLast { close() }
        }
        block.bytesRead = bytesRead
        block.complete()
        return block
    }

    /// Releases the buffers and closes the file. Idempotent.
    package func close() {
        isFinished = true
        lines.close()
    }
}
