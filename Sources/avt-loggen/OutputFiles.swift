import Glibc

/// The hourly files: `DIR/avt-YYYYMMDDHH.jsonl`, written one after the other.
///
/// A record goes to the file of the hour it is written in (its timestamp, or for a late
/// record the time it arrived), counted from `--start`; a record written after the last
/// hour goes to the last file. Every file of the range is created, empty if need be.
final class OutputFiles {
    let directory: String
    let start: Int64
    let count: Int
    /// The bytes not yet written to the current file.
    var buffer: [UInt8] = []
    private(set) var bytesWritten: Int64 = 0
    private var current = -1
    private var descriptor: Int32 = -1

    init(directory: String, start: Int64, count: Int) {
        self.directory = directory
        self.start = start
        self.count = count
        buffer.reserveCapacity(1 << 21)
    }

    func path(of index: Int) -> String {
        directory + "/avt-" + CivilTime.hourStamp(start + Int64(index) * 3_600_000) + ".jsonl"
    }

    /// Makes the file of `time`'s hour the current one; records written next go there.
    func select(time: Int64) throws(GeneratorError) {
        let hour = time <= start ? 0 : Int((time - start) / 3_600_000)
        let index = min(hour, count - 1)
        if index != current {
            try switchTo(index)
        } else if buffer.count >= 1 << 20 {
            try flush()
        }
    }

    /// Writes what is buffered, creates the files not reached and closes the last one.
    func finish() throws(GeneratorError) {
        try switchTo(count - 1)
        try flush()
        close(descriptor)
        descriptor = -1
    }

    private func switchTo(_ index: Int) throws(GeneratorError) {
        guard index != current else { return }
        try flush()
        if descriptor >= 0 { close(descriptor) }
        var next = current + 1
        while next <= index {
            let path = path(of: next)
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else { throw GeneratorError("cannot create \(path): errno \(errno)") }
            if next < index { close(fd) } else { descriptor = fd }
            next += 1
        }
        current = index
    }

    private func flush() throws(GeneratorError) {
        guard !buffer.isEmpty else { return }
        let written: Int = buffer.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return 0 }
            var offset = 0
            while offset < raw.count {
                let result = write(descriptor, base + offset, raw.count - offset)
                if result < 0 {
                    if errno == EINTR { continue }
                    return -1
                }
                offset += result
            }
            return offset
        }
        guard written >= 0 else { throw GeneratorError("write to \(path(of: current)) failed: errno \(errno)") }
        bytesWritten += Int64(written)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A failure the generator reports and exits on.
struct GeneratorError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
