import Foundation

/// `FILE.pending`, beside a `--state` file: a run of the series began and has not yet said how
/// it ended. It makes the reports and the state move as one across nights.
///
/// A run writes it (its inputs, its report folder) before it replays, names in it the state it
/// staged before it switches its reports in, and removes it once the state is moved on, or as
/// it fails and says so (the reports and state then as they were). It stays when the run was
/// killed, or ended with its reports published and its state not moved on (metrics lost, exit
/// 7; the state could not be saved, exit 3). The next run then:
///
/// - removes it when the state is the one it names (killed after the commit: the night is
///   done);
/// - goes on when given the same inputs (the run again: its reports and state become those of
///   the unbroken series);
/// - refuses any other night (exit 4), naming the run to repeat: going on from the state
///   before it would leave that night out of the series, or replay it twice.
///
/// One JSON line, keys sorted:
/// `{"format":"avt-replay pending run","inputs":[{"digest":"…","name":"…","size":N}],"out":"/abs/reports","state":"<16 hex>"|null,"version":1}`.
struct PendingRun: Codable, Equatable, JSONLineFile {
    static let formatName = "avt-replay pending run"

    /// An input of the run, as the state records inputs (``InputIdentity``).
    struct Input: Codable, Equatable {
        var name: String
        var size: Int64
        var digest: String
    }

    var format = Self.formatName
    var version = 1
    var inputs: [Input]
    /// The report folder, absolute.
    var out: String
    /// ``RunState/identity(ofHeaderLine:)`` of the state the run staged, once it did.
    var state: String?

    /// `FILE.pending` for the state `FILE`.
    static func path(of state: String) -> String { state + ".pending" }

    init(inputs: [InputIdentity?], out: String, state: String? = nil) {
        self.inputs = inputs.compactMap { $0 }.map { Input(name: $0.name, size: $0.size, digest: $0.digestText) }
        self.out = URL(fileURLWithPath: out).standardizedFileURL.path
        self.state = state
    }

    /// The pending run beside `state`, if one; a file that is not one is refused.
    static func read(besideState state: String) throws(RunState.Failure) -> PendingRun? {
        let path = path(of: state)
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        guard status.st_mode & S_IFMT == S_IFREG, let data = FileManager.default.contents(atPath: path),
            let pending = try? JSONDecoder().decode(PendingRun.self, from: data), pending.format == formatName,
            pending.version == 1, pending.inputs.allSatisfy({ $0.size >= 0 })
        else {
            throw RunState.Failure(
                description: "\(path) is not the pending run of this avt-replay (a link, damaged, or of another "
                    + "version): nothing was written; remove it only if its night was run again")
        }
        return pending
    }

    /// Whether this run is the pending one again: the same inputs, by content.
    func isRepeated(by inputs: [InputIdentity?]) -> Bool {
        let given = inputs.compactMap { $0 }.map { "\($0.size):\($0.digestText)" }.sorted()
        return given == self.inputs.map { "\($0.size):\($0.digest)" }.sorted()
    }

    /// What to do, for the refusal of another run.
    var repeatAdvice: String {
        let names = inputs.map(\.name)
        let listed =
            names.isEmpty
            ? "no input file"
            : names.prefix(5).joined(separator: ", ") + (names.count > 5 ? " and \(names.count - 5) more" : "")
        return "the run of \(listed) into \(out) did not end (it was killed, or its metrics or state could not be "
            + "kept): its reports may be published while the state is still the one before it. Run it again "
            + "first (the same inputs and --out), then this run; nothing was written"
    }
}
