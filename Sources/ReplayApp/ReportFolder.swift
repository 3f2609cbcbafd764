import CExchange
import Foundation
import ProcessFiles
import ReportDiff

/// The folder a run's reports go into (`--out`), replaced whole: a reader finds in it one
/// run's complete set of reports or the previous run's, never a mix, whatever happens to the
/// run and when.
///
/// A run writes its set into a folder of its own, `next`, in a workspace beside the report
/// folder (`.<name>.avt-replay/`, which also holds the lock); when every file is complete and
/// on disk, the two folders are swapped in one step (Linux's `RENAME_EXCHANGE`), and the
/// replaced set, now in the workspace, is removed. Until that step a reader sees only the
/// previous set; a file it has open stays readable after. Where the file system cannot swap
/// (NFS, a system other than Linux), the report folder is renamed aside and the new set
/// renamed in its place: for that instant there is no folder, still never a mix.
///
/// Files of the report folder that avt-replay does not write are kept, linked into each new
/// set; a folder of the user's inside it is refused, as it could not be kept whole. Each new
/// set takes the mode, owner and group of the folder it replaces. The run holds the lock until
/// it ends, so two runs never interleave; then it removes its workspace, lock and all, so that
/// a run that ends leaves nothing beside the folder. The next run removes what a killed run
/// left in the workspace (``recover()``), and the temporary files of writes it did into the
/// folder (`run.json.tmp-PID`). The workspace and what is in it are the tool's own: a link or
/// anything but a folder there is refused, never followed.
package final class ReportFolder {
    /// The report folder, as given.
    package let path: String
    /// Where this run writes its set before ``publish()``.
    package let staging: String
    /// The report folder, with links resolved: the folder that is replaced.
    private let target: String
    /// The set replaced, while the two-rename switch goes on (where there is no swap).
    private let replaced: String
    /// `.<name>.avt-replay`, beside the report folder: the lock, ``staging`` and ``replaced``.
    private let workspace: String
    private let lock: RunLock
    /// Whether the report folder was there when the run began (a run that fails leaves none
    /// where there was none).
    package let existed: Bool
    /// The folders above the report folder this run made (`--out a/new/reports`), deepest
    /// last: removed again when the run ends without publishing.
    private var madeParents: [String] = []
    /// Whether ``publish()`` put the new set in place.
    private var published = false
    /// The removal of the workspace, registered for a run that is interrupted (``Interruption``).
    private var interruptionToken: Int?

    /// Why a report folder cannot be used, or published.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        /// Whether another run holds the folder.
        package var isBusy = false
    }

    /// The names of the files a run writes into its report folder (the others are the
    /// user's, and kept).
    package static let ownNames: Set<String> = Set(ReportFile.allCases.map(\.name)).union([
        "run.json", ReportSet.indexName, ReportSet.stateName, MergeState.fileName, "check-options.json",
    ])

    /// Where an earlier version kept the spool by default, inside the report folder; it is
    /// moved to ``defaultSpool(of:)`` by the first run of this version.
    private static let formerSpoolName = "spool"

    /// The spool beside a report folder, `<folder>.spool`: outside it, as each run replaces
    /// the folder whole.
    package static func defaultSpool(of folder: String) -> String {
        trimmed(folder) + ".spool"
    }

    /// Where a refused run (`--strict`, `--max-rejects`, `--max-late`) keeps its rejects,
    /// beside the report folder it leaves untouched: `<folder>.refused-rejects.jsonl`.
    package static func refusedRejects(of folder: String) -> String {
        trimmed(folder) + ".refused-rejects.jsonl"
    }

    /// Takes the folder's lock, cleans up after a run that was killed, and makes an empty
    /// ``staging`` folder; throws when another run holds the lock, or the folder cannot be a
    /// report folder (the current folder, a mount point, a file, or one holding a folder of
    /// the user's).
    package init(path: String) throws(Failure) {
        self.path = path
        var url = URL(fileURLWithPath: Self.trimmed(path)).standardizedFileURL
        if FileManager.default.fileExists(atPath: url.path) { url = url.resolvingSymlinksInPath() }
        target = url.path
        let parent = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).resolvingSymlinksInPath().path
        if target == "/" || current == target || current.hasPrefix(target + "/") {
            throw Failure(
                description: "--out \(path) is the current folder or holds it: the reports need a folder of their "
                    + "own, which each run replaces whole (such as --out reports)")
        }
        workspace = (parent as NSString).appendingPathComponent(".\(name).avt-replay")
        staging = (workspace as NSString).appendingPathComponent("next")
        replaced = (workspace as NSString).appendingPathComponent("replaced")
        var targetStatus = stat()
        existed = lstat(target, &targetStatus) == 0
        do {
            madeParents = try Self.makeParents(of: parent)
            lock = try Self.lockWorkspace(workspace, of: path)
        } catch {
            Self.removeParents(madeParents)
            throw error
        }
        do {
            try recover()
            try checkTarget(parent: parent)
            try makeStaging(like: existed ? targetStatus : nil)
        } catch {
            removeWorkspace()
            throw error
        }
        let (target, staging, replaced, workspace) = (target, staging, replaced, workspace)
        let (lockFile, madeParents) = ((workspace as NSString).appendingPathComponent("lock"), madeParents)
        interruptionToken = Interruption.register {
            // The process is ending: its lock goes with it, and its file first.
            Self.removeWorkspace(
                target: target, staging: staging, replaced: replaced, workspace: workspace,
                releasingLock: { unlink(lockFile) }, madeParents: madeParents)
        }
    }

    deinit {
        if let interruptionToken { Interruption.unregister(interruptionToken) }
        removeWorkspace()
    }

    /// Makes the missing folders of `parent` and its own parents (`mkdir -p`), and returns
    /// those it made, outermost first.
    private static func makeParents(of parent: String) throws(Failure) -> [String] {
        var missing: [String] = []
        var folder = parent
        while !folder.isEmpty && folder != "/" && !FileManager.default.fileExists(atPath: folder) {
            missing.append(folder)
            folder = (folder as NSString).deletingLastPathComponent
        }
        var made: [String] = []
        for folder in missing.reversed() {
            if mkdir(folder, 0o777) != 0 && errno != EEXIST {
                let reason = String(cString: strerror(errno))
                removeParents(made)
                throw Failure(description: "cannot create the directory \(folder): \(reason)")
            }
            made.append(folder)
        }
        return made
    }

    /// Removes the folders ``makeParents(of:)`` made, deepest first, as long as they are empty.
    private static func removeParents(_ made: [String]) {
        for folder in made.reversed() where rmdir(folder) != 0 { return }
    }

    /// Makes the workspace (unless another run's is there) and takes its lock; a workspace that
    /// is a link, or not a folder, is refused. A workspace another run removed as it ended, just
    /// as this one came, is made again.
    private static func lockWorkspace(_ workspace: String, of path: String) throws(Failure) -> RunLock {
        var attempt = 0
        while true {
            attempt += 1
            if mkdir(workspace, 0o700) != 0 && errno != EEXIST {
                throw Failure(description: "cannot create \(workspace): \(String(cString: strerror(errno)))")
            }
            var status = stat()
            guard lstat(workspace, &status) == 0 else {
                if attempt < 100 { continue }
                throw Failure(description: "cannot create \(workspace): it is removed as it is made")
            }
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw Failure(
                    description: "\(workspace), where avt-replay writes the reports of \(path) before they "
                        + "replace them, is a link or not a folder, which avt-replay does not follow: remove it")
            }
            do {
                return try RunLock(
                    path: (workspace as NSString).appendingPathComponent("lock"), for: "the reports in \(path)")
            } catch {
                // Removed by a run that ended between this one's mkdir and its lock: made again.
                if !error.isHeld && !isFolder(workspace) && attempt < 100 { continue }
                if !error.isHeld { rmdir(workspace) }
                throw Failure(description: error.description, isBusy: error.isHeld)
            }
        }
    }

    /// Makes the empty ``staging`` folder, readable by this process alone until it takes the
    /// mode, owner and group of the report folder it will replace (`like`), so that the files
    /// written into it take that folder's group where it is setgid, and a folder made private
    /// or given to a team stays so.
    private func makeStaging(like previous: stat?) throws(Failure) {
        guard mkdir(staging, 0o700) == 0 else {
            throw Failure(description: "cannot create \(staging): \(String(cString: strerror(errno)))")
        }
        if let previous {
            // The owner only where this process may give it (root); the group where it is one of
            // this process's. chown clears the setgid bit, so the mode comes after.
            if chown(staging, previous.st_uid, previous.st_gid) != 0 { _ = chown(staging, uid_t.max, previous.st_gid) }
            _ = chmod(staging, previous.st_mode & 0o7777)
        } else {
            // A new report folder: the mode a folder made by mkdir would have.
            let mask = umask(0)
            umask(mask)
            _ = chmod(staging, 0o777 & ~mask)
        }
    }

    /// Removes the workspace: what a run left in it, its lock (released by ``lock``'s end)
    /// and the folder itself, when no other run's is in it.
    private func removeWorkspace() {
        Self.removeWorkspace(
            target: target, staging: staging, replaced: replaced, workspace: workspace, releasingLock: lock.release,
            madeParents: published ? [] : madeParents)
    }

    /// ``removeWorkspace()``, from what it needs alone (for ``Interruption``, on its own thread):
    /// the folders above the report folder this run made are removed as long as they are empty.
    private static func removeWorkspace(
        target: String, staging: String, replaced: String, workspace: String, releasingLock: () -> Void,
        madeParents: [String]
    ) {
        // Stopped between the two renames of a switch: the next run finishes it (``recover()``).
        if !FileManager.default.fileExists(atPath: target) && isFolder(replaced) { return }
        for folder in [staging, replaced] where isFolder(folder) {
            try? FileManager.default.removeItem(atPath: folder)
        }
        releasingLock()
        rmdir(workspace)
        removeParents(madeParents)
    }

    /// Whether `path` is a folder, not a link to one.
    private static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Undoes what a killed run left: a switch it stopped in the middle of (the report folder
    /// renamed aside, the new set not yet in its place) is finished, and the folders it was
    /// writing or removing are removed.
    private func recover() throws(Failure) {
        let manager = FileManager.default
        if !manager.fileExists(atPath: target) && Self.isFolder(replaced) && Self.isFolder(staging) {
            DiskStep.reach("rename \(staging) to \(target), the switch a killed run began")
            guard rename(staging, target) == 0 else {
                throw Failure(description: "cannot finish the switch of \(path): \(String(cString: strerror(errno)))")
            }
        }
        for folder in [staging, replaced] where manager.fileExists(atPath: folder) {
            DiskStep.reach("remove \(folder), left by a killed run")
            do {
                try manager.removeItem(atPath: folder)
            } catch {
                throw Failure(
                    description: "cannot remove \(folder), left by a killed run: \(error.localizedDescription)")
            }
        }
    }

    /// Refuses a report folder that cannot be replaced whole, moves a spool an earlier version
    /// kept inside it, and removes the temporary files of killed writes.
    private func checkTarget(parent: String) throws(Failure) {
        var status = stat()
        guard lstat(target, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw Failure(description: "--out \(path) is not a folder")
        }
        var parentStatus = stat()
        if stat(parent, &parentStatus) == 0 && parentStatus.st_dev != status.st_dev {
            throw Failure(
                description: "--out \(path) is a mount point: each run replaces the report folder whole, within its "
                    + "file system; give a folder inside it (--out \(Self.trimmed(path))/reports)")
        }
        for entry in entries(of: target) {
            let file = (target as NSString).appendingPathComponent(entry.name)
            if entry.isFolder && entry.name == Self.formerSpoolName {
                try moveFormerSpool(file)
            } else if entry.isFolder {
                throw Failure(
                    description: "--out \(path) holds the folder \(entry.name), which avt-replay does not write: each "
                        + "run replaces the report folder whole; move \(entry.name) elsewhere, or give another --out")
            } else if TemporaryName.owner(of: entry.name) != nil {
                DiskStep.reach("remove \(file), left by a killed run")
                unlink(file)
            }
        }
    }

    /// Moves the spool an earlier version kept in the report folder beside it.
    private func moveFormerSpool(_ file: String) throws(Failure) {
        let spool = Self.defaultSpool(of: target)
        guard !FileManager.default.fileExists(atPath: spool) else {
            throw Failure(
                description: "--out \(path) holds a spool (\(file)), and \(spool) exists too: each run replaces the "
                    + "report folder whole; move the batches of \(file) into \(spool) (avt-replay flush --spool "
                    + "\(file) delivers them), then remove it")
        }
        DiskStep.reach("rename \(file) to \(spool)")
        guard rename(file, spool) == 0 else {
            throw Failure(description: "cannot move the spool \(file) to \(spool): \(String(cString: strerror(errno)))")
        }
        printError("avt-replay: the spool is now kept beside the reports: \(file) was moved to \(spool)")
    }

    /// Makes the set written into ``staging`` the report folder, in one step, keeping the
    /// user's files of the folder it replaces; then removes the set replaced.
    package func publish() throws(Failure) {
        let exists = FileManager.default.fileExists(atPath: target)
        if exists { try linkUserFiles() }
        try Self.flushFolder(staging)
        if !exists {
            DiskStep.reach("rename \(staging) to \(target)")
            guard rename(staging, target) == 0 else { throw switchFailure(errno) }
        } else {
            DiskStep.reach("swap \(staging) and \(target)")
            let error = DiskStep.swapsFolders ? avt_exchange(staging, target) : ENOTSUP
            if error == EINVAL || error == ENOSYS || error == ENOTSUP {
                try switchByRenaming()
            } else if error != 0 {
                throw switchFailure(error)
            }
        }
        published = true
        try Self.flushFolder((target as NSString).deletingLastPathComponent)
        let old = FileManager.default.fileExists(atPath: replaced) ? replaced : staging
        DiskStep.reach("remove \(old), the set replaced")
        try? FileManager.default.removeItem(atPath: old)
    }

    /// Where the file system cannot swap two folders: the report folder is renamed aside,
    /// then the new set into its place (``recover()`` finishes this after a kill between).
    private func switchByRenaming() throws(Failure) {
        DiskStep.reach("rename \(target) to \(replaced)")
        guard rename(target, replaced) == 0 else { throw switchFailure(errno) }
        DiskStep.reach("rename \(staging) to \(target)")
        guard rename(staging, target) == 0 else {
            let error = errno
            _ = rename(replaced, target)
            throw switchFailure(error)
        }
    }

    private func switchFailure(_ error: Int32) -> Failure {
        Failure(description: "cannot put the new reports in place of \(path): \(String(cString: strerror(error)))")
    }

    /// Links the files of the report folder that avt-replay does not write into the new set.
    private func linkUserFiles() throws(Failure) {
        for entry in entries(of: target) where !entry.isFolder && !Self.ownNames.contains(entry.name) {
            let from = (target as NSString).appendingPathComponent(entry.name)
            let to = (staging as NSString).appendingPathComponent(entry.name)
            DiskStep.reach("link \(from) into the new set")
            if link(from, to) == 0 { continue }
            do {
                try AtomicFile.copy(from, to: to)
            } catch {
                throw Failure(description: "cannot keep \(from) in the new reports: \(error)")
            }
        }
    }

    /// Removes the new set: the report folder stays as it was.
    package func discard() {
        try? FileManager.default.removeItem(atPath: staging)
    }

    /// Flushes a folder's entries to disk, so that a rename in it survives a power cut.
    static func flushFolder(_ folder: String) throws(Failure) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 || errno == EINVAL else {
            throw Failure(description: "cannot flush \(folder) to disk: \(String(cString: strerror(errno)))")
        }
    }

    private struct Entry {
        var name: String
        var isFolder: Bool
    }

    /// The entries of a folder, without following links (a link counts as a file).
    private func entries(of folder: String) -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().map { name in
            var status = stat()
            let isFolder =
                lstat((folder as NSString).appendingPathComponent(name), &status) == 0
                && status.st_mode & S_IFMT == S_IFDIR
            return Entry(name: name, isFolder: isFolder)
        }
    }

    /// A path without its trailing slashes (`reports/` is `reports`).
    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
