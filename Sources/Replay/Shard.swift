import EventModel

/// One of `count` shards of the replay sessions: `--shard K/N` replays only the sessions whose
/// key hashes to shard K, so that N runs over the same input share the work.
///
/// A session's shard is `fnv1a64("<system>:<id>") mod N + 1`: FNV-1a 64 over the UTF-8 bytes
/// of the system's name (`openavt`, `vp`, `marconi`), a colon and the instrument, app or
/// player id. The hash is the same on every machine and in every process (unlike Swift's
/// `Hasher`, which is seeded per process), so every run agrees on where a session goes.
public struct Shard: Hashable, Sendable {
    /// K, from 1 to ``count``.
    public let index: Int
    /// N, at least 1.
    public let count: Int

    /// Every session: the shard of an unsharded run.
    public static let all = Shard(unchecked: 1, of: 1)

    /// Shard `index` of `count`, or `nil` unless 1 ≤ `index` ≤ `count`.
    public init?(_ index: Int, of count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.init(unchecked: index, of: count)
    }

    private init(unchecked index: Int, of count: Int) {
        self.index = index
        self.count = count
    }

    /// Whether the session with this key belongs to this shard.
    public func contains(_ key: SessionKey) -> Bool {
        count == 1 || Self.shard(of: key, count: count) == index
    }

    /// Whether the session whose key's ``hash(_:)`` is `digest` belongs to this shard.
    package func contains(keyDigest digest: UInt64) -> Bool {
        count == 1 || Self.shard(ofKeyDigest: digest, count: count) == index
    }

    /// The shard, from 1 to `count`, that the session with this key belongs to.
    public static func shard(of key: SessionKey, count: Int) -> Int {
        shard(ofKeyDigest: hash(key), count: count)
    }

    /// The shard, from 1 to `count`, of the session whose key's ``hash(_:)`` is `digest`.
    package static func shard(ofKeyDigest digest: UInt64, count: Int) -> Int {
        Int(digest % UInt64(count)) + 1
    }

    /// FNV-1a 64 of `"<system>:<id>"` in UTF-8.
    package static func hash(_ key: SessionKey) -> UInt64 {
        let prefix = systemPrefixHashes[key.system.ordinal]
        // Read where the id is (`withUTF8` would take a copy of it: a retain and a release).
        let hash = key.id.utf8.withContiguousStorageIfAvailable {
            EventModel.fnv1a64(UnsafeRawBufferPointer($0), continuing: prefix)
        }
        return hash ?? fnv1a64(key.id.utf8, continuing: prefix)
    }

    /// FNV-1a 64 of `"<system>:"`, by the system's ordinal.
    private static let systemPrefixHashes: [UInt64] = MetricSystem.allCases.map { system in
        fnv1a64((system.rawValue + ":").utf8)
    }

    /// FNV-1a 64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3) of `bytes`, or its
    /// continuation from an earlier hash.
    package static func fnv1a64(_ bytes: some Sequence<UInt8>, continuing hash: UInt64 = 0xcbf2_9ce4_8422_2325)
        -> UInt64
    {
        var hash = hash
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return hash
    }
}
