import EventModel

/// Which of several engines replays the lives of a key: `(mix(hash) >> 33) mod engines`,
/// where `hash` is the key's shard hash (`Shard.hash`, which the decoding threads work
/// out for the merge anyway) and `mix` a multiplication by 0x9E3779B97F4A7C15. The high bits
/// of the mixed hash, not its remainder (`--shard` takes that), so that a shard's keys spread
/// over every engine. Which engine a key goes to changes no report, so the rule may change from
/// one version to the next.
public struct KeyPartition: Sendable, Equatable {
    /// How many engines share the keys, at least 1.
    public let engines: Int

    public init(engines: Int) {
        self.engines = max(1, engines)
    }

    /// The engine, from 0 to ``engines`` − 1, that replays the lives of `key`.
    public func engine(of key: SessionKey) -> Int {
        engines > 1 ? engine(ofKeyDigest: Shard.hash(key)) : 0
    }

    /// The engine of the key whose shard hash (``Shard/hash(_:)``, the digest that orders
    /// records of equal times) is `digest`: the reading thread deals by the digest the decoding
    /// threads computed.
    package func engine(ofKeyDigest digest: UInt64) -> Int {
        guard engines > 1 else { return 0 }
        let mixed = digest &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: (mixed >> 33) % UInt64(engines))
    }
}

/// Several ``ReplayEngine``s that together replay as one engine does: each replays the lives of
/// its share of the keys (``KeyPartition``) and moves its clock with the other records
/// (`advance(to:)`), so that its flushes and ends come out before any later record's reports.
/// Merged by ``SessionReport/order``, their reports are one engine's reports in one engine's
/// order (each engine's are in that order already).
///
/// The engines can run on threads of their own (the command line's `--threads`); `add(_:at:)`
/// runs them one after the other, the reference the threaded replay is tested against. What
/// concerns every life (the end of the input, the lives kept for the next run) is done here,
/// over the lives of all the engines, in one engine's order.
public struct ReplayEngines {
    /// Which engine replays which key.
    public let partition: KeyPartition
    /// The engines, by their number in the partition.
    public var engines: [ReplayEngine]

    /// `count` engines with no life that replay the lives of `shard` between them.
    public init(options: ReplayOptions = ReplayOptions(), shard: Shard = .all, count: Int = 1) {
        partition = KeyPartition(engines: count)
        engines = (0..<partition.engines).map { _ in ReplayEngine(options: options, shard: shard) }
    }

    /// Adds a record: its engine replays it, the others count it (unless it does not move the
    /// clock, ``ReplayEngine/add(_:at:movesClock:)``); the reports of all of them, in order.
    public mutating func add(
        _ record: consuming Record, at place: StreamPlace, movesClock: Bool = true
    ) -> ReplayEngine.Outcome {
        let owner = partition.engine(of: SessionKey(of: record))
        var others: [[SessionReport]] = []
        for index in engines.indices where index != owner && movesClock {
            others.append(engines[index].advance(to: place.time))
        }
        switch engines[owner].add(record, at: place, movesClock: movesClock) {
        case .replayed(let reports):
            return .replayed(Self.merged(others + [reports]))
        case .late(let by, let record, let reports):
            return .late(by: by, record, Self.merged(others + [reports]))
        }
    }

    /// Adds a record read at `position`, its place in the stream at its own time (records
    /// added this way must come in the order of their times).
    public mutating func add(_ record: consuming Record, at position: SourcePosition) -> ReplayEngine.Outcome {
        let place = StreamPlace(
            time: record.timestamp, keyDigest: Shard.hash(SessionKey(of: record)), position: position)
        return add(record, at: place)
    }

    /// Moves every engine's clock to `time`: the flushes and ends it makes due, in order.
    package mutating func advance(to time: Timestamp) -> [SessionReport] {
        Self.merged(engines.indices.map { engines[$0].advance(to: time) })
    }

    /// Reports of several engines, each in order, merged into one order.
    public static func merged(_ lists: consuming [[SessionReport]]) -> [SessionReport] {
        var remaining = lists
        remaining.removeAll { $0.isEmpty }
        if remaining.count <= 1 { return remaining.popLast() ?? [] }
        var merged: [SessionReport] = []
        merged.reserveCapacity(remaining.reduce(0) { $0 + $1.count })
        // Each list reversed, so that its first report is its last and is moved out, not
        // copied (a retain and a release of every reference a report holds).
        for list in remaining.indices { remaining[list].reverse() }
        while true {
            var best: Int?
            for list in remaining.indices where !remaining[list].isEmpty {
                if let current = best {
                    if remaining[list][remaining[list].count - 1].order
                        < remaining[current][remaining[current].count - 1].order
                    {
                        best = list
                    }
                } else {
                    best = list
                }
            }
            guard let best else { return merged }
            merged.append(remaining[best].removeLast())
        }
    }

    /// The latest time added so far (every engine's).
    public var frontier: Timestamp? { engines[0].frontier }
    /// Lives ended by the idle gap so far.
    public var livesEndedByGap: Int { engines.reduce(0) { $0 + $1.livesEndedByGap } }
    /// Records refused because a later record of their life was replayed.
    public var lateRecords: Int { engines.reduce(0) { $0 + $1.lateRecords } }

    /// The earliest first record of a row still open, in any life.
    package var earliestOpenRow: Timestamp? { engines.compactMap(\.earliestOpenRow).min() }

    /// The lives still open and their open rows, counted.
    public var openCounts: ReplayEngine.OpenCounts {
        var counts = ReplayEngine.OpenCounts()
        for engine in engines {
            let open = engine.openCounts
            counts.lives.merge(open.lives, uniquingKeysWith: +)
            counts.rows.merge(open.rows, uniquingKeysWith: +)
        }
        return counts
    }

    /// What a decoder needs to restore lives into these engines (``ReplayEngine/RestoredLife``):
    /// each life's instrument numbers its actions in the table of the engine that replays it.
    package var restoringContext: ReplayEngine.RestoringContext {
        ReplayEngine.RestoringContext(
            options: engines[0].sharedOptions, tables: engines.map(\.actionCodes), partition: partition)
    }

    /// Takes a life an earlier run left open, into the engine of its key.
    package mutating func restore(_ restored: ReplayEngine.RestoredLife) {
        engines[partition.engine(of: restored.life.key)].restore(restored)
    }

    /// Sets the frontier an earlier run left, after ``restore(_:)``.
    package mutating func resume(frontier: Timestamp?) {
        for index in engines.indices { engines[index].resume(frontier: frontier) }
    }

    /// The lives still open in every engine, as one engine orders them.
    package var openLives: [ReplayEngine.OpenLife] {
        ReplayEngine.openLives(engines.flatMap { $0.lives.values })
    }

    /// Ends every life of every engine (the input ended), as one engine would
    /// (``ReplayEngine/finish(_:)``).
    public mutating func finish(_ body: (consuming SessionReport) -> Void) {
        var lives: [Life] = []
        for index in engines.indices { lives += engines[index].takeLives() }
        ReplayEngine.end(lives, body)
    }

    /// Ends every life and returns their last reports, in order.
    public mutating func finish() -> [SessionReport] {
        var reports: [SessionReport] = []
        finish { reports.append($0) }
        return reports
    }
}
