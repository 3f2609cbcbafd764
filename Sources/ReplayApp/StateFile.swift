import Foundation
import ProcessFiles

/// The `--state` file of a series of runs, with the state before its last run,
/// `FILE.previous` (what `--replace-run` starts from), and the lock one run at a time holds on
/// both, `FILE.lock`.
///
/// A new state is written whole beside the file first (``stage(_:)``); committing it then
/// takes three steps: the state it replaces is linked as `FILE.previous.next`, the new state
/// renamed over `FILE` (the commit itself), and the link renamed over `FILE.previous`. Before
/// the commit the pair is the old one, after it the new one: a run killed at any step, or one
/// that fills the disk, leaves a state and a previous state that belong together, and the
/// next run finishes or undoes the link (``recover()``) and removes the temporary files of
/// the runs that were killed.
final class StateFile {
    let path: String
    private let lock: RunLock
    private var writer: ReportWriter?
    /// The removal of the staged state and the lock, for a run that is interrupted.
    private var interruptionToken = 0
    /// This run's record in `FILE.pending`, once written (``beginRun(inputs:out:)``).
    private var pending: PendingRun?
    /// The options of the state staged: those of the empty state a first run keeps as
    /// `FILE.previous`, so that `--replace-run` checks them too.
    private var stagedOptions: RunState.Options?

    /// Where the state a commit replaces is kept: `FILE.previous`.
    static func previousPath(of path: String) -> String { path + ".previous" }

    private var previous: String { Self.previousPath(of: path) }
    /// The state being replaced, linked while a commit goes on.
    private var nextPrevious: String { path + ".previous.next" }

    /// Takes the state's lock and cleans up after a killed run; throws when another run
    /// holds the lock, or the lock file cannot be made.
    init(path: String) throws(RunLock.Failure) {
        self.path = path
        // The state and its lock, copies and temporary files beside it are the tool's own: a
        // state that is a link, a device or a folder is refused, and no lock made beside it.
        var status = stat()
        if lstat(path, &status) == 0 && status.st_mode & S_IFMT != S_IFREG {
            throw RunLock.Failure(
                description: "--state \(path) is "
                    + (status.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "not a plain file")
                    + ": avt-replay keeps its state in a plain file of its own, beside which it writes the "
                    + "state's lock and copies; give the path of one (a new name starts a new series)",
                isHeld: false)
        }
        lock = try RunLock(path: path + ".lock", for: "the state \(path)")
        registerRemoval(withPending: false)
        recover()
    }

    /// Registers what an interrupted run removes: the staged state and the lock, and before
    /// the commit this run's pending record (the run then ends with the state as it was).
    private func registerRemoval(withPending: Bool) {
        if interruptionToken != 0 { Interruption.unregister(interruptionToken) }
        let pendingPath = PendingRun.path(of: path)
        var removed = [
            TemporaryName.of(path, pid: getpid()), TemporaryName.of(pendingPath, pid: getpid()), path + ".lock",
        ]
        if withPending { removed.append(pendingPath) }
        interruptionToken = Interruption.register { [removed] in for file in removed { unlink(file) } }
    }

    /// Checks the record of a run that did not end (``PendingRun``) against this run's
    /// inputs, and records this run as pending: throws ``RunState/Failure`` when another run
    /// must be made again first, ``AtomicFile/WriteError`` when the record cannot be written.
    func beginRun(inputs: [InputIdentity?], out: String) throws {
        if let pending = try PendingRun.read(besideState: path), !pending.isRepeated(by: inputs) {
            throw RunState.Failure(description: "\(path): \(pending.repeatAdvice)")
        }
        try AtomicFile.write(try PendingRun(inputs: inputs, out: out).encoded(), to: PendingRun.path(of: path))
        pending = PendingRun(inputs: inputs, out: out)
        registerRemoval(withPending: true)
    }

    /// Names in the pending record the state staged (``stage(_:)``), before the reports are
    /// switched in: from then on an interruption waits for the commit, and a kill leaves the
    /// record for the next run.
    func willCommit(stagedIdentity: String) throws(AtomicFile.WriteError) {
        guard var pending else { return }
        pending.state = stagedIdentity
        self.pending = pending
        let bytes: [UInt8]
        do {
            bytes = try pending.encoded()
        } catch {
            throw AtomicFile.WriteError(path: PendingRun.path(of: path), reason: "\(error)")
        }
        try AtomicFile.write(bytes, to: PendingRun.path(of: path))
        registerRemoval(withPending: false)
    }

    /// Removes this run's pending record: it ended without publishing, and said so.
    func endUnpublished() {
        guard pending != nil else { return }
        pending = nil
        DiskStep.reach("remove \(PendingRun.path(of: path)), the run failed")
        unlink(PendingRun.path(of: path))
    }

    deinit {
        Interruption.unregister(interruptionToken)
    }

    /// Finishes or undoes the commit of a run killed in the middle, and removes the
    /// temporary files such runs left (`FILE.tmp-PID`, `FILE.previous.next.tmp-PID`).
    private func recover() {
        // Killed after its commit, before it removed its record: the record is done with.
        let pendingPath = PendingRun.path(of: path)
        if let pending = try? PendingRun.read(besideState: path), let staged = pending.state,
            (try? RunState.header(at: path))??.identity == staged
        {
            DiskStep.reach("remove \(pendingPath), left by a run killed after its commit")
            unlink(pendingPath)
        }
        if FileManager.default.fileExists(atPath: nextPrevious) {
            if FileManager.default.fileExists(atPath: path) && !Self.sameBytes(path, nextPrevious) {
                // Killed after the commit: the link is the state before it.
                DiskStep.reach("rename \(nextPrevious) to \(previous), the commit a killed run began")
                rename(nextPrevious, previous)
            } else {
                DiskStep.reach("remove \(nextPrevious), left by a killed run")
                unlink(nextPrevious)
            }
        }
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        let written = [name, name + ".previous", name + ".previous.next", name + ".pending"]
        for leftover in names {
            guard let owner = TemporaryName.owner(of: leftover),
                written.contains(where: { TemporaryName.of($0, pid: owner) == leftover })
            else { continue }
            let file = (folder as NSString).appendingPathComponent(leftover)
            DiskStep.reach("remove \(file), left by a killed run")
            unlink(file)
        }
    }

    /// Writes the new state beside the file, whole and on disk; nothing visible changes until
    /// ``commit(replacingLastRun:)``. Throws ``RunState/Failure`` when a life cannot be kept,
    /// ``AtomicFile/WriteError`` when the file cannot be written.
    func stage(_ saved: RunState.Saved) throws {
        let writer = try ReportWriter(path: path)
        self.writer = writer
        stagedOptions = saved.options
        do {
            try RunState.write(saved, into: writer)
        } catch {
            discard()
            throw error
        }
        try writer.stage()
    }

    /// Puts the staged state in place of the file. The state replaced becomes
    /// `FILE.previous`, but when the last run is replaced (`--replace-run`): the new state
    /// then follows the same previous one.
    func commit(replacingLastRun: Bool) throws(AtomicFile.WriteError) {
        guard let writer, let stagedOptions else { return }
        let folder = (path as NSString).deletingLastPathComponent
        if !replacingLastRun {
            if FileManager.default.fileExists(atPath: path) {
                DiskStep.reach("link \(path) as \(nextPrevious)")
                if link(path, nextPrevious) != 0 { try AtomicFile.copy(path, to: nextPrevious) }
            } else {
                // The first run of a series: the state before it is an empty one.
                try RunState.save(RunState.Saved(frontier: nil, options: stagedOptions), to: nextPrevious)
            }
            try Self.flush(folder)
        }
        try writer.publish()
        try Self.flush(folder)
        self.writer = nil
        if !replacingLastRun {
            DiskStep.reach("rename \(nextPrevious) to \(previous)")
            guard rename(nextPrevious, previous) == 0 else {
                throw AtomicFile.WriteError(path: previous, reason: String(cString: strerror(errno)))
            }
            try Self.flush(folder)
        }
        if pending != nil {
            pending = nil
            DiskStep.reach("remove \(PendingRun.path(of: path)), the run committed")
            unlink(PendingRun.path(of: path))
        }
    }

    /// Removes the staged state: the file and its previous state stay as they were.
    func discard() {
        writer?.discard()
        writer = nil
    }

    private static func flush(_ folder: String) throws(AtomicFile.WriteError) {
        do {
            try ReportFolder.flushFolder(folder.isEmpty ? "." : folder)
        } catch {
            throw AtomicFile.WriteError(path: folder, reason: error.description)
        }
    }

    /// Whether two files are one, or hold the same bytes.
    private static func sameBytes(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        if a.st_dev == b.st_dev && a.st_ino == b.st_ino { return true }
        guard a.st_size == b.st_size, let one = FileHandle(forReadingAtPath: first),
            let other = FileHandle(forReadingAtPath: second)
        else { return false }
        while true {
            let left = (try? one.read(upToCount: 1 << 20)) ?? nil
            let right = (try? other.read(upToCount: 1 << 20)) ?? nil
            guard left == right else { return false }
            if left?.isEmpty ?? true { return true }
        }
    }
}
