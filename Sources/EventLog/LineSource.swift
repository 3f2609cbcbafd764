/// One input read step by step into a ``LineBuffer``: the reading shared by ``LineReader``
/// (which runs it to the end) and `EntrySource` (which runs it a few lines at a time).
///
/// Each ``fill()`` adds the input's next bytes to the buffer, read (plain input) or inflated
/// (gzip, sniffed by its magic bytes); the caller then ``drain(upTo:_:)``s the complete lines,
/// and fills again only once all of them are drained, so that an unfinished line is all the
/// buffer carries over. At the end of the input, ``finish(_:)`` reports a last line without a
/// line feed. Buffers are allocated on the first fill.
final class LineSource {
    private enum State {
        case unstarted
        case plain
        case gzip(GzipInput)
        case ended
    }

    /// The input's name for messages.
    let displayName: String
    let configuration: LineReaderConfiguration
    private let input: InputFile
    private var buffer: LineBuffer?
    private var state = State.unstarted

    /// Opens `path` (`-` for standard input); allocates no buffer yet.
    init(path: String, displayName: String, configuration: LineReaderConfiguration) throws(EventLogError) {
        self.displayName = displayName
        self.configuration = configuration
        input = try InputFile(path: path, displayName: displayName)
    }

    /// Bytes read from the input so far (compressed bytes, for gzip).
    var bytesRead: Int64 { input.bytesRead }

    /// The bytes of buffers and inflate state allocated now.
    var allocatedByteCount: Int {
        var count = buffer?.allocatedByteCount ?? 0
        if case .gzip(let gzip) = state {
            count += gzip.allocatedByteCount
        }
        return count
    }

    /// Adds the input's next bytes to the buffer: one read, or inflating until some bytes
    /// come out. Call it only when ``drain(upTo:_:)`` has reported every complete line.
    ///
    /// - Returns: false once the input has ended (then on every later call).
    /// - Throws: ``EventLogError`` for a read error or a damaged gzip stream; the input
    ///   counts as ended afterwards.
    func fill() throws(EventLogError) -> Bool {
        do {
            switch state {
            case .unstarted: return try start()
            case .plain: return try fillPlain()
            case .gzip(let gzip): return try fill(from: gzip)
            case .ended: return false
            }
        } catch {
            state = .ended
            throw error
        }
    }

    /// Reports the complete lines buffered, at most `limit` of them (see
    /// ``LineBuffer/drain(upTo:_:)``); returns how many it reported.
    @discardableResult
    func drain(upTo limit: Int = .max, _ body: (LineEvent) throws -> Void) rethrows -> Int {
        guard let buffer else { return 0 }
        return try buffer.drain(upTo: limit, body)
    }

    /// Reports the last line when the input does not end with a line feed; call it once
    /// ``fill()`` has returned false and every complete line is drained.
    func finish(_ body: (LineEvent) throws -> Void) rethrows {
        try buffer?.finish(body)
    }

    /// Reads on, reporting the next line events, at most `limit` of them: fills and drains
    /// until it reported `limit` or the input ended (then ``finish(_:)`` reports a last line
    /// without a line feed).
    ///
    /// - Returns: true when it reported `limit` events and more may follow; false once the
    ///   input has ended.
    /// - Throws: ``EventLogError`` for a read error or a damaged gzip stream, after the
    ///   events of all lines before the damage.
    func read(upTo limit: Int, _ body: (LineEvent) -> Void) throws(EventLogError) -> Bool {
        var reported = 0
        while reported < limit {
            reported += drain(upTo: limit - reported, body)
            guard reported < limit else { break }
            guard try fill() else {
                finish(body)
                return false
            }
        }
        return true
    }

    /// Releases the buffers and inflate state; the file stays open. Reading is over.
    func releaseBuffers() {
        buffer = nil
        state = .ended
    }

    /// Releases the buffers and closes the file. Idempotent.
    func close() {
        releaseBuffers()
        input.close()
    }

    /// Sniffs the first bytes, read into the line buffer, and starts reading plain or gzip.
    private func start() throws(EventLogError) -> Bool {
        let buffer = LineBuffer(
            maxLineLength: configuration.maxLineLength,
            fillSize: configuration.fillSize,
            padding: LineReader.padding
        )
        self.buffer = buffer
        let first = buffer.initialRegion(count: configuration.readSize)
        guard let target = first.baseAddress else {
            state = .ended
            return false
        }
        let sniffLimit = min(max(configuration.readSize, 2), first.count)
        var sniffed = 0
        while sniffed < 2 {
            let count = try input.readSome(into: target + sniffed, count: sniffLimit - sniffed)
            if count == 0 {
                break
            }
            sniffed += count
        }
        if sniffed >= 2 && first[0] == 0x1F && first[1] == 0x8B {
            let gzip = GzipInput(
                displayName: displayName, readSize: configuration.readSize,
                initialInput: UnsafeRawBufferPointer(rebasing: first[0..<sniffed]))
            state = .gzip(gzip)
            return try fill(from: gzip)
        }
        // The sniffed bytes are the first fill, even when there are none: the next fill
        // reads on, and finds the end.
        state = .plain
        buffer.didFill(sniffed)
        return true
    }

    private func fillPlain() throws(EventLogError) -> Bool {
        guard let buffer else { return false }
        let region = buffer.nextFillRegion()
        guard let target = region.baseAddress else { return false }
        let count = try input.readSome(into: target, count: min(region.count, configuration.readSize))
        if count == 0 {
            state = .ended
            return false
        }
        buffer.didFill(count)
        return true
    }

    private func fill(from gzip: GzipInput) throws(EventLogError) -> Bool {
        guard let buffer else { return false }
        let inflater = gzip.inflater
        while true {
            if inflater.needsInput && !gzip.inputEnded {
                let count = try input.readSome(into: gzip.readBuffer, count: configuration.readSize)
                if count == 0 {
                    gzip.inputEnded = true
                } else {
                    inflater.supply(gzip.readBuffer, count: count)
                }
            }
            let region = buffer.nextFillRegion()
            guard let target = region.baseAddress else { return false }
            let step: GzipMembers.Step
            do {
                step = try inflater.inflate(into: target, capacity: region.count, inputEnded: gzip.inputEnded)
            } catch {
                guard error.kind == .truncatedGzip else { throw error }
                throw EventLogError(
                    file: displayName, kind: .truncatedGzip,
                    message: "truncated gzip stream (cut in line \(buffer.lineNumber))")
            }
            switch step {
            case .finished:
                state = .ended
                return false
            case .produced(let count):
                if count > 0 {
                    buffer.didFill(count)
                    return true
                }
            }
        }
    }
}

/// What reading a gzip input takes besides the line buffer: the inflater and the buffer its
/// compressed input is read into.
private final class GzipInput {
    let inflater: any GzipInflating
    let readBuffer: UnsafeMutableRawPointer
    private let readBufferSize: Int
    /// Whether the input has no bytes beyond those read.
    var inputEnded = false

    /// Starts with `initialInput`, the bytes read before gzip was recognized.
    init(displayName: String, readSize: Int, initialInput: UnsafeRawBufferPointer) {
        readBufferSize = max(readSize, initialInput.count)
        readBuffer = UnsafeMutableRawPointer.allocate(byteCount: readBufferSize, alignment: 64)
        if let source = initialInput.baseAddress {
            readBuffer.copyMemory(from: source, byteCount: initialInput.count)
        }
        inflater = GzipInflater.make(displayName: displayName)
        inflater.supply(readBuffer, count: initialInput.count)
    }

    deinit {
        readBuffer.deallocate()
    }

    var allocatedByteCount: Int { readBufferSize + GzipInflater.stateByteCount }
}
