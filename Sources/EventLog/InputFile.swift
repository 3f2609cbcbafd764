#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file descriptor to read from: a file, or standard input for `-`.
final class InputFile {
    /// The name used in messages.
    let displayName: String
    /// Bytes read from the file so far (compressed bytes, for a gzip file).
    private(set) var bytesRead: Int64 = 0
    /// The descriptor, -1 once closed.
    private var descriptor: Int32
    private let ownsDescriptor: Bool

    /// Opens `path` for reading; `-` is standard input.
    init(path: String, displayName: String) throws(EventLogError) {
        self.displayName = displayName
        if path == "-" {
            descriptor = STDIN_FILENO
            ownsDescriptor = false
        } else {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw EventLogError(
                    file: displayName, kind: .cannotOpen, message: "cannot open (\(InputFile.describe(errno: errno)))")
            }
            descriptor = fd
            ownsDescriptor = true
        }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw EventLogError(file: displayName, kind: .isDirectory, message: "is a directory")
        }
    }

    deinit {
        close()
    }

    /// Closes the file (standard input stays open); reading afterwards fails. Idempotent.
    func close() {
        if ownsDescriptor && descriptor >= 0 {
            closeDescriptor(descriptor)
        }
        descriptor = -1
    }

    /// Reads up to `count` bytes into `buffer`; returns 0 at the end of the input.
    func readSome(into buffer: UnsafeMutableRawPointer, count: Int) throws(EventLogError) -> Int {
        while true {
            let result = read(descriptor, buffer, count)
            if result >= 0 {
                bytesRead += Int64(result)
                return result
            }
            let error = errno
            if error == EINTR {
                continue
            }
            let kind: EventLogError.Kind = error == EISDIR ? .isDirectory : .readFailed
            let message = error == EISDIR ? "is a directory" : "read error (\(InputFile.describe(errno: error)))"
            throw EventLogError(file: displayName, kind: kind, message: message)
        }
    }

    /// The C library's text for an `errno` value.
    static func describe(errno value: Int32) -> String {
        guard let text = strerror(value) else {
            return "error \(value)"
        }
        return String(cString: text)
    }
}

/// `close(2)`, out of reach of ``InputFile/close()``'s name.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
