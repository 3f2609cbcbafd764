import Foundation

/// Request bodies compressed as one gzip member (RFC 1952), as InfluxDB accepts them with
/// `Content-Encoding: gzip`: line protocol shrinks to about a tenth, and a night's push sends
/// that much less. ISA-L's deflate where the package builds it, zlib's where it does not or
/// when the environment has `AVT_REPLAY_GZIP=zlib` (as for reading: `EventLog`'s `GzipLibrary`).
enum GzipBody {
    /// `bytes` gzip-compressed; `nil` only if the library fails, when the caller sends the bytes
    /// as they are.
    static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        #if AVT_REPLAY_ISAL
            if !choosesZlib { return IsalGzipBody.compress(bytes) }
        #endif
        return ZlibGzipBody.compress(bytes)
    }

    /// Whether the environment asks for zlib (read once per process).
    private static let choosesZlib = getenv("AVT_REPLAY_GZIP").map { String(cString: $0) == "zlib" } ?? false
}
