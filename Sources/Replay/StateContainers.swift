/// What the Replay module's state coding shares: a keyed container that leaves out a value
/// still at its default (zero, `false`, `nil`), and reads it back as that default. A state
/// file holds every open playback, session and item of a night, most of whose counters are 0.
extension KeyedEncodingContainer {
    mutating func encode(_ value: Int64, ifNotZeroFor key: Key) throws {
        if value != 0 { try encode(value, forKey: key) }
    }

    mutating func encode(_ value: Bool, ifTrueFor key: Key) throws {
        if value { try encode(value, forKey: key) }
    }
}

extension KeyedDecodingContainer {
    func decode(_ type: Int64.Type, orZeroFor key: Key) throws -> Int64 {
        try decodeIfPresent(type, forKey: key) ?? 0
    }

    func decode(_ type: Bool.Type, orFalseFor key: Key) throws -> Bool {
        try decodeIfPresent(type, forKey: key) ?? false
    }
}
