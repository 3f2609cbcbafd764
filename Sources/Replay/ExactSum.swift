/// A sum of doubles that does not depend on the order they are added in: the exact sum is
/// kept as non-overlapping partial sums (Shewchuk's algorithm, as in Python's `math.fsum`),
/// and ``value`` is it rounded once, to the nearest double.
///
/// Sums of sums (buckets, shards) are therefore exactly the sum of all the values, whereas
/// a plain `+=` loses low bits once a sum passes 2⁵³ and gives a result that depends on the
/// order. While every partial sum is exact (integers below 2⁵³), ``value`` is what `+=`
/// would give. Values must be finite.
public struct ExactSum: Hashable, Sendable, Codable {
    /// Non-overlapping partial sums, smallest magnitude first; their exact sum is the sum.
    public private(set) var partials: [Double] = []

    /// The sum of no value: 0.
    public init() {}

    /// Decodes the partials (an array of numbers), adding them up again; refuses
    /// (`dataCorrupted`) partials or a sum that are not finite.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        for partial in try container.decode([Double].self) {
            guard partial.isFinite else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "a partial sum is \(partial)")
            }
            add(partial)
        }
        guard partials.allSatisfy(\.isFinite) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "the sum is not finite")
        }
    }

    /// Encodes the partials, an array of numbers.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(partials)
    }

    /// Adds a finite value, exactly.
    public mutating func add(_ value: Double) {
        var x = value
        var kept = 0
        for index in partials.indices {
            var y = partials[index]
            if abs(x) < abs(y) { swap(&x, &y) }
            let high = x + y
            let low = y - (high - x)
            if low != 0 {
                partials[kept] = low
                kept += 1
            }
            x = high
        }
        if kept < partials.count {
            partials[kept] = x
            partials.removeLast(partials.count - kept - 1)
        } else {
            partials.append(x)
        }
    }

    /// Adds another sum, exactly.
    public mutating func add(_ other: ExactSum) {
        for partial in other.partials { add(partial) }
    }

    /// The sum, correctly rounded (ties to even); 0 without values, never -0.
    public var value: Double {
        var index = partials.count
        guard index > 0 else { return 0 }
        index -= 1
        var high = partials[index]
        var low = 0.0
        while index > 0 {
            let x = high
            index -= 1
            let y = partials[index]
            high = x + y
            low = y - (high - x)
            if low != 0 { break }
        }
        // Half-way cases: the partials below decide which way to round.
        if index > 0 && ((low < 0 && partials[index - 1] < 0) || (low > 0 && partials[index - 1] > 0)) {
            let y = low * 2
            let x = high + y
            if y == x - high { high = x }
        }
        return high + 0
    }
}
