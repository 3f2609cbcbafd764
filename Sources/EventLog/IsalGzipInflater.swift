#if AVT_REPLAY_ISAL
    import CIsal

    /// A gzip inflate stream that reads concatenated gzip members as one stream, as `zcat` does,
    /// with ISA-L's inflate (`libisal`), which is twice as fast as zlib's on these logs; built
    /// where ISA-L is (``GzipLibrary``).
    ///
    /// Zero bytes after a member (tape-style padding) are skipped; any other bytes start a new
    /// member, reported as corrupt if they are not one. Each member's CRC-32 and length are
    /// checked. Memory is the inflate state (about 85 KiB, the 32 KiB window included),
    /// whatever the file's size.
    final class IsalGzipInflater: GzipInflating {
        typealias Step = GzipMembers.Step

        /// The bytes of ISA-L's inflate state, which an inflater allocates.
        static var stateByteCount: Int { MemoryLayout<inflate_state>.size }

        private let state: UnsafeMutablePointer<inflate_state>
        private let displayName: String
        /// True between the end of a member and the start of the next one.
        private var betweenMembers = false

        init(displayName: String) {
            self.displayName = displayName
            state = UnsafeMutablePointer<inflate_state>.allocate(capacity: 1)
            isal_inflate_init(state)
            state.pointee.crc_flag = UInt32(ISAL_GZIP)
        }

        deinit {
            state.deallocate()
        }

        /// Whether all input handed over has been consumed.
        var needsInput: Bool { state.pointee.avail_in == 0 }

        /// Hands over the next input bytes; they must stay valid until ``needsInput`` is true again.
        func supply(_ bytes: UnsafeMutableRawPointer, count: Int) {
            state.pointee.next_in = bytes.assumingMemoryBound(to: UInt8.self)
            state.pointee.avail_in = UInt32(count)
        }

        /// Decompresses into `output`, up to `capacity` bytes (at least 1, at most 4 GiB).
        ///
        /// - Parameter inputEnded: whether the input has no bytes beyond those supplied.
        func inflate(into output: UnsafeMutableRawPointer, capacity: Int, inputEnded: Bool) throws(EventLogError)
            -> Step
        {
            if betweenMembers {
                try GzipMembers.skipPadding(&state.pointee.next_in, &state.pointee.avail_in, file: displayName)
                if needsInput {
                    return inputEnded ? .finished : .produced(0)
                }
                isal_inflate_reset(state)
                state.pointee.crc_flag = UInt32(ISAL_GZIP)
                betweenMembers = false
            }
            state.pointee.next_out = output.assumingMemoryBound(to: UInt8.self)
            state.pointee.avail_out = UInt32(clamping: capacity)
            let status = isal_inflate(state)
            let produced = capacity - Int(state.pointee.avail_out)
            guard status >= 0 else {
                throw EventLogError(
                    file: displayName, kind: .corruptGzip, message: "corrupt gzip data (\(Self.message(status)))")
            }
            if status == ISAL_NEED_DICT {
                throw EventLogError(
                    file: displayName, kind: .corruptGzip, message: "corrupt gzip data (a preset dictionary is needed)")
            }
            if state.pointee.block_state == ISAL_BLOCK_FINISH {
                betweenMembers = true
                return .produced(produced)
            }
            if produced == 0 && needsInput && inputEnded {
                throw EventLogError(file: displayName, kind: .truncatedGzip, message: "truncated gzip stream")
            }
            return .produced(produced)
        }

        /// What an ISA-L inflate error code means.
        private static func message(_ status: Int32) -> String {
            switch status {
            case ISAL_INVALID_BLOCK: return "invalid deflate block"
            case ISAL_INVALID_SYMBOL: return "invalid deflate symbol"
            case ISAL_INVALID_LOOKBACK: return "invalid distance too far back"
            case ISAL_INVALID_WRAPPER: return "not a gzip member"
            case ISAL_UNSUPPORTED_METHOD: return "unsupported compression method"
            case ISAL_INCORRECT_CHECKSUM: return "incorrect checksum"
            default: return "ISA-L status \(status)"
            }
        }
    }
#endif
