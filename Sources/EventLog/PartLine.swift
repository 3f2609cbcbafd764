import EventModel

/// A line of a partition's part file (`avt-replay partition`, docs/sharding.md): the line
/// number of an input line, a mark, a tab, then the line as read.
///
/// - `LINE<TAB>TEXT`: a line in order;
/// - `LINE:TIME<TAB>TEXT`: a record that came late, and the time of its place in the merged
///   stream (epoch milliseconds);
/// - `LINE^<TAB>TEXT`: a record more than the window ahead of its input's clock (a jump): at
///   its own time, and it does not move the clock;
/// - `LINE!<TAB>PREFIX`: a line longer than the limit, and its first bytes.
package enum PartLine {
    package enum Mark: Equatable {
        case inOrder
        case late(Timestamp)
        case jump
        case tooLong
    }

    /// Parses a part line's prefix: the line number, its mark, and where the text begins;
    /// `nil` when the line is not a part line.
    package static func parsePrefix(_ bytes: UnsafeRawBufferPointer) -> (line: Int, mark: Mark, textStart: Int)? {
        var index = 0
        guard let number = digits(bytes, from: &index), number > 0, index < bytes.count else { return nil }
        var mark = Mark.inOrder
        if bytes[index] == UInt8(ascii: "!") {
            mark = .tooLong
            index += 1
        } else if bytes[index] == UInt8(ascii: "^") {
            mark = .jump
            index += 1
        } else if bytes[index] == UInt8(ascii: ":") {
            index += 1
            let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            // A place's time is a record's time: one out of that range was not written by a partition.
            guard let time = digits(bytes, from: &index), case let milliseconds = negative ? -Int64(time) : Int64(time),
                StoredRange.times.contains(milliseconds)
            else { return nil }
            mark = .late(Timestamp(milliseconds: milliseconds))
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\t") else { return nil }
        return (number, mark, index + 1)
    }

    /// The decimal number at `index` (at most 18 digits), moving `index` past it.
    private static func digits(_ bytes: UnsafeRawBufferPointer, from index: inout Int) -> Int? {
        let start = index
        var value = 0
        while index < bytes.count, index - start < 18, bytes[index] >= UInt8(ascii: "0"),
            bytes[index] <= UInt8(ascii: "9")
        {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        return index > start ? value : nil
    }
}
