import CZlib

/// The gzip inflate stream of ``GzipInflating``'s contract, with zlib's inflate: what runs
/// where ISA-L is not built or not chosen (``GzipLibrary``). The same entries and the same
/// problems, in the same words, as the ISA-L one.
final class ZlibGzipInflater: GzipInflating {
    typealias Step = GzipMembers.Step

    /// The bytes of zlib's stream and its inflate state with the 32 KiB window.
    static var stateByteCount: Int { MemoryLayout<z_stream>.size + 7_168 + 32_768 }

    private let stream: UnsafeMutablePointer<z_stream>
    private let displayName: String
    /// True between the end of a member and the start of the next one.
    private var betweenMembers = false

    init(displayName: String) {
        self.displayName = displayName
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 15 + 16: the largest window, with the gzip wrapper and its CRC-32 checked.
        _ = inflateInit2_(stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Whether all input handed over has been consumed.
    var needsInput: Bool { stream.pointee.avail_in == 0 }

    /// Hands over the next input bytes; they must stay valid until ``needsInput`` is true again.
    func supply(_ bytes: UnsafeMutableRawPointer, count: Int) {
        stream.pointee.next_in = bytes.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_in = UInt32(count)
    }

    /// Decompresses into `output`, up to `capacity` bytes (at least 1, at most 4 GiB).
    ///
    /// - Parameter inputEnded: whether the input has no bytes beyond those supplied.
    func inflate(into output: UnsafeMutableRawPointer, capacity: Int, inputEnded: Bool) throws(EventLogError)
        -> Step
    {
        if betweenMembers {
            try GzipMembers.skipPadding(&stream.pointee.next_in, &stream.pointee.avail_in, file: displayName)
            if needsInput {
                return inputEnded ? .finished : .produced(0)
            }
            inflateReset(stream)
            betweenMembers = false
        }
        stream.pointee.next_out = output.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_out = UInt32(clamping: capacity)
        let status = CZlib.inflate(stream, Z_NO_FLUSH)
        let produced = capacity - Int(stream.pointee.avail_out)
        switch status {
        case Z_STREAM_END:
            betweenMembers = true
            return .produced(produced)
        case Z_OK:
            return .produced(produced)
        case Z_BUF_ERROR:
            // No progress was possible: more input is needed, or the stream was cut short.
            if needsInput && inputEnded {
                throw EventLogError(file: displayName, kind: .truncatedGzip, message: "truncated gzip stream")
            }
            return .produced(produced)
        case Z_NEED_DICT:
            throw EventLogError(
                file: displayName, kind: .corruptGzip, message: "corrupt gzip data (a preset dictionary is needed)")
        default:
            throw EventLogError(
                file: displayName, kind: .corruptGzip, message: "corrupt gzip data (\(message()))")
        }
    }

    /// zlib's message, in the words the ISA-L inflater uses where they mean the same.
    private func message() -> String {
        let text = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error"
        switch text {
        case "incorrect data check", "incorrect length check": return "incorrect checksum"
        case "incorrect header check": return "not a gzip member"
        case "unknown compression method": return "unsupported compression method"
        case "invalid block type", "invalid stored block lengths": return "invalid deflate block"
        case "invalid distance too far back": return "invalid distance too far back"
        default: return text
        }
    }
}
