import ArgumentParser
import EventModel
import Replay
import ReplayApp
import ValueProposition

/// One `--vp-middleware [OUTPUT=]SPEC` (or `--vp-duration FROM:TO`) option.
///
/// SPEC is `duration:FROM:TO`, `capitalise-keys`, `skip-category:CATEGORY` or
/// `skip-name:NAME[,NAME...]`; OUTPUT is `trace` or `metrics`, and without it the middleware
/// applies to every output. Statuses are named by their action or their status
/// (`open`/`opened`, `start`/`started`, `pause`/`paused`, `complete`/`completed`,
/// `cancel`/`canceled`).
struct MiddlewareOption: ExpressibleByArgument {
    enum Output: String {
        case all
        case trace
        case metrics
    }

    var output: Output
    var middleware: Middleware
    /// The option's value as given (`metrics=skip-name:a,b`).
    var argument: String

    init?(argument: String) {
        self.argument = argument
        var spec = Substring(argument)
        output = .all
        if let equals = spec.firstIndex(of: "=") {
            guard let named = Output(rawValue: String(spec[..<equals])), named != .all else { return nil }
            output = named
            spec = spec[spec.index(after: equals)...]
        }
        let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        switch (parts.first, parts.count) {
        case ("duration", 3):
            guard let from = Self.status(parts[1]), let to = Self.status(parts[2]) else { return nil }
            middleware = .duration(from: from, to: to)
        case ("capitalise-keys", 1):
            middleware = .capitalisedAttributeKeys
        case ("skip-category", 2) where !parts[1].isEmpty:
            middleware = .skipCategory(parts[1])
        case ("skip-name", 2) where !parts[1].isEmpty:
            middleware = .skipNames(Set(parts[1].split(separator: ",").map(String.init)))
        default:
            return nil
        }
    }

    /// `--vp-duration FROM:TO`.
    init?(duration argument: String) {
        self.init(argument: "duration:" + argument)
    }

    static func status(_ name: String) -> SessionStatus? {
        if let status = SessionStatus(rawValue: name) { return status }
        return VPAction(rawValue: name).map(SessionStatus.init(reachedBy:))
    }

    /// The chains the options make, in the order given.
    static func chains(_ options: [MiddlewareOption]) -> MiddlewareChains {
        var chains = MiddlewareChains()
        for option in options {
            switch option.output {
            case .all: chains.all.append(option.middleware)
            case .trace: chains.trace.append(option.middleware)
            case .metrics: chains.metrics.append(option.middleware)
            }
        }
        return chains
    }
}

/// `--vp-duration FROM:TO`: a `duration` middleware for every output.
struct DurationOption: ExpressibleByArgument {
    var option: MiddlewareOption

    init?(argument: String) {
        guard let option = MiddlewareOption(duration: argument) else { return nil }
        self.option = option
    }
}
