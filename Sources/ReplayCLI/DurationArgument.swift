import ArgumentParser
import ReplayApp

/// A length of time on the command line, in the form of Go's and Prometheus' durations: whole
/// numbers each with a unit, `ms`, `s`, `m`, `h` or `d`, largest unit first, each unit once
/// (`90s`, `30m`, `1h30m`, `2d`, `1d12h`, `1m30s500ms`).
struct DurationArgument: CustomStringConvertible {
    /// The length in milliseconds.
    var milliseconds: Int64
    var description: String

    /// The units, largest first; `ms` before `m` and `s`, so that `500ms` is not read as 500
    /// minutes and an `s`.
    private static let units: [(suffix: String, milliseconds: Int64)] = [
        ("d", 86_400_000), ("h", 3_600_000), ("ms", 1), ("m", 60_000), ("s", 1_000),
    ]
    /// The order units must come in: days, hours, minutes, seconds, milliseconds.
    private static let rank: [String: Int] = ["d": 0, "h": 1, "m": 2, "s": 3, "ms": 4]
    /// The units as a usage error lists them.
    static let unitList = "units ms s m h d"

    init(minutes: Int64) {
        milliseconds = minutes * 60_000
        description = minutes % 60 == 0 ? "\(minutes / 60)h" : "\(minutes)m"
    }

    /// `argument` as a duration (the options' `transform`); the error says what is expected
    /// (`90`: "a duration needs a unit: 90m? (units ms s m h d)"), and ArgumentParser puts it
    /// after its own words for the option and value.
    init(parsing argument: String) throws(ValidationError) {
        switch Self.parse(argument) {
        case .success(let milliseconds):
            self.milliseconds = milliseconds
            description = argument
        case .failure(let problem):
            throw ValidationError(problem.text)
        }
    }

    private struct Problem: Error {
        var text: String
    }

    /// The length in milliseconds, or what is wrong.
    private static func parse(_ argument: String) -> Result<Int64, Problem> {
        if argument.isEmpty {
            return .failure(Problem(text: "a duration is whole numbers with units: 90s, 30m, 1h30m (\(unitList))"))
        }
        if argument.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return .failure(Problem(text: "a duration needs a unit: \(argument)m? (\(unitList))"))
        }
        var rest = Substring(argument)
        var total: Int64 = 0
        var lastRank = -1
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(digits.count)
            guard let count = Int64(digits) else {
                if digits.isEmpty, rest.first == "." || rest.first == "," || rest.first?.isNumber == true {
                    return .failure(Problem(text: "whole numbers only: 1h30m, not 1.5h (\(unitList))"))
                }
                if digits.isEmpty {
                    return .failure(
                        Problem(text: "a duration is whole numbers with units: 90s, 30m, 1h30m (\(unitList))"))
                }
                return .failure(Problem(text: "\(digits) is too long a number"))
            }
            guard let unit = units.first(where: { rest.hasPrefix($0.suffix) }) else {
                if rest.first == "." || rest.first == "," {
                    return .failure(Problem(text: "whole numbers only: 1h30m, not 1.5h (\(unitList))"))
                }
                let word = rest.prefix { !($0.isASCII && $0.isNumber) }
                return .failure(
                    Problem(
                        text: word.isEmpty
                            ? "a duration needs a unit: \(argument)m? (\(unitList))"
                            : "'\(word)' is not a unit (\(unitList))"))
            }
            // swift-format-ignore: NeverForceUnwrap
            let rank = Self.rank[unit.suffix]!
            guard rank > lastRank else {
                return .failure(Problem(text: "units go largest first, each once, as in 1d12h or 1h30m"))
            }
            rest = rest.dropFirst(unit.suffix.count)
            lastRank = rank
            let (part, overflow) = count.multipliedReportingOverflow(by: unit.milliseconds)
            let (sum, sumOverflow) = total.addingReportingOverflow(part)
            guard !overflow, !sumOverflow else { return .failure(Problem(text: "too long a duration")) }
            total = sum
        }
        guard total > 0 else { return .failure(Problem(text: "a duration must be longer than 0")) }
        return .success(total)
    }
}

extension DurationArgument {
    /// The defaults of the options that take a duration.
    static let maxLatenessDefault = DurationArgument(minutes: 30)
    static let idleGapDefault = DurationArgument(minutes: 12 * 60)
    static let bucketDefault = DurationArgument(minutes: 60)
}

extension ArgumentHelp {
    /// The help of an option that takes a duration, naming its default as ArgumentParser does
    /// for other options (it names none for an option parsed by a `transform`).
    static func duration(_ abstract: String, default value: DurationArgument) -> ArgumentHelp {
        ArgumentHelp("\(abstract) (default: \(value))", valueName: "duration")
    }
}
