import CZlib

/// A zlib inflate stream that reads concatenated gzip members as one stream, as `zcat` does.
///
/// Zero bytes after a member (tape-style padding) are skipped; any other bytes start a new
/// member, and zlib reports them as corrupt if they are not one.
final class GzipInflater {
    /// What one call to ``inflate(into:capacity:)`` did.
    enum Step {
        /// This many bytes of output were written (possibly 0: more input is needed).
        case produced(Int)
        /// The input ended cleanly after a complete member.
        case finished
    }

    private let stream: UnsafeMutablePointer<z_stream>
    private let displayName: String
    private var initialized = false
    /// True between the end of a member and the start of the next one.
    private var betweenMembers = false

    init(displayName: String) throws(EventLogError) {
        self.displayName = displayName
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 15 + 32: a 32 KiB window, gzip or zlib header detected automatically.
        let status = czlib_inflate_init2(stream, 15 + 32)
        guard status == Z_OK else {
            throw EventLogError(
                file: displayName, kind: .corruptGzip,
                message: "cannot start zlib (\(GzipInflater.message(stream, status)))")
        }
        initialized = true
    }

    deinit {
        if initialized {
            inflateEnd(stream)
        }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Whether all input handed over has been consumed.
    var needsInput: Bool { stream.pointee.avail_in == 0 }

    /// Hands over the next input bytes; they must stay valid until ``needsInput`` is true again.
    func supply(_ bytes: UnsafeMutableRawPointer, count: Int) {
        stream.pointee.next_in = bytes.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = uInt(count)
    }

    /// Decompresses into `output`, up to `capacity` bytes (at least 1).
    ///
    /// - Parameter inputEnded: whether the input has no bytes beyond those supplied.
    func inflate(into output: UnsafeMutableRawPointer, capacity: Int, inputEnded: Bool) throws(EventLogError) -> Step {
        if betweenMembers {
            skipZeroPadding()
            if needsInput {
                return inputEnded ? .finished : .produced(0)
            }
            inflateReset(stream)
            betweenMembers = false
        }
        stream.pointee.next_out = output.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(capacity)
        let status = CZlib.inflate(stream, Z_NO_FLUSH)
        let produced = capacity - Int(stream.pointee.avail_out)
        switch status {
        case Z_STREAM_END:
            betweenMembers = true
            return .produced(produced)
        case Z_OK:
            return .produced(produced)
        case Z_BUF_ERROR:
            // No progress was possible: zlib needs more input.
            if produced == 0 && needsInput && inputEnded {
                throw EventLogError(file: displayName, kind: .truncatedGzip, message: "truncated gzip stream")
            }
            return .produced(produced)
        case Z_NEED_DICT:
            throw EventLogError(
                file: displayName, kind: .corruptGzip, message: "corrupt gzip data (a preset dictionary is needed)")
        default:
            throw EventLogError(
                file: displayName, kind: .corruptGzip,
                message: "corrupt gzip data (\(GzipInflater.message(stream, status)))")
        }
    }

    /// Consumes zero bytes at the start of the pending input.
    private func skipZeroPadding() {
        guard let next = stream.pointee.next_in else { return }
        var index = 0
        let available = Int(stream.pointee.avail_in)
        while index < available && next[index] == 0 {
            index += 1
        }
        stream.pointee.next_in = next + index
        stream.pointee.avail_in -= uInt(index)
    }

    /// zlib's message for a failure, or the status code when it has none.
    private static func message(_ stream: UnsafeMutablePointer<z_stream>, _ status: Int32) -> String {
        if let text = stream.pointee.msg {
            return String(cString: text)
        }
        switch status {
        case Z_MEM_ERROR: return "out of memory"
        case Z_STREAM_ERROR: return "invalid stream state"
        case Z_DATA_ERROR: return "invalid data"
        default: return "zlib status \(status)"
        }
    }
}
