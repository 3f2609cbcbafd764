import ArgumentParser
import ReplayApp

/// One `--group-by` value: keys separated by commas (`title,source_host`), none of them empty.
struct GroupByArgument: ExpressibleByArgument {
    var keys: [String]

    init?(argument: String) {
        let keys = argument.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !keys.contains(where: \.isEmpty) else { return nil }
        self.keys = keys
    }
}
