import ArgumentParser
import Replay
import ReplayApp

/// `--shard K/N`: two whole numbers separated by a slash; ``ReplayCommand/validate()``
/// checks that 1 ≤ K ≤ N.
struct ShardArgument: ExpressibleByArgument {
    var index: Int
    var count: Int

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
            let index = Int(parts[0]), let count = Int(parts[1])
        else { return nil }
        self.index = index
        self.count = count
    }

    /// The shard, or `nil` when K or N is out of range.
    var shard: Shard? { Shard(index, of: count) }
}

extension ShardArgument {
    /// What is wrong with `argument` as `K/N`, said as what is expected; `nil` when it is one.
    static func problem(with argument: String) -> String? {
        guard ShardArgument(argument: argument) == nil else { return nil }
        return "a shard is K/N, two whole numbers, as in 2/3 (the second of three)"
    }
}
