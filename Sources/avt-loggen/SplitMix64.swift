/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, fast, seedable generator.
///
/// The generator never touches the system's randomness: the same seed gives the same
/// numbers on every machine, which is what makes `avt-loggen`'s output reproducible.
/// Every helper below uses integer arithmetic only, so results do not depend on libm.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (Lemire's multiply-high; the tiny bias is irrelevant here).
    mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A number in `range`.
    mutating func between(_ range: ClosedRange<Int64>) -> Int64 {
        let width = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
        if width == 0 { return Int64(bitPattern: next()) }
        return range.lowerBound &+ Int64(bitPattern: next().multipliedFullWidth(by: width).high)
    }

    /// `true` with probability `perMille / 1000`.
    mutating func chance(perMille: Int) -> Bool {
        below(1000) < perMille
    }

    /// An index into `weights`, drawn in proportion to them.
    mutating func weighted(_ weights: [Int]) -> Int {
        var total = 0
        for weight in weights { total += weight }
        var pick = below(total)
        for (index, weight) in weights.enumerated() {
            if pick < weight { return index }
            pick -= weight
        }
        return weights.count - 1
    }

    /// A well-mixed 64-bit hash of `value`: the first number of the generator seeded with it.
    static func hash(_ value: UInt64) -> UInt64 {
        var generator = SplitMix64(seed: value)
        return generator.next()
    }

    /// A new generator whose stream is independent of this one's.
    mutating func split() -> SplitMix64 {
        SplitMix64(seed: next())
    }
}
