import ArgumentParser
import Foundation

/// Usage errors that say what is expected: ArgumentParser's message, with the reason a value
/// is wrong (`--bucket 90`: "a duration needs a unit: 90m?") and the option meant by a
/// misspelt one (`--otu`: "did you mean --out?").
enum UsageError {
    /// `message` (ArgumentParser's, for a command line of `arguments`) with its first line
    /// explained where it can be.
    static func explained(_ message: String, arguments: [String]) -> String {
        var lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.first else { return message }
        lines[0] = explainedValue(first) ?? explainedOption(first, arguments: arguments) ?? first
        if !lines[0].hasPrefix("Error: Unknown option"), let unknown = unknownOption(in: arguments) {
            // The cause of whatever else went wrong: `--otu reports FILE` takes reports as a file.
            lines[0] = unknownOptionLine(unknown, arguments: arguments)
        }
        return lines.joined(separator: "\n")
    }

    /// The first long option of `arguments` that their command does not have, if any.
    static func unknownOption(in arguments: [String]) -> String? {
        let known = Set(optionNames(for: arguments) + ["--help", "--version", "--experimental-dump-help"])
        for argument in arguments {
            if argument == "--" { return nil }
            guard argument.hasPrefix("--") else { continue }
            let name = String(argument.prefix { $0 != "=" })
            if !known.contains(name) { return name }
        }
        return nil
    }

    private static func unknownOptionLine(_ option: String, arguments: [String]) -> String {
        let meant = closest(to: option, in: optionNames(for: arguments)).map { ". Did you mean '\($0)'?" }
        return "Error: Unknown option '\(option)'" + (meant ?? "")
    }

    /// Why a value is wrong, by the name of the value the option takes.
    private static let reasons: [String: @Sendable (String) -> String?] = [
        "duration": DurationArgument.problem(with:),
        "time": TimeArgument.problem(with:),
        "k/n": ShardArgument.problem(with:),
    ]

    /// `Error: The value '90' is invalid for '--bucket <duration>'` as
    /// `Error: --bucket 90: a duration needs a unit: 90m? (units ms s m h d)`.
    private static func explainedValue(_ line: String) -> String? {
        let prefix = "Error: The value '"
        guard line.hasPrefix(prefix), let middle = line.range(of: "' is invalid for '", options: .backwards),
            line.hasSuffix(">'")
        else { return nil }
        let value = String(line[line.index(line.startIndex, offsetBy: prefix.count)..<middle.lowerBound])
        let target = line[middle.upperBound..<line.index(before: line.endIndex)]
        guard let open = target.range(of: " <") else { return nil }
        let option = target[..<open.lowerBound]
        let valueName = String(target[open.upperBound..<target.index(before: target.endIndex)])
        guard let reason = reasons[valueName]?(value) else { return nil }
        return "Error: \(option) \(value): \(reason)"
    }

    /// `Error: Unknown option '--otu'` with the option meant, when ArgumentParser named none.
    private static func explainedOption(_ line: String, arguments: [String]) -> String? {
        let prefix = "Error: Unknown option '"
        guard line.hasPrefix(prefix), line.hasSuffix("'") else { return nil }
        let option = String(line.dropFirst(prefix.count).dropLast())
        guard option.hasPrefix("--"), closest(to: option, in: optionNames(for: arguments)) != nil else { return nil }
        return unknownOptionLine(option, arguments: arguments)
    }

    /// The long options of the command `arguments` run: a subcommand's, or the replay's.
    static func optionNames(for arguments: [String]) -> [String] {
        let commands: [any ParsableCommand.Type] = AvtReplayCommand.configuration.subcommands
        let command = commands.first { $0._commandName == arguments.first } ?? ReplayCommand.self
        // The description of the command that the man page is made from lists its names.
        var description = ""
        do {
            _ = try command.parseAsRoot(["--experimental-dump-help"])
        } catch {
            description = command.fullMessage(for: error)
        }
        var names: Set<String> = []
        let object = try? JSONSerialization.jsonObject(with: Data(description.utf8)) as? [String: Any]
        let arguments = (object?["command"] as? [String: Any])?["arguments"] as? [[String: Any]] ?? []
        for argument in arguments {
            for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
                if let long = name["name"] as? String { names.insert("--" + long) }
            }
        }
        return names.sorted()
    }

    /// The name nearest to `option` by edit distance, if it is near enough: at most a third of
    /// its letters changed (two for `--otu`, a swap).
    static func closest(to option: String, in names: [String]) -> String? {
        let scored = names.map { (name: $0, distance: editDistance(option, $0)) }
        guard let best = scored.min(by: { ($0.distance, $0.name) < ($1.distance, $1.name) }) else { return nil }
        return best.distance <= max(2, (option.count - 2) / 3) ? best.name : nil
    }

    /// Levenshtein's distance, a swap of neighbours counting one (Damerau's).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }
}
