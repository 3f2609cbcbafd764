import ArgumentParser
import Replay
import ReplayApp

/// `--shard K/N`: two whole numbers separated by a slash; ``ReplayCommand/validate()``
/// checks that 1 ≤ K ≤ N.
struct ShardArgument {
    var index: Int
    var count: Int

    /// `argument` as `K/N` (the option's `transform`); the error says what is expected.
    init(parsing argument: String) throws(ValidationError) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
            let index = Int(parts[0]), let count = Int(parts[1])
        else { throw ValidationError("a shard is K/N, two whole numbers, as in 2/3 (the second of three)") }
        self.index = index
        self.count = count
    }

    /// The shard, or `nil` when K or N is out of range.
    var shard: Shard? { Shard(index, of: count) }
}
