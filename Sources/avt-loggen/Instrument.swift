/// One simulated player instance: its playbacks, scripted a phase at a time.
///
/// `refill()` writes the next few events (a startup, one stretch of play and what
/// interrupts it, an ad break...) into `pending`; the generator takes them one by one,
/// interleaved with every other instrument's by time. Pings are slotted in every 30 s
/// from `Start` on. All timestamps of one instrument strictly increase. With `--always-on`, an
/// instrument that is done plays again hours later (``continueLater(catalog:)``).
struct Instrument {
    enum Phase {
        case startPlayback(at: Int64)
        case playing
        case afterPlayback
        case done
    }

    /// The rendition ladder: bitrate, width, height.
    static let renditions: [(Int64, Int64, Int64)] = [
        (400_000, 416, 234), (800_000, 640, 360), (1_600_000, 960, 540),
        (2_500_000, 1280, 720), (4_500_000, 1920, 1080), (8_000_000, 3840, 2160),
    ]

    /// `"instrument":"ios-7f3a9c1b"` as JSON bytes, ready to copy.
    let nameField: [UInt8]
    /// The attributes this instrument puts on every content event besides the tracker's.
    let staticAttributes: [UInt8]
    let hasAds: Bool
    var rng: SplitMix64

    var pending: [GeneratedEvent] = []
    var head = 0
    var phase: Phase

    private var playbacksLeft: Int
    private var didPlayerSet = false
    private(set) var content = 0
    private(set) var duration: Int64 = 0
    private var rendition = 3
    private var lastTimestamp: Int64 = 0
    private var loaded = false
    private var started = false
    private var nextPing: Int64 = 0
    private var playing = false
    private var anchorTime: Int64 = 0
    private var anchorPosition: Int64 = 0
    private var watchLeft: Int64 = 0
    private var nextMidroll: Int64 = .max
    /// Set by ``continueLater(catalog:)``: every playback from then on is watched 20 s to 5 min.
    private var shortPlaybacks = false

    init(nameField: [UInt8], staticAttributes: [UInt8], hasAds: Bool, rng: SplitMix64, firstEvent: Int64) {
        self.nameField = nameField
        self.staticAttributes = staticAttributes
        self.hasAds = hasAds
        self.rng = rng
        self.phase = .startPlayback(at: firstEvent)
        let playbacks = [1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 4, 5]
        self.playbacksLeft = playbacks[self.rng.below(playbacks.count)]
        self.lastTimestamp = firstEvent - 1
    }

    /// The time of the next pending event, if any.
    var nextTime: Int64? { head < pending.count ? pending[head].timestamp : nil }

    /// Scripts the next phase; `false` when the instrument has nothing more to emit.
    mutating func refill(catalog: Catalog) -> Bool {
        pending.removeAll(keepingCapacity: true)
        head = 0
        while pending.isEmpty {
            switch phase {
            case .done:
                return false
            case .startPlayback(let time):
                startPlayback(at: time, catalog: catalog)
            case .playing:
                play(catalog: catalog)
            case .afterPlayback:
                if playbacksLeft > 0 {
                    phase = .startPlayback(at: lastTimestamp + rng.between(1_500...45_000))
                } else {
                    phase = .done
                }
            }
        }
        return true
    }

    /// With `--always-on`, once the instrument has nothing more to emit: scripts one short
    /// playback (watched 20 s to 5 min) 1 to 4 hours after its last event. `false` when it
    /// has nothing to emit even so. Draws only from the instrument's own generator.
    mutating func continueLater(catalog: Catalog) -> Bool {
        playbacksLeft = 1
        shortPlaybacks = true
        phase = .startPlayback(at: lastTimestamp + rng.between(3_600_000...14_400_000))
        return refill(catalog: catalog)
    }

    // MARK: - Phases

    private mutating func startPlayback(at time: Int64, catalog: Catalog) {
        playbacksLeft -= 1
        // Popular titles come up more often: the square of a uniform draw skews low.
        let contents = catalog.contents.count
        let draw = rng.below(contents)
        content = draw * draw / max(contents, 1)
        duration = catalog.contents[content].duration
        loaded = false
        started = false
        playing = false
        anchorPosition = duration > 600_000 && rng.chance(perMille: 150) ? rng.between(60_000...(duration / 2)) : 0
        anchorTime = time
        rendition = 2 + rng.below(3)
        if duration == 0 {
            watchLeft =
                [rng.between(30_000...300_000), rng.between(300_000...1_800_000), rng.between(1_800_000...7_200_000)][
                    rng.weighted([40, 40, 20])]
        } else if rng.chance(perMille: duration < 600_000 ? 650 : 380) {
            watchLeft = .max
        } else {
            watchLeft = max(5_000, (duration - anchorPosition) * rng.between(3...95) / 100)
        }
        if shortPlaybacks { watchLeft = rng.between(20_000...300_000) }
        nextMidroll = hasAds && duration >= 900_000 ? anchorPosition + rng.between(420_000...720_000) : .max

        add(time, .mediaRequest)
        if !didPlayerSet {
            add(lastTimestamp + rng.between(5...60), .playerSet)
            didPlayerSet = true
        }
        loaded = true
        add(lastTimestamp + rng.between(80...900), .streamLoad)
        if hasAds && rng.chance(perMille: 650) {
            adBreak(roll: 0, at: lastTimestamp + rng.between(100...700), catalog: catalog)
        }
        add(lastTimestamp + rng.between(5...60), .bufferBegin)
        switch rng.weighted([55, 25, 920]) {
        case 0:  // exit before start: the viewer gives up, or the app is killed
            if rng.chance(perMille: 750) {
                add(lastTimestamp + rng.between(1_000...20_000), .stop)
            } else {
                playbacksLeft = 0
            }
            phase = .afterPlayback
        case 1:  // start failure
            add(
                lastTimestamp + rng.between(500...10_000), .error,
                index: Int32(1000 + rng.below(catalog.startErrors.count)))
            if rng.chance(perMille: 800) {
                add(lastTimestamp + rng.between(100...3_000), .stop)
            } else {
                playbacksLeft = 0
            }
            phase = .afterPlayback
        default:
            let wait = [rng.between(250...1_500), rng.between(1_500...4_000), rng.between(4_000...15_000)][
                rng.weighted([60, 30, 10])]
            add(lastTimestamp + wait, .bufferFinish)
            add(lastTimestamp + rng.between(5...50), .start)
            started = true
            nextPing = lastTimestamp + 30_000
            resume()
            phase = .playing
        }
    }

    private mutating func play(catalog: Catalog) {
        let position = currentPosition(lastTimestamp)
        let segment = [rng.between(10_000...60_000), rng.between(60_000...240_000), rng.between(240_000...900_000)][
            rng.weighted([25, 45, 30])]
        let untilEnd = duration > 0 ? max(0, duration - position) : Int64.max
        let untilMidroll = nextMidroll > position ? nextMidroll - position : Int64.max
        let budget = watchLeft
        let stretch = min(segment, budget, untilEnd, untilMidroll)
        let time = lastTimestamp + max(1, stretch)
        if budget != .max { watchLeft -= stretch }

        if stretch == untilEnd {
            finishContent(at: time, catalog: catalog)
        } else if stretch == budget {
            add(time, .stop)
            started = false
            phase = .afterPlayback
        } else if stretch == untilMidroll {
            emitPings(before: time)
            pause(at: time)
            adBreak(roll: 1, at: time, catalog: catalog)
            resume()
            nextMidroll = currentPosition(lastTimestamp) + rng.between(480_000...900_000)
        } else {
            incident(at: time, errors: catalog.errors.count)
        }
    }

    private mutating func finishContent(at time: Int64, catalog: Catalog) {
        if hasAds && rng.chance(perMille: 500) {
            if rng.chance(perMille: 500) {
                add(time, .end)
                started = false
                adBreak(roll: 2, at: lastTimestamp + rng.between(50...400), catalog: catalog)
            } else {
                emitPings(before: time)
                pause(at: time)
                adBreak(roll: 2, at: time, catalog: catalog)
                add(lastTimestamp + rng.between(50...300), .end)
                started = false
            }
        } else {
            add(time, playbacksLeft > 0 && rng.chance(perMille: 300) ? .next : .end)
            started = false
        }
        phase = .afterPlayback
    }

    private mutating func incident(at time: Int64, errors: Int) {
        switch rng.weighted([250, 220, 140, 150, 150, 8]) {
        case 0:
            add(time, .pauseBegin)
            pause(at: lastTimestamp)
            let length = [rng.between(800...10_000), rng.between(10_000...120_000), rng.between(120_000...900_000)][
                rng.weighted([50, 40, 10])]
            if length > 120_000 && rng.chance(perMille: 250) {
                add(lastTimestamp + length, .stop)
                started = false
                phase = .afterPlayback
                return
            }
            add(lastTimestamp + length, .pauseFinish)
            resume()
        case 1:
            add(time, .bufferBegin)
            pause(at: lastTimestamp)
            let length = [rng.between(300...3_000), rng.between(3_000...12_000)][rng.weighted([70, 30])]
            add(lastTimestamp + length, .bufferFinish)
            resume()
            if rng.chance(perMille: 400) && rendition > 0 {
                rendition -= 1
                add(lastTimestamp + rng.between(50...500), .qualityChangeDown)
            }
        case 2:
            guard duration > 20_000 else {
                add(time, .qualityChangeDown)
                return
            }
            add(time, .seekBegin)
            pause(at: lastTimestamp)
            anchorPosition = rng.between(0...(duration - 10_000))
            add(lastTimestamp + rng.between(5...40), .bufferBegin)
            add(lastTimestamp + rng.between(150...2_500), .bufferFinish)
            add(lastTimestamp + rng.between(5...40), .seekFinish)
            resume()
        case 3, 4:
            var up = rng.chance(perMille: 500)
            if rendition == 0 { up = true }
            if rendition == Self.renditions.count - 1 { up = false }
            rendition += up ? 1 : -1
            add(time, up ? .qualityChangeUp : .qualityChangeDown)
        default:
            add(time, .error, index: Int32(rng.below(errors)))
            if rng.chance(perMille: 600) {
                add(lastTimestamp + rng.between(100...2_000), .stop)
                started = false
                phase = .afterPlayback
            }
        }
    }

    private mutating func adBreak(roll: UInt8, at time: Int64, catalog: Catalog) {
        add(time, .adBreakBegin, adRoll: roll)
        let count = roll == 1 ? 1 + rng.below(4) : 1 + rng.below(2)
        for _ in 0..<count {
            let ad = Int32(rng.below(catalog.ads.count))
            let adDuration = catalog.ads[Int(ad)].duration
            let begin = lastTimestamp + rng.between(50...600)
            add(begin, .adBegin, adRoll: roll, index: ad, adPosition: 0)
            if rng.chance(perMille: 120) {
                let at = rng.between(5_000...max(5_000, adDuration / 2))
                if at >= adDuration / 4 {
                    add(begin + adDuration / 4, .adFirstQuartile, adRoll: roll, index: ad, adPosition: adDuration / 4)
                }
                add(begin + at, .adSkip, adRoll: roll, index: ad, adPosition: at)
                continue
            }
            if rng.chance(perMille: 20) {
                let at = rng.between(1_000...(adDuration - 1_000))
                add(begin + at, .adClick, adRoll: roll, index: ad, adPosition: at)
            }
            for (quarter, kind) in [
                (1, GeneratedEvent.Kind.adFirstQuartile), (2, .adSecondQuartile), (3, .adThirdQuartile), (4, .adFinish),
            ] {
                let at = adDuration * Int64(quarter) / 4
                add(begin + at + rng.between(0...120), kind, adRoll: roll, index: ad, adPosition: at)
            }
        }
        add(lastTimestamp + rng.between(20...250), .adBreakFinish, adRoll: roll)
    }

    // MARK: - Clock and position

    private func currentPosition(_ time: Int64) -> Int64 {
        guard playing else { return anchorPosition }
        let position = anchorPosition + (time - anchorTime)
        return duration > 0 ? min(position, duration) : position
    }

    private mutating func pause(at time: Int64) {
        anchorPosition = currentPosition(time)
        anchorTime = time
        playing = false
    }

    private mutating func resume() {
        anchorTime = lastTimestamp
        playing = true
    }

    private mutating func add(
        _ time: Int64, _ kind: GeneratedEvent.Kind, adRoll: UInt8 = 0, index: Int32 = -1, adPosition: Int64 = 0
    ) {
        var timestamp = max(time, lastTimestamp + 1)
        emitPings(before: timestamp)
        timestamp = max(timestamp, lastTimestamp + 1)
        let position = kind.isAd ? adPosition : currentPosition(timestamp)
        pending.append(
            GeneratedEvent(
                timestamp: timestamp, kind: kind, position: position,
                rendition: UInt8(rendition), adRoll: adRoll, index: index, loaded: loaded))
        lastTimestamp = timestamp
    }

    /// Slots in the pings due before `time`, every 30 s from `Start` while started.
    private mutating func emitPings(before time: Int64) {
        while started && nextPing < time {
            let pingTime = max(nextPing, lastTimestamp + 1)
            pending.append(
                GeneratedEvent(
                    timestamp: pingTime, kind: .ping, position: currentPosition(pingTime),
                    rendition: UInt8(rendition), adRoll: 0, index: -1, loaded: loaded))
            lastTimestamp = pingTime
            nextPing += 30_000
        }
    }
}
