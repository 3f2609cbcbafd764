/// `--max-rejects N` or `--max-rejects P%`: how many rejected lines a file may have.
package struct RejectLimit {
    package enum Limit {
        case count(Int)
        case percent(Double)
    }

    package var limit: Limit
    /// The value as given (`5%`, `100`).
    package var argument = ""

    package init?(argument: String) {
        self.argument = argument
        if argument.hasSuffix("%") {
            guard let percent = Double(argument.dropLast()), (0...100).contains(percent) else { return nil }
            limit = .percent(percent)
        } else {
            guard let count = Int(argument), count >= 0 else { return nil }
            limit = .count(count)
        }
    }

    package func isExceeded(rejected: Int, of lines: Int) -> Bool {
        switch limit {
        case .count(let count): return rejected > count
        case .percent(let percent): return lines > 0 && Double(rejected) * 100 > percent * Double(lines)
        }
    }
}
