/// What a run with `--state` starts from, decided before anything is written: the state file
/// to resume, and the inputs it already consumed. A rerun (an input the state consumed
/// already) is refused, unless `--replace-run` replays the last run again from the state
/// before it (``StateFile/previousPath(of:)``).
struct StatePlan {
    /// The state file resumed: `--state`'s own, or the one before it to replace the last run.
    var resumed: String
    /// Whether the last run is replaced: then the state before it is kept as it is.
    var replacesLastRun = false
    /// The inputs the resumed state consumed.
    var consumed: [InputIdentity]
    /// This run's inputs by rank (`nil`: not recorded, see ``InputIdentity/of(path:)``).
    var identities: [InputIdentity?]
    /// The inputs of the run replaced that this run does not have: the new state will not
    /// hold them.
    var leftOut: [InputIdentity] = []
    /// With `--replace-run`, why the state's header could not be read (it is damaged): the run
    /// then replaces the last run without knowing its inputs.
    var damaged: String?

    /// Reads every input and the state's header, and decides; throws the reason for refusing
    /// the run, for a message after `avt-replay: `.
    init(state: String, inputs: [String], replaceRun: Bool) throws(RunState.Failure) {
        identities = inputs.map(InputIdentity.of(path:))
        resumed = state
        try Self.refuseDuplicates(identities.compactMap { $0 })
        let header: RunState.Header?
        var reruns: [(input: InputIdentity, recorded: InputIdentity)] = []
        do {
            header = try RunState.header(at: state)
            consumed = header?.inputs ?? []
            reruns = Self.matches(of: identities, in: consumed)
            guard !reruns.isEmpty else { return }
        } catch let failure where failure.isDamage && replaceRun {
            // The last run is replaced from the state before it, whatever its inputs were.
            header = nil
            consumed = []
            damaged = failure.description
        } catch {
            throw RunState.Failure(description: "\(error); no reports were written, the state file is unchanged")
        }
        guard replaceRun else {
            throw RunState.Failure(
                description: "\(Self.list(reruns)) already replayed into \(state) (a rerun); nothing was written. "
                    + "Give --replace-run to replay the last run again.")
        }
        let what = reruns.isEmpty ? "the last run" : "\(Self.list(reruns)) already replayed into \(state), and"
        let previous = StateFile.previousPath(of: state)
        let before: RunState.Header?
        do {
            before = try RunState.header(at: previous)
        } catch {
            throw RunState.Failure(
                description: "--replace-run: \(error); nothing was written, the state file is unchanged")
        }
        guard let before else {
            throw RunState.Failure(
                description: "--replace-run: \(what) \(previous), the state before the last run, does not exist; "
                    + "nothing was written.")
        }
        let earlier = Self.matches(of: identities, in: before.inputs)
        guard earlier.isEmpty else {
            throw RunState.Failure(
                description: "--replace-run: \(Self.list(earlier)) already replayed before the last run "
                    + "(into \(previous) too): only the last run can be replaced; nothing was written.")
        }
        resumed = previous
        replacesLastRun = true
        let given = Set(identities.compactMap { $0?.content })
        let kept = Set(before.inputs.map(\.content))
        leftOut = (header?.inputs ?? []).filter { !kept.contains($0.content) && !given.contains($0.content) }
        consumed = before.inputs
    }

    /// The inputs to record after the run: those consumed before, then this run's that had
    /// entries (`lines`, by rank).
    func inputsAfter(lines: [Int]) -> [InputIdentity] {
        consumed + zip(identities, lines).compactMap { identity, count in count > 0 ? identity : nil }
    }

    /// Refuses the same bytes given twice under two names: they would be counted twice (but
    /// for inputs without entries, which count nothing).
    private static func refuseDuplicates(_ identities: [InputIdentity]) throws(RunState.Failure) {
        let groups = Dictionary(grouping: identities, by: \.content)
        for identity in identities {
            guard let group = groups[identity.content], group.count > 1, group[0].name == identity.name,
                identity.size > 0, InputIdentity.hasEntries(identity.name)
            else { continue }
            throw RunState.Failure(
                description: "\(listed(group.map(\.name))) hold the same bytes: replayed together they would be "
                    + "counted twice; nothing was written. Give each file once.")
        }
    }

    /// This run's inputs whose bytes `recorded` holds, each with the recorded one.
    private static func matches(
        of identities: [InputIdentity?], in recorded: [InputIdentity]
    ) -> [(input: InputIdentity, recorded: InputIdentity)] {
        var byContent: [InputIdentity.Content: InputIdentity] = [:]
        for input in recorded where byContent[input.content] == nil { byContent[input.content] = input }
        return identities.compactMap { identity in
            identity.flatMap { identity in byContent[identity.content].map { (identity, $0) } }
        }
    }

    /// `a was`, `a (the same bytes as b) and c were`.
    private static func list(_ matches: [(input: InputIdentity, recorded: InputIdentity)]) -> String {
        let names = matches.map { input, recorded in
            input.name == recorded.name ? input.name : "\(input.name) (the same bytes as \(recorded.name))"
        }
        return listed(names) + (names.count == 1 ? " was" : " were")
    }

    private static func listed(_ names: [String]) -> String {
        names.count <= 1
            ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    }
}
