import EventLog
import EventModel
import Foundation

/// An input file as `--state` records it (``RunState``): its bytes' size and digest, which
/// tell a rerun, and its name for messages.
///
/// The digest is FNV-1a 64 of the file's bytes (``fnv1a64(_:continuing:)``), read 1 MiB at a
/// time: a function fixed by its definition, so that state files written by any version compare.
struct InputIdentity: Equatable {
    /// The path as given.
    var name: String
    var size: Int64
    var digest: UInt64

    /// The bytes digested at a time.
    static let chunkSize = 1 << 20

    /// What tells an input, whatever its name: two inputs with the same hold the same bytes.
    struct Content: Hashable {
        var size: Int64
        var digest: UInt64
    }

    var content: Content { Content(size: size, digest: digest) }

    /// The digest as the state file writes it: 16 lowercase hex digits.
    var digestText: String { hexDigits(of: digest) }

    /// Reads back ``digestText``.
    static func digest(fromText text: String) -> UInt64? {
        guard text.utf8.count == 16, text.utf8.allSatisfy({ $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "+") })
        else { return nil }
        return UInt64(text, radix: 16)
    }

    /// Reads the file at `path` whole and digests it. `nil` for standard input (`-`), for
    /// anything but a regular file (reading a pipe here would leave nothing to replay), and for
    /// a file that cannot be read (the replay reports that).
    static func of(path: String) -> InputIdentity? {
        guard path != "-" else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 8)
        defer { buffer.deallocate() }
        guard let base = buffer.baseAddress else { return nil }
        var size: Int64 = 0
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        while true {
            var filled = 0
            while filled < chunkSize {
                let count = read(descriptor, base + filled, chunkSize - filled)
                if count < 0 {
                    if errno == EINTR { continue }
                    return nil
                }
                if count == 0 { break }
                filled += count
            }
            if filled > 0 {
                digest = fnv1a64(UnsafeRawBufferPointer(rebasing: buffer[0..<filled]), continuing: digest)
                size += Int64(filled)
            }
            if filled < chunkSize { break }
        }
        return InputIdentity(name: path, size: size, digest: digest)
    }

    /// Whether the input at `path` holds at least one entry (a line not blank). Only inputs
    /// that do are recorded: one without any cannot be counted twice.
    static func hasEntries(_ path: String) -> Bool {
        guard let source = try? EntrySource(path: path, decoder: RecordDecoder()) else { return false }
        defer { source.close() }
        var count = 0
        _ = try? source.next(upTo: 1) { _ in count += 1 }
        return count > 0
    }
}
