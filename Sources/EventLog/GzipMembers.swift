/// What the two gzip inflaters (``IsalGzipInflater``, ``ZlibGzipInflater``) share: the steps
/// they report, and what lies between two gzip members of one file.
enum GzipMembers {
    /// What one call to an inflater's `inflate(into:capacity:inputEnded:)` did.
    enum Step {
        /// This many bytes of output were written (possibly 0: more input is needed).
        case produced(Int)
        /// The input ended cleanly after a complete member.
        case finished
    }

    /// Skips the zero bytes after a member (tape-style padding) in the pending input, then
    /// checks that what follows can begin a gzip member: an inflater waits for a whole header
    /// before judging it, but bytes that cannot begin one are corrupt data at once, not a
    /// member cut short.
    static func skipPadding(
        _ next: inout UnsafeMutablePointer<UInt8>?, _ available: inout UInt32, file: String
    ) throws(EventLogError) {
        guard let start = next else { return }
        var index = 0
        while index < Int(available) && start[index] == 0 { index += 1 }
        next = start + index
        available -= UInt32(index)
        guard available > 0 else { return }
        if start[index] != 0x1F || (available > 1 && start[index + 1] != 0x8B) {
            throw EventLogError(file: file, kind: .corruptGzip, message: "corrupt gzip data (not a gzip member)")
        }
    }
}
