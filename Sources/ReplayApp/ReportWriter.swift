import CWriteback
import Foundation
import ProcessFiles
import ReportEncoding

/// One output file written as the run goes: bytes go to a temporary file beside the target,
/// which replaces the target only on ``commit()``, so a run that fails or dies leaves the
/// previous file whole.
///
/// Each buffer written out is also sent on to disk at once, without waiting
/// (`avt_start_writeback` of `CWriteback`): left to the system, a run's reports stayed in
/// memory until ``commit()``'s `fsync`, which then wrote them all while the run's cores sat
/// idle; this keeps a run from leaving the system most of its reports to write at once.
final class ReportWriter {
    let path: String
    private let temporaryPath: String
    private var descriptor: Int32
    /// Room for twice ``flushSize``: a session's output is appended whole before the buffer is
    /// flushed, and a buffer of exactly ``flushSize`` doubled on the first append that crossed
    /// it. Pages never written take no memory.
    private var buffer = ByteWriter(capacity: 2 * ReportWriter.flushSize)
    private var failure: String?
    /// Whether the temporary file is complete on disk, waiting for ``publish()``.
    private var staged = false
    /// The bytes written out so far: where the next flush starts in the file.
    private var flushedCount: Int64 = 0

    /// Bytes buffered before they are written out.
    private static let flushSize = 1 << 20

    init(path: String) throws(AtomicFile.WriteError) {
        self.path = path
        temporaryPath = TemporaryName.of(path, pid: getpid())
        DiskStep.reach("create \(temporaryPath)")
        // Made new, never opened through what is there: a file left under this name (by a
        // process of the same pid long gone) or a link planted in its place is removed, not
        // written through.
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        descriptor = open(temporaryPath, flags, 0o644)
        if descriptor < 0 && errno == EEXIST && unlink(temporaryPath) == 0 {
            descriptor = open(temporaryPath, flags, 0o644)
        }
        guard descriptor >= 0 else { throw AtomicFile.WriteError(path: path, reason: String(cString: strerror(errno))) }
    }

    deinit {
        discard()
    }

    /// Drops what was written: the temporary file is removed and the target left as it was
    /// (nothing happens after ``publish()``).
    func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
            unlink(temporaryPath)
        } else if staged {
            staged = false
            unlink(temporaryPath)
        }
    }

    func append(_ bytes: [UInt8]) {
        buffer.append(bytes)
        if buffer.count >= Self.flushSize { flush() }
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(bytes.assumingMemoryBound(to: UInt8.self))
        if buffer.count >= Self.flushSize { flush() }
    }

    /// Appends what `body` writes into the buffer; returns how many bytes that was.
    func append(_ body: (inout ByteWriter) -> Void) -> Int {
        let start = buffer.count
        body(&buffer)
        let written = buffer.count - start
        if buffer.count >= Self.flushSize { flush() }
        return written
    }

    /// Writes what is buffered, flushes it to disk, and renames the file over the target.
    func commit() throws(AtomicFile.WriteError) {
        try stage()
        try publish()
    }

    /// Writes what is buffered and flushes it to disk: the file is complete beside its target,
    /// which is left as it was until ``publish()`` (or ``discard()`` removes the file).
    func stage() throws(AtomicFile.WriteError) {
        flush()
        if failure == nil && fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        descriptor = -1
        if let failure {
            unlink(temporaryPath)
            throw AtomicFile.WriteError(path: path, reason: failure)
        }
        staged = true
    }

    /// Renames the staged file over its target (or over `other`, a path on the same file
    /// system, instead).
    func publish(to other: String? = nil) throws(AtomicFile.WriteError) {
        guard staged else { return }
        staged = false
        let target = other ?? path
        DiskStep.reach("rename \(temporaryPath) to \(target)")
        if rename(temporaryPath, target) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw AtomicFile.WriteError(path: target, reason: reason)
        }
    }

    private func flush() {
        guard failure == nil, buffer.count > 0 else {
            buffer.truncate(to: 0)
            return
        }
        var written = 0
        buffer.withBytes(from: 0) { raw in
            while written < raw.count, let base = raw.baseAddress {
                let count = write(descriptor, base + written, raw.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                written += count
            }
        }
        // Only a hint: a failure to start the writeback shows, if at all, in `commit()`'s `fsync`.
        if written > 0 { _ = avt_start_writeback(descriptor, flushedCount, Int64(written)) }
        flushedCount += Int64(written)
        buffer.truncate(to: 0)
    }
}
