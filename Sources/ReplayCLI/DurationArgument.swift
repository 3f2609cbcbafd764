import ArgumentParser
import ReplayApp

/// A length of time on the command line, in the form of Go's and Prometheus' durations: whole
/// numbers each with a unit, `ms`, `s`, `m`, `h` or `d`, largest unit first, each unit once
/// (`90s`, `30m`, `1h30m`, `2d`, `1d12h`, `1m30s500ms`).
struct DurationArgument: ExpressibleByArgument, CustomStringConvertible {
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

    init(minutes: Int64) {
        milliseconds = minutes * 60_000
        description = minutes % 60 == 0 ? "\(minutes / 60)h" : "\(minutes)m"
    }

    init?(argument: String) {
        var rest = Substring(argument)
        var total: Int64 = 0
        var lastRank = -1
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(digits.count)
            guard let count = Int64(digits),
                let unit = Self.units.first(where: { rest.hasPrefix($0.suffix) }),
                let rank = Self.rank[unit.suffix], rank > lastRank
            else { return nil }
            rest = rest.dropFirst(unit.suffix.count)
            lastRank = rank
            let (part, overflow) = count.multipliedReportingOverflow(by: unit.milliseconds)
            let (sum, sumOverflow) = total.addingReportingOverflow(part)
            guard !overflow, !sumOverflow else { return nil }
            total = sum
        }
        guard total > 0 else { return nil }
        milliseconds = total
        description = argument
    }
}
