import ArgumentParser
import Foundation
import ReplayApp

/// What the output options of a command may name: never a file the run reads or keeps.
///
/// Every option that names a file to write (`--summary-json`, `--junit`) or a folder to
/// replace (`--out`, `--spool`, `--state`'s file) is checked against the inputs, the state and
/// its previous state, and the report folder, before any work (a usage error, exit 2, naming
/// both). A file option also replaces only a file of its own kind (a run summary, a JUnit
/// report of `check`) or a new name: a value taken by mistake from the file list
/// (`--summary-json logs/*.gz`) names a log, and is refused.
struct OutputTargets {
    /// A file or folder the run reads or keeps, and what it is to the run (`"the input"`,
    /// `"the --state file"`).
    struct Kept {
        var role: String
        var path: String
    }

    /// The inputs, the state and its previous state.
    var kept: [Kept] = []

    /// The files of a command line: its inputs (standard input left out) and, with a state, the
    /// state and its previous state.
    init(inputs: [String], state: String? = nil) {
        kept = inputs.filter { $0 != "-" }.map { Kept(role: "the input", path: $0) }
        if let state {
            kept.append(Kept(role: "the --state file", path: state))
            kept.append(Kept(role: "the previous state", path: state + ".previous"))
        }
    }

    /// The kinds of file an option writes, each known by how it begins.
    enum FileKind {
        /// `run.json`, or `--summary-json`'s file.
        case runSummary
        /// `check --junit`'s file.
        case junit

        var name: String {
            switch self {
            case .runSummary: "a run summary (run.json) avt-replay wrote"
            case .junit: "a JUnit report avt-replay check wrote"
            }
        }

        /// Whether a file's first bytes are this kind's.
        func matches(_ head: [UInt8]) -> Bool {
            switch self {
            case .runSummary: head.starts(with: Array(#"{"avtReplayRun":"#.utf8))
            case .junit:
                head.starts(
                    with: Array(
                        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"avt-replay check\"".utf8))
            }
        }
    }

    /// Refuses `path` as the file of `option`: one of the kept files (or a link to one), a file
    /// in the report folder `reports` (but its `run.json`), anything but a plain file, or a
    /// plain file of another kind. `-` (standard output) is always fine.
    func checkFile(_ option: String, _ path: String, kind: FileKind, reports: String? = nil) throws {
        guard path != "-" else { return }
        try refuseKept(option, path)
        if let reports, Self.isInside(path, reports),
            Self.standardized(path) != Self.standardized((reports as NSString).appendingPathComponent("run.json"))
        {
            throw ValidationError(
                "\(option) \(path) is inside the report folder \(reports), whose files each run replaces: "
                    + "write it elsewhere, or - for standard output.")
        }
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw ValidationError(
                "\(option) \(path) is not a plain file (a folder, a link or a device): give a file's path, or - for "
                    + "standard output.")
        }
        guard kind.matches(Self.head(of: path, count: 96)) else {
            throw ValidationError(
                "\(option) \(path) exists and is not \(kind.name): it would be replaced. Give a new file, or - "
                    + "for standard output (did the option take the next word of the command line as its value?).")
        }
    }

    /// Refuses `path` as the folder of `option` (`--out`, `--spool`): one of the kept files, a
    /// folder holding one, or one inside `reports` (another option's report folder).
    func checkFolder(_ option: String, _ path: String, reports: (option: String, path: String)? = nil) throws {
        try refuseKept(option, path)
        for file in kept where Self.isInside(file.path, path) {
            throw ValidationError(
                "\(option) \(path) holds \(file.role) \(file.path), which would be replaced with the folder: give "
                    + "a folder of its own.")
        }
        for file in kept where Self.isInside(path, file.path) {
            throw ValidationError(
                "\(option) \(path) is inside \(file.role) \(file.path): give a folder of its own, apart from it.")
        }
        if let reports, Self.isInside(path, reports.path) || Self.isInside(reports.path, path) {
            throw ValidationError(
                "\(option) \(path) and \(reports.option) \(reports.path) are one inside the other: each run replaces "
                    + "\(reports.option) whole; keep them apart.")
        }
    }

    /// Refuses the state file at `path` when it is one of the inputs (the report folder that
    /// holds it is refused by ``checkFolder(_:_:reports:)``).
    func checkState(_ path: String) throws {
        for file in kept where file.role == "the input" && Self.sameFile(path, file.path) {
            throw ValidationError("--state \(path) is the input \(file.path): give the state a file of its own.")
        }
    }

    private func refuseKept(_ option: String, _ path: String) throws {
        for file in kept where Self.sameFile(path, file.path) {
            throw ValidationError(
                "\(option) \(path) is \(file.role) \(file.path): avt-replay never writes over what a run reads or "
                    + "keeps; give another path.")
        }
    }

    /// Whether two paths are one file: the same path once standardized, or the same file on
    /// disk (one a link to the other, or a hard link).
    static func sameFile(_ first: String, _ second: String) -> Bool {
        if standardized(first) == standardized(second) { return true }
        var one = stat()
        guard lstat(first, &one) == 0 else { return false }
        for follow in [false, true] {
            var other = stat()
            let found = follow ? stat(second, &other) : lstat(second, &other)
            if found == 0 && one.st_dev == other.st_dev && one.st_ino == other.st_ino { return true }
        }
        return false
    }

    /// Whether `path` is `folder` or lies under it, by their standardized paths, links in
    /// their folders resolved.
    static func isInside(_ path: String, _ folder: String) -> Bool {
        let (path, folder) = (resolved(path), resolved(folder))
        return path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/")
    }

    private static func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The path with the links of the folders above it resolved (the last part as it is).
    private static func resolved(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let parent = url.deletingLastPathComponent().resolvingSymlinksInPath()
        return parent.appendingPathComponent(url.lastPathComponent).path
    }

    private static func head(of path: String, count: Int) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return Array(bytes.prefix(max(0, read)))
    }
}
