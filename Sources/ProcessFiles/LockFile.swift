import Foundation

/// An exclusive lock on a file that holds the pid of the process that has it: `flock(2)`, which
/// the kernel lets go of when that process ends, however it ends, so a lock is never left behind
/// by a killed run.
///
/// The lock file is the tool's own: a link or anything but a plain file at its path is
/// refused, never followed or written (`O_NOFOLLOW`, then `fstat`). With `removedWhenReleased`
/// the file is removed by its holder when it lets the lock go, so that a run leaves no lock
/// file behind; a process that locked the file just as it was removed finds that its path
/// names another file (or none) and takes the lock again on what is there now, so two
/// processes never hold the lock of one path at once. Without it, the file stays.
package final class LockFile {
    /// The lock file, open while the lock is held; -1 once ``release()`` let it go.
    private var descriptor: Int32
    private let path: String
    private let removedWhenReleased: Bool

    /// Why a lock was not taken.
    package enum Failure: Error {
        /// Another process holds it (its pid, when it wrote it yet); only without waiting.
        case held(by: pid_t?)
        /// The file could not be opened or locked: what failed, with the system's reason.
        case failed(String)
    }

    /// Takes the lock on `path` (the file made if missing) and writes this process's pid into
    /// it. Held by another process, it throws ``Failure/held(by:)``; or, with `waiting`, tells
    /// `waiting` once who holds it and waits for it, without using the processor.
    package init(path: String, removedWhenReleased: Bool = false, waiting: ((_ holder: pid_t?) -> Void)? = nil)
        throws(Failure)
    {
        self.path = path
        self.removedWhenReleased = removedWhenReleased
        var told = false
        // A file removed by its holder between this process's open and its lock is opened again.
        for _ in 0..<1_000 {
            let descriptor = try Self.openPlainFile(path)
            while flock(descriptor, LOCK_EX | (told ? 0 : LOCK_NB)) != 0 {
                let error = errno
                if error == EINTR { continue }
                guard error == EWOULDBLOCK, !told else {
                    close(descriptor)
                    throw .failed("lock \(path): \(String(cString: strerror(error)))")
                }
                let holder = Self.holder(descriptor)
                guard let waiting else {
                    close(descriptor)
                    throw .held(by: holder)
                }
                waiting(holder)
                told = true
            }
            guard Self.names(path, descriptor) else {
                close(descriptor)
                continue
            }
            self.descriptor = descriptor
            // The pid is only for the message of another process: a disk too full to take it does
            // not keep the lock from working.
            let pid = Array("\(getpid())\n".utf8)
            if ftruncate(descriptor, 0) == 0 {
                _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            }
            return
        }
        throw .failed("lock \(path): it was removed and made again 1,000 times while this process locked it")
    }

    deinit {
        release()
    }

    /// Lets the lock go (removing the file first, with `removedWhenReleased`); the lock's end
    /// does it too. Calling it again does nothing.
    package func release() {
        guard descriptor >= 0 else { return }
        if removedWhenReleased && Self.names(path, descriptor) { unlink(path) }
        close(descriptor)
        descriptor = -1
    }

    /// Opens (or creates) a plain file at `path` for the lock, refusing a link, a device, a
    /// folder or a pipe there.
    private static func openPlainFile(_ path: String) throws(Failure) -> Int32 {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
        guard descriptor >= 0 else {
            let error = errno
            if error == ELOOP { throw .failed("\(path) is a symbolic link, which avt-replay does not follow") }
            throw .failed("open \(path): \(String(cString: strerror(error)))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .failed("\(path) is not a plain file (a device, a folder or a pipe), which avt-replay does not use")
        }
        return descriptor
    }

    /// Whether `path` names the file open as `descriptor` (not removed, nor made again).
    private static func names(_ path: String, _ descriptor: Int32) -> Bool {
        var named = stat()
        var open = stat()
        return lstat(path, &named) == 0 && fstat(descriptor, &open) == 0 && named.st_dev == open.st_dev
            && named.st_ino == open.st_ino
    }

    /// The pid the holder wrote into the lock file, if it did yet.
    private static func holder(_ descriptor: Int32) -> pid_t? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return pid_t(text).flatMap { $0 > 0 ? $0 : nil }
    }
}
