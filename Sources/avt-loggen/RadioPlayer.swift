/// One simulated Marconi player (`marconi` records), scripted one item at a time.
///
/// A live radio player buffers, gets the station's metadata with `bufferingEnded`, reports
/// `startPlaying`, then a `newMeta` at every song (every few minutes; now and then the same
/// meta twice). An on-demand player (podcasts, tracks) reports `progress` about every 10 s
/// and a `trackChanged` when an item ends or is skipped. Both rebuffer now and then
/// (`bufferingStarted`, `bufferingEnded` with the same meta), and have an occasional `error`,
/// mostly followed by a recovery (buffering again, then playing the same meta). The player
/// stops after a listening time drawn when it starts; it is never silent for more than 20
/// minutes while listening, unless `--pauses` makes it go quiet (``SourceState``). With
/// `--always-on`, a player that stopped starts again hours later (``continueLater(catalog:)``).
struct RadioPlayer {
    enum Kind: UInt8 {
        case bufferingStarted, bufferingEnded, startPlaying, newMeta, progress, trackChanged, error
    }

    struct Event {
        var timestamp: Int64
        var kind: Kind
        /// The item (a song for live, a digital item otherwise), for events with a meta.
        var item: Int32
        /// Progress in tenths of a second, or the error text's index.
        var value: Int64
    }

    /// `"player":"radio-7f3a9c1b"` as JSON bytes.
    let playerField: [UInt8]
    let isLive: Bool
    let station: Int
    var rng: SplitMix64
    var pending: [Event] = []
    var head = 0

    private var lastTimestamp: Int64
    private var listeningLeft: Int64
    private var started = false
    private var done = false
    private var item: Int32 = 0
    /// Time into the current item (ms) and what remains of it.
    private var position: Int64 = 0
    private var itemLeft: Int64 = 0

    init(playerField: [UInt8], isLive: Bool, station: Int, rng: SplitMix64, firstEvent: Int64) {
        self.playerField = playerField
        self.isLive = isLive
        self.station = station
        self.rng = rng
        lastTimestamp = firstEvent - 1
        listeningLeft =
            [
                self.rng.between(60_000...600_000), self.rng.between(600_000...3_600_000),
                self.rng.between(3_600_000...10_800_000),
            ][self.rng.weighted([30, 50, 20])]
    }

    var nextTime: Int64? { head < pending.count ? pending[head].timestamp : nil }

    mutating func refill(catalog: SideCatalog) -> Bool {
        pending.removeAll(keepingCapacity: true)
        head = 0
        while pending.isEmpty {
            if done { return false }
            if !started {
                begin(catalog: catalog)
            } else if listeningLeft <= 0 {
                done = true
            } else {
                play(catalog: catalog)
            }
        }
        return true
    }

    /// With `--always-on`, once the player has nothing more to emit: it starts again 1 to 4
    /// hours after its last scripted time, listening for 1 to 5 minutes. `false` when it has
    /// nothing to emit even so. Draws only from the player's own generator.
    mutating func continueLater(catalog: SideCatalog) -> Bool {
        lastTimestamp += rng.between(3_600_000...14_400_000) - 1
        listeningLeft = rng.between(60_000...300_000)
        started = false
        done = false
        return refill(catalog: catalog)
    }

    private mutating func pickItem(catalog: SideCatalog) {
        if isLive {
            let draw = rng.below(catalog.songs.count)
            item = Int32(draw * draw / catalog.songs.count)
            // Tuned in mid-song at first; whole songs afterwards.
            let duration = catalog.songs[Int(item)].duration
            itemLeft = started ? duration : rng.between(10_000...duration)
        } else {
            item = Int32(rng.below(catalog.digitalItems.count))
            itemLeft = catalog.digitalItems[Int(item)].duration
        }
        position = 0
    }

    private mutating func begin(catalog: SideCatalog) {
        pickItem(catalog: catalog)
        started = true
        buffer(at: lastTimestamp + 1, long: true)
        if rng.chance(perMille: 800) {
            add(lastTimestamp + rng.between(20...300), .startPlaying)
        }
    }

    /// `bufferingStarted`, then `bufferingEnded` with the current item's meta.
    private mutating func buffer(at time: Int64, long: Bool) {
        add(time, .bufferingStarted)
        let wait =
            long
            ? rng.between(300...3_500)
            : [rng.between(400...2_500), rng.between(2_500...9_000)][rng.weighted([75, 25])]
        if !isLive && rng.chance(perMille: 300) {
            // A progress while buffering: the table ignores it.
            add(lastTimestamp + rng.between(100...wait), .progress, value: position / 100)
        }
        add(max(time + wait, lastTimestamp + 1), .bufferingEnded, item: item)
    }

    /// One item, or the part of it that is left, with what interrupts it.
    private mutating func play(catalog: SideCatalog) {
        let stretch = min(itemLeft, listeningLeft, rng.between(isLive ? 60_000...900_000 : 30_000...900_000))
        // An incident somewhere in the stretch: rebuffer (4 in 100), error (1.5 in 100).
        let incident = rng.weighted([945, 40, 15])
        let at = incident == 0 ? stretch : rng.between(min(5_000, stretch)...stretch)
        advance(by: at)
        listeningLeft -= at
        itemLeft -= at
        if incident == 1 {
            buffer(at: lastTimestamp + 1, long: false)
            return
        }
        if incident == 2 {
            add(lastTimestamp + 1, .error, value: Int64(rng.below(catalog.radioErrors.count)))
            if rng.chance(perMille: 250) {
                done = true
                return
            }
            buffer(at: lastTimestamp + rng.between(2_000...15_000), long: true)
            if rng.chance(perMille: 500) {
                add(lastTimestamp + rng.between(20...300), .startPlaying)
            }
            return
        }
        if listeningLeft <= 0 {
            done = true
            return
        }
        if itemLeft <= 0 || (!isLive && rng.chance(perMille: 80)) {
            // The next song (live) or the next item, played on or skipped to (on demand).
            pickItem(catalog: catalog)
            add(lastTimestamp + rng.between(1...800), isLive ? .newMeta : .trackChanged, item: item)
            if isLive && rng.chance(perMille: 40) {
                add(lastTimestamp + rng.between(1_000...8_000), .newMeta, item: item)
            }
        }
    }

    /// Lets `duration` of playing pass: `progress` about every 10 s for an on-demand item.
    private mutating func advance(by duration: Int64) {
        let end = lastTimestamp + duration
        guard !isLive else {
            lastTimestamp = max(lastTimestamp, end - 1)
            return
        }
        var time = lastTimestamp
        while true {
            let step = rng.between(9_800...10_300)
            if time + step >= end { break }
            time += step
            position += step
            add(time, .progress, value: position / 100)
        }
        position += end - time
        lastTimestamp = max(lastTimestamp, end - 1)
    }

    private mutating func add(_ time: Int64, _ kind: Kind, item: Int32 = -1, value: Int64 = 0) {
        let timestamp = max(time, lastTimestamp + 1)
        pending.append(Event(timestamp: timestamp, kind: kind, item: item, value: value))
        lastTimestamp = timestamp
    }

    // MARK: - Encoding

    static let eventNames: [StaticString] = [
        ",\"event\":\"bufferingStarted\"", ",\"event\":\"bufferingEnded\"", ",\"event\":\"startPlaying\"",
        ",\"event\":\"newMeta\"", ",\"event\":\"progress\"", ",\"event\":\"trackChanged\"", ",\"event\":\"error\"",
    ]

    func encode(_ event: Event, catalog: SideCatalog, into buffer: inout [UInt8]) {
        appendStatic("{\"ts\":", to: &buffer)
        Generator.appendInt(event.timestamp, to: &buffer)
        appendStatic(",\"type\":\"marconi\",", to: &buffer)
        buffer.append(contentsOf: playerField)
        appendStatic(Self.eventNames[Int(event.kind.rawValue)], to: &buffer)
        switch event.kind {
        case .bufferingEnded, .newMeta, .trackChanged:
            if isLive {
                appendStatic(",\"meta\":{", to: &buffer)
                buffer.append(contentsOf: catalog.songs[Int(event.item)].fields)
                buffer.append(contentsOf: catalog.stations[station])
            } else {
                buffer.append(UInt8(ascii: ","))
                buffer.append(contentsOf: catalog.digitalItems[Int(event.item)].meta)
            }
        case .progress:
            appendStatic(",\"progress\":", to: &buffer)
            Generator.appendInt(event.value / 10, to: &buffer)
            buffer.append(UInt8(ascii: "."))
            buffer.append(UInt8(truncatingIfNeeded: event.value % 10) &+ 0x30)
        case .error:
            appendStatic(",\"error\":", to: &buffer)
            buffer.append(contentsOf: catalog.radioErrors[Int(event.value)])
        default:
            break
        }
        appendStatic("}\n", to: &buffer)
    }
}
