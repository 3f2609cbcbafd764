#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which library inflates gzip input: ISA-L's, about twice as fast as zlib's on these logs,
/// where the package builds it (Debian's `libisal-dev`, `Package.swift`); zlib's where it does
/// not, or when the environment has `AVT_REPLAY_GZIP=zlib`, which the test command sets to run
/// the reading tests with zlib in the build they were built in (docs/testing.md). Both give the
/// same entries and the same problems, in the same words. Read once per process.
package enum GzipLibrary: Sendable {
    case isal
    case zlib

    /// The library this process inflates with.
    package static let inUse: GzipLibrary = {
        #if AVT_REPLAY_ISAL
            if let chosen = getenv("AVT_REPLAY_GZIP"), String(cString: chosen) == "zlib" { return .zlib }
            return .isal
        #else
            return .zlib
        #endif
    }()
}

/// A gzip inflate stream that reads concatenated gzip members as one stream, as `zcat` does
/// (``IsalGzipInflater``, ``ZlibGzipInflater``).
protocol GzipInflating: AnyObject {
    /// The bytes of the library's inflate state, which an inflater allocates.
    static var stateByteCount: Int { get }
    init(displayName: String)
    /// Whether all input handed over has been consumed.
    var needsInput: Bool { get }
    /// Hands over the next input bytes; they must stay valid until ``needsInput`` is true again.
    func supply(_ bytes: UnsafeMutableRawPointer, count: Int)
    /// Decompresses into `output`, up to `capacity` bytes (at least 1, at most 4 GiB);
    /// `inputEnded`: whether the input has no bytes beyond those supplied.
    func inflate(into output: UnsafeMutableRawPointer, capacity: Int, inputEnded: Bool) throws(EventLogError)
        -> GzipMembers.Step
}

/// The inflater of the library in use (``GzipLibrary/inUse``).
enum GzipInflater {
    /// The type that inflates in this process.
    static var inUse: any GzipInflating.Type {
        #if AVT_REPLAY_ISAL
            if GzipLibrary.inUse == .isal { return IsalGzipInflater.self }
        #endif
        return ZlibGzipInflater.self
    }

    /// The inflaters this build has: zlib's always, ISA-L's first where it is built.
    static var built: [any GzipInflating.Type] {
        #if AVT_REPLAY_ISAL
            return [IsalGzipInflater.self, ZlibGzipInflater.self]
        #else
            return [ZlibGzipInflater.self]
        #endif
    }

    /// The bytes of the inflate state an inflater of the library in use allocates.
    static var stateByteCount: Int { inUse.stateByteCount }

    /// A new inflater of the library in use, for the input named `displayName`.
    static func make(displayName: String) -> any GzipInflating { inUse.init(displayName: displayName) }
}
