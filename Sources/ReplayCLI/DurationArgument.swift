import ArgumentParser

/// A length of time on the command line: a whole number with a unit, `ms`, `s`, `m`, `h` or
/// `d` (`30m`, `90s`, `1h`).
struct DurationArgument: ExpressibleByArgument, CustomStringConvertible {
    /// The length in milliseconds.
    var milliseconds: Int64
    var description: String

    private static let units: [(suffix: String, milliseconds: Int64)] = [
        ("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
    ]

    init(minutes: Int64) {
        milliseconds = minutes * 60_000
        description = minutes % 60 == 0 ? "\(minutes / 60)h" : "\(minutes)m"
    }

    init?(argument: String) {
        // `ms` is tried first, so that `500ms` is not read as 500 minutes and an `s`.
        guard let unit = Self.units.first(where: { argument.hasSuffix($0.suffix) }),
            let count = Int64(argument.dropLast(unit.suffix.count)), count > 0,
            count <= Int64.max / unit.milliseconds
        else { return nil }
        milliseconds = count * unit.milliseconds
        description = argument
    }
}
