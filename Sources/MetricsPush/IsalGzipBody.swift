#if AVT_REPLAY_ISAL
    import CIsal

    /// ``GzipBody``'s contract with ISA-L's deflate, where the package builds it.
    enum IsalGzipBody {
        /// `bytes` gzip-compressed with ISA-L's one-shot deflate (level 0, which needs no buffer
        /// of its own); `nil` only if ISA-L fails, when the caller sends the bytes as they are.
        static func compress(_ bytes: [UInt8]) -> [UInt8]? {
            // Stored blocks at worst: the input, 5 bytes a 64 KiB block, the gzip header and trailer.
            let capacity = bytes.count + (bytes.count >> 12) + Int(ISAL_DEF_MAX_HDR_SIZE) + 64
            var output = [UInt8](repeating: 0, count: capacity)
            var stream = isal_zstream()
            isal_deflate_init(&stream)
            stream.gzip_flag = UInt16(IGZIP_GZIP)
            stream.end_of_stream = 1
            stream.flush = UInt16(NO_FLUSH)
            let status: Int32 = bytes.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { out in
                    stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                    stream.avail_in = UInt32(input.count)
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return isal_deflate_stateless(&stream)
                }
            }
            guard status == COMP_OK else { return nil }
            output.removeLast(Int(stream.avail_out))
            return output
        }
    }
#endif
