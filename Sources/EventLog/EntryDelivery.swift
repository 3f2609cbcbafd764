extension RecordDecoder {
    /// Decodes a line, or rejects one found too long, and hands the entry to `body`: what
    /// ``EventLogReader`` and `EntrySource` make of each ``LineEvent``.
    func deliver<E: Error>(
        _ event: LineEvent, file: String, maxLineLength: Int, to body: (consuming LogEntry) throws(E) -> Void
    ) throws(E) {
        switch event {
        case .line(let line):
            // Consumed, so that the record is moved into the entry rather than copied (a copy
            // retains and releases each of its references).
            let decoded = decode(line)
            switch consume decoded {
            case .record(let record):
                try body(.record(consume record, line: line.number))
            case .rejected(let reason):
                try body(.rejected(RejectedLine(file: file, line: line.number, reason: reason, bytes: line.bytes)))
            }
        case .tooLong(let number, let prefix):
            let reason = "line longer than \(maxLineLength) bytes"
            try body(.rejected(RejectedLine(file: file, line: number, reason: reason, bytes: prefix)))
        }
    }
}
