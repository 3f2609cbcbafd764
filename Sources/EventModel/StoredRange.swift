/// The ranges a number read back from a file avt-replay wrote must be in: the state of a
/// nightly series (`--state`), a shard's `summary.state` and `sessions.index`, `merge.state`
/// and `partition.json`. A number outside them is refused where it is read, naming the file
/// and the field (docs/time.md, "What a state file is checked for"), never computed with: no
/// run writes one, and the arithmetic that follows (a night's rows added to a carried bucket,
/// shards' counts added up) could overflow.
package enum StoredRange {
    /// Times, in epoch milliseconds: those of the records (years 0 to 9999, as the record
    /// decoder reads them), and a day either side for the start of a record's bucket.
    package static let times: ClosedRange<Int64> = -62_167_305_600_000...253_402_387_199_999

    /// The largest magnitude of a count, a sum or a length: 2⁶⁰, so that 8 of them add up in an
    /// `Int64`; 2⁶⁰ milliseconds are 36 million years.
    package static let magnitude: Int64 = 1 << 60

    /// Counts: none negative.
    package static let counts: ClosedRange<Int64> = 0...magnitude

    /// Sums and other integers that may be negative.
    package static let sums: ClosedRange<Int64> = -magnitude...magnitude

    /// The number of shards of a sharded run (`--shard K/N`): `merge` lists those missing.
    package static let shardCounts: ClosedRange<Int> = 1...1_000_000

    /// `a + b`, or `nil` when it overflows or leaves ``sums``: how sums read from files are added.
    package static func add(_ a: Int64, _ b: Int64) -> Int64? {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow || !(-magnitude...magnitude).contains(sum) ? nil : sum
    }
}

/// The field a decoding error is about, and what is wrong with it, for a message that names
/// the file before it: `field summary.groups[0].buckets[3].kpis.views: a count out of range`.
package func decodingProblem(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    let context: DecodingError.Context
    var what: String
    switch error {
    case .dataCorrupted(let found):
        context = found
        what = found.debugDescription
    case .keyNotFound(let key, let found):
        context = DecodingError.Context(
            codingPath: found.codingPath + [key], debugDescription: found.debugDescription,
            underlyingError: found.underlyingError)
        what = "missing"
    case .typeMismatch(let type, let found):
        context = found
        what = "not \(type) (\(found.debugDescription))"
    case .valueNotFound(let type, let found):
        context = found
        what = "no \(type) (\(found.debugDescription))"
    @unknown default:
        return "\(error)"
    }
    if let underlying = context.underlyingError, !(underlying is DecodingError) {
        what += " (\(underlying))"
    }
    let path = fieldPath(context.codingPath)
    return path.isEmpty ? what : "field \(path): \(what)"
}

/// A coding path as a field's name: keys joined by dots, indexes in brackets (`a.b[2].c`).
package func fieldPath(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
        if let index = key.intValue {
            text += "[\(index)]"
        } else {
            if !text.isEmpty { text += "." }
            text += key.stringValue
        }
    }
    return text
}

extension KeyedDecodingContainer {
    /// The integer of `key`, refused (`dataCorrupted`, at its key) outside `range`, or when it
    /// is a number but not a 64-bit integer (which Foundation's JSON decoder would refuse
    /// without naming the key).
    package func decodeStored(_ key: Key, in range: ClosedRange<Int64>) throws -> Int64 {
        let value: Int64
        do {
            value = try decode(Int64.self, forKey: key)
        } catch {
            if let number = try? decode(Double.self, forKey: key) {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: self, debugDescription: "\(number) is not a 64-bit integer")
            }
            throw error
        }
        guard range.contains(value) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "\(value) is out of range (\(StoredRange.describe(range)))")
        }
        return value
    }

    /// ``decodeStored(_:in:)`` of a key that may be absent or null.
    package func decodeStoredIfPresent(_ key: Key, in range: ClosedRange<Int64>) throws -> Int64? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeStored(key, in: range)
    }

    /// An array of integers of `key`, each as ``decodeStored(_:in:)`` reads one (named by its index).
    package func decodeStoredArray(_ key: Key, in range: ClosedRange<Int64>) throws -> [Int64] {
        var values = try nestedUnkeyedContainer(forKey: key)
        var result: [Int64] = []
        while !values.isAtEnd { result.append(try values.decodeStored(in: range)) }
        return result
    }
}

extension UnkeyedDecodingContainer {
    /// The next integer, as ``KeyedDecodingContainer/decodeStored(_:in:)`` reads one.
    package mutating func decodeStored(in range: ClosedRange<Int64>) throws -> Int64 {
        let value: Int64
        do {
            value = try decode(Int64.self)
        } catch {
            if let number = try? decode(Double.self) {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: codingPath + [StoredIndex(intValue: currentIndex - 1)],
                        debugDescription: "\(number) is not a 64-bit integer"))
            }
            throw error
        }
        guard range.contains(value) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath + [StoredIndex(intValue: currentIndex - 1)],
                    debugDescription: "\(value) is out of range (\(StoredRange.describe(range)))"))
        }
        return value
    }
}

/// An index in an unkeyed container, for a coding path.
private struct StoredIndex: CodingKey {
    var intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(intValue: Int) {
        self.intValue = intValue
    }

    init?(stringValue: String) {
        nil
    }
}

extension StoredRange {
    /// A range as messages say it: `0 to 2^60`, `years 0 to 9999`.
    package static func describe(_ range: ClosedRange<Int64>) -> String {
        switch range {
        case counts: "a count, 0 to 2^60"
        case sums: "-2^60 to 2^60"
        case times: "a time of years 0 to 9999"
        default: "\(range.lowerBound) to \(range.upperBound)"
        }
    }
}
