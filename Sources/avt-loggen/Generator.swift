import EventModel

/// What `avt-loggen` was asked for.
struct Configuration {
    var records: Int
    var seed: UInt64
    var files: Int
    var directory: String
    /// Epoch milliseconds of the first file's first instant.
    var start: Int64
    /// Records that arrive late, per mille.
    var latePerMille: Int = 5
    /// Relative shares of the records: OpenAVT (`avt`), Tentacles (`vp` and `app`), Marconi.
    var mix: (avt: Int, vp: Int, marconi: Int) = (80, 10, 10)
    /// How the records are split into files; it changes nothing else.
    var layout: Layout = .hourly
    /// Prefix the file names with a tag drawn from the seed (see ``OutputFiles``).
    var shuffleNames = false
    /// Per cent of the sources that go quiet once, at a random moment of their life.
    var pausePercent = 0
    /// The length of every pause in ms; `nil`: drawn from 45 minutes to 5 hours.
    var pauseLength: Int64?
    /// Per cent of the sources started in the first 24 hours that never go idle for long:
    /// after their script, a short session again every 1 to 4 hours, to the end of the log.
    var alwaysOnPercent = 0
}

/// What the generator keeps for a running source besides its script: its tag for the
/// layouts, and its pause if it has one.
///
/// A paused source is scripted as if nothing happened; every record after `pauseAfter`
/// (a time of its own clock) is written `pauseLength` later, its position, state and
/// everything else unchanged, as when a device sleeps and the app carries on after it.
struct SourceState {
    var tag: SourceTag
    /// The moment the source goes quiet; `.max` when it never does.
    var pauseAfter: Int64 = .max
    var pauseLength: Int64 = 0
    /// In its pause now: in the heap for its first record after it, not counted as active.
    var quiet = false
    /// Always on (`--always-on`): when its script ends, it scripts a short session 1 to 4
    /// hours later, again and again.
    var alwaysOn = false
    /// Always on and between two sessions: in the heap for the next one, not counted as active.
    var resting = false

    /// When a record the source scripted at `time` is written.
    @inline(__always)
    func shifted(_ time: Int64) -> Int64 { time > pauseAfter ? time + pauseLength : time }
}

/// The kinds of simulated sources, each with its own controller.
enum SourceClass: Int, CaseIterable {
    case avt = 0, vp = 1, marconi = 2
}

/// How many sources of one class run, and how fast they produce, to follow the daily curve.
struct Controller {
    /// The class's share of the records, from 0 to 1.
    var share: Double
    /// Measured records per ms per active source.
    var rate: Double
    var active = 0
    var produced = 0
    var started = 0
    var maxActive = 0
    var activeSum = 0
    var producedAtMeasure = 0
}

/// Runs the simulated players and apps and streams their records into the hourly files.
///
/// Three kinds of sources run side by side: OpenAVT instruments (`Instrument`, `avt`
/// records), Tentacles app sessions (`AppSession`, `vp` and `app` records) and Marconi
/// players (`RadioPlayer`, `marconi` records), each class with its own controller that
/// keeps its share of the records (`Configuration.mix`). With a mix of `avt` alone, the
/// output is byte for byte what the OpenAVT-only generator wrote.
///
/// Sources wait in a min-heap by the time of their next event; the generator pops
/// the earliest, writes that event, and puts the instrument back for its next one, so
/// memory holds only the instruments playing at that moment (a few thousand), never
/// the records. Once a (simulated) second the controller starts new instruments so
/// that the records written follow a daily curve (busy evenings, quiet nights) and
/// total exactly `records` over the `files` hours. A record is held back now and then
/// (`latePerMille`) and written 2 to 25 s later, after records with later timestamps,
/// as mobile batch uploads arrive.
///
/// With `alwaysOnPercent`, that share of the sources started in the first 24 hours (drawn as
/// the pauses, apart from them) never ends: when its script does, it scripts one short
/// session (a playback watched 20 s to 5 min, one value proposition, 1 to 5 min of listening)
/// 1 to 4 hours later, from its own generator, and again after that one, so that its life
/// never reaches a 12-hour idle gap. Resting between sessions, it does not count as active.
/// Only the first day's sources are drawn, so that as many are always on every later day.
///
/// With `pausePercent`, that share of the sources (drawn per source from the seed and its
/// id, whatever the other draws) is scripted to its end once when it starts, to draw a
/// moment uniformly between its first and last record, and goes quiet there for
/// `pauseLength` or 45 min to 5 h (see ``SourceState``). A quiet source does not count as
/// active, so the controllers start others in its place and the curve and the total hold.
///
/// The layout (`Configuration.layout`) only routes the records to files (``OutputFiles``):
/// every layout gets the same lines, in the same order.
///
/// Nothing depends on the wall clock, the system's randomness, hashing or libm: the
/// output is a function of the configuration alone.
final class Generator {
    /// Relative traffic per UTC hour of day.
    static let hourWeights: [Double] = [5, 4, 3, 3, 3, 3, 4, 5, 6, 7, 7, 8, 8, 8, 8, 9, 9, 10, 11, 12, 12, 11, 9, 7]
    static let platforms: [(prefix: String, weight: Int, devices: [String])] = [
        ("ios", 35, ["iPhone15,2", "iPhone14,5", "iPhone16,1", "iPad13,4"]),
        ("android", 35, ["SM-S918B", "Pixel 8", "moto g(60)", "SM-A536B"]),
        ("web", 20, ["Chrome 131 / macOS", "Firefox 133 / Windows", "Safari 18.1 / macOS"]),
        ("tvos", 5, ["AppleTV14,1", "AppleTV11,1"]),
        ("roku", 5, ["Roku Ultra 4850X", "Roku Express 3960X"]),
    ]
    /// The prefixes of the source ids, `PREFIX-hhhhhhhh`: the instruments' platforms, the
    /// app sessions', the live and the on-demand players'. The `apps` layout has a file for each.
    static let sourcePrefixes = platforms.map(\.prefix) + [appPrefix, livePrefix, onDemandPrefix]
    static let appPrefix = "a"
    static let livePrefix = "radio"
    static let onDemandPrefix = "pod"
    static let fpsValues: [StaticString] = ["25.0", "29.97", "30.0", "23.976", "50.0", "60.0"]

    let configuration: Configuration
    private var rng: SplitMix64
    private var lateRng: SplitMix64
    private let catalog: Catalog
    private let sideCatalog: SideCatalog
    /// Draws for the app sessions and Marconi players, apart from `rng` so that the
    /// instruments' draws do not depend on the mix.
    private var sideRng: SplitMix64
    private let output: OutputFiles
    private let seedMix: UInt32

    private var instruments: [Instrument] = []
    private var freeSlots: [Int32] = []
    private var apps: [AppSession] = []
    private var freeAppSlots: [Int32] = []
    private var players: [RadioPlayer] = []
    private var freePlayerSlots: [Int32] = []
    private var controllers: [Controller]
    private var heap = EventHeap()
    private var lateHeap = EventHeap()
    private var lateRecords: [[UInt8]] = []
    private var lateClasses: [UInt8] = []
    private var lateTags: [SourceTag] = []
    /// Per slot, as `instruments`, `apps` and `players`.
    private var instrumentStates: [SourceState] = []
    private var appStates: [SourceState] = []
    private var playerStates: [SourceState] = []
    /// Seeds the per-source draws of the pauses.
    private let pauseSeed: UInt64
    /// Seeds the per-source draws of `--always-on`.
    private let alwaysOnSeed: UInt64
    private var freeLateSlots: [Int32] = []
    private var scratch: [UInt8] = []
    /// Each action's name as a JSON string, by `GeneratedEvent.Kind` raw value.
    private let actionJSON: [[UInt8]] = GeneratedEvent.Kind.allCases.map { Catalog.json($0.action.name) }

    private(set) var written = 0
    private(set) var produced = 0
    private(set) var lateWritten = 0
    /// Records written per class.
    private(set) var writtenByClass = [0, 0, 0]
    /// Sources given a pause, pauses begun, and pauses ended: the source wrote again (a pause
    /// near the end of the run may outlast it).
    private(set) var pausesPlanned = 0
    private(set) var pausesBegun = 0
    private(set) var pausesEnded = 0
    /// Sources always on, and the sessions they scripted after a rest.
    private(set) var alwaysOnSources = 0
    private(set) var alwaysOnSessions = 0

    var instrumentsStarted: Int { controllers[SourceClass.avt.rawValue].started }
    var maxActive: Int { controllers[SourceClass.avt.rawValue].maxActive }
    var appsStarted: Int { controllers[SourceClass.vp.rawValue].started }
    var playersStarted: Int { controllers[SourceClass.marconi.rawValue].started }

    // The controllers.
    private var cumulativeWeights: [Double] = [0]
    private var tickCount = 0

    init(configuration: Configuration) {
        self.configuration = configuration
        var master = SplitMix64(seed: configuration.seed)
        var catalogRng = master.split()
        catalog = Catalog(rng: &catalogRng)
        lateRng = master.split()
        seedMix = UInt32(truncatingIfNeeded: master.next())
        rng = master
        var side = SplitMix64(seed: configuration.seed ^ 0x5EED_0F_7E47AC1E5)
        var sideCatalogRng = side.split()
        sideCatalog = SideCatalog(rng: &sideCatalogRng, catalog: catalog)
        sideRng = side
        let mix = configuration.mix
        let total = Double(mix.avt + mix.vp + mix.marconi)
        // Starting guesses of records per ms per source; measured as the run goes.
        controllers = [
            Controller(share: Double(mix.avt) / total, rate: 1.0 / 20_000),
            Controller(share: Double(mix.vp) / total, rate: 1.0 / 60_000),
            Controller(share: Double(mix.marconi) / total, rate: 1.0 / 20_000),
        ]
        output = OutputFiles(
            directory: configuration.directory, start: configuration.start, hours: configuration.files,
            layout: configuration.layout, shuffleNames: configuration.shuffleNames, seed: configuration.seed)
        pauseSeed = SplitMix64.hash(configuration.seed ^ 0x9A05_E5EE_D0F5_11E5)
        alwaysOnSeed = SplitMix64.hash(configuration.seed ^ 0xA1_3A75_0000_5EED)
        for hour in 0..<configuration.files {
            let hourOfDay = Int(((configuration.start / 3_600_000) + Int64(hour)) % 24)
            let weight = Self.hourWeights[(hourOfDay + 24) % 24]
            cumulativeWeights.append((cumulativeWeights.last ?? 0) + weight)
        }
        scratch.reserveCapacity(1024)
    }

    /// Bytes written to the files so far.
    var bytesWritten: Int64 { output.bytesWritten }
    /// The number of files of the layout.
    var fileCount: Int { output.count }

    func run() throws(GeneratorError) {
        let target = configuration.records
        var nextTick = configuration.start
        while written < target {
            if let next = heap.first, next.time < nextTick {
                try step()
            } else {
                control(at: nextTick)
                nextTick += 1000
            }
        }
        try output.finish()
    }

    // MARK: - Emitting

    /// Heap slots carry the source class in their top bits.
    private static let classShift: Int32 = 28
    private static let indexMask: Int32 = (1 << 28) - 1

    private func step() throws(GeneratorError) {
        guard let entry = heap.pop() else { return }
        let index = Int(entry.slot & Self.indexMask)
        switch Int(entry.slot >> Self.classShift) {
        case SourceClass.vp.rawValue: try stepApp(entry, index)
        case SourceClass.marconi.rawValue: try stepPlayer(entry, index)
        default: try stepInstrument(entry, index)
        }
    }

    private func stepInstrument(_ entry: EventHeap.Entry, _ slot: Int) throws(GeneratorError) {
        var event = instruments[slot].pending[instruments[slot].head]
        instruments[slot].head += 1
        produced += 1
        controllers[SourceClass.avt.rawValue].produced += 1
        let scripted = event.timestamp
        let state = wake(&instrumentStates[slot], .avt)
        event.timestamp = state.shifted(scripted)

        try releaseLate(upTo: event.timestamp)
        if written < configuration.records {
            if lateRng.chance(perMille: configuration.latePerMille) {
                scratch.removeAll(keepingCapacity: true)
                encode(event, slot: slot, into: &scratch)
                holdLate(time: event.timestamp, class: .avt, source: state.tag)
            } else {
                try output.select(time: event.timestamp, source: state.tag)
                encode(event, slot: slot, into: &output.buffer)
                written += 1
                writtenByClass[SourceClass.avt.rawValue] += 1
            }
        }

        if let next = instruments[slot].nextTime {
            schedule(entry.slot, next: next, after: scripted, &instrumentStates[slot], .avt)
        } else if instruments[slot].refill(catalog: catalog), let next = instruments[slot].nextTime {
            schedule(entry.slot, next: next, after: scripted, &instrumentStates[slot], .avt)
        } else if instrumentStates[slot].alwaysOn, instruments[slot].continueLater(catalog: catalog),
            let next = instruments[slot].nextTime
        {
            rest(&instrumentStates[slot], .avt)
            schedule(entry.slot, next: next, after: scripted, &instrumentStates[slot], .avt)
        } else {
            instruments[slot].pending = []
            freeSlots.append(entry.slot)
            controllers[SourceClass.avt.rawValue].active -= 1
        }
    }

    private func stepApp(_ entry: EventHeap.Entry, _ slot: Int) throws(GeneratorError) {
        var event = apps[slot].pending[apps[slot].head]
        apps[slot].head += 1
        produced += 1
        controllers[SourceClass.vp.rawValue].produced += 1
        let scripted = event.timestamp
        let state = wake(&appStates[slot], .vp)
        event.timestamp = state.shifted(scripted)

        try releaseLate(upTo: event.timestamp)
        if written < configuration.records {
            if lateRng.chance(perMille: configuration.latePerMille) {
                scratch.removeAll(keepingCapacity: true)
                apps[slot].encode(event, catalog: sideCatalog, into: &scratch)
                holdLate(time: event.timestamp, class: .vp, source: state.tag)
            } else {
                try output.select(time: event.timestamp, source: state.tag)
                apps[slot].encode(event, catalog: sideCatalog, into: &output.buffer)
                written += 1
                writtenByClass[SourceClass.vp.rawValue] += 1
            }
        }

        if let next = apps[slot].nextTime {
            schedule(entry.slot, next: next, after: scripted, &appStates[slot], .vp)
        } else if apps[slot].refill(catalog: sideCatalog), let next = apps[slot].nextTime {
            schedule(entry.slot, next: next, after: scripted, &appStates[slot], .vp)
        } else if appStates[slot].alwaysOn, apps[slot].continueLater(catalog: sideCatalog),
            let next = apps[slot].nextTime
        {
            rest(&appStates[slot], .vp)
            schedule(entry.slot, next: next, after: scripted, &appStates[slot], .vp)
        } else {
            apps[slot] = AppSession(appField: [], rng: SplitMix64(seed: 0), firstEvent: 0)
            freeAppSlots.append(Int32(slot))
            controllers[SourceClass.vp.rawValue].active -= 1
        }
    }

    private func stepPlayer(_ entry: EventHeap.Entry, _ slot: Int) throws(GeneratorError) {
        var event = players[slot].pending[players[slot].head]
        players[slot].head += 1
        produced += 1
        controllers[SourceClass.marconi.rawValue].produced += 1
        let scripted = event.timestamp
        let state = wake(&playerStates[slot], .marconi)
        event.timestamp = state.shifted(scripted)

        try releaseLate(upTo: event.timestamp)
        if written < configuration.records {
            if lateRng.chance(perMille: configuration.latePerMille) {
                scratch.removeAll(keepingCapacity: true)
                players[slot].encode(event, catalog: sideCatalog, into: &scratch)
                holdLate(time: event.timestamp, class: .marconi, source: state.tag)
            } else {
                try output.select(time: event.timestamp, source: state.tag)
                players[slot].encode(event, catalog: sideCatalog, into: &output.buffer)
                written += 1
                writtenByClass[SourceClass.marconi.rawValue] += 1
            }
        }

        if let next = players[slot].nextTime {
            schedule(entry.slot, next: next, after: scripted, &playerStates[slot], .marconi)
        } else if players[slot].refill(catalog: sideCatalog), let next = players[slot].nextTime {
            schedule(entry.slot, next: next, after: scripted, &playerStates[slot], .marconi)
        } else if playerStates[slot].alwaysOn, players[slot].continueLater(catalog: sideCatalog),
            let next = players[slot].nextTime
        {
            rest(&playerStates[slot], .marconi)
            schedule(entry.slot, next: next, after: scripted, &playerStates[slot], .marconi)
        } else {
            players[slot].pending = []
            freePlayerSlots.append(Int32(slot))
            controllers[SourceClass.marconi.rawValue].active -= 1
        }
    }

    // MARK: - Pauses

    /// Ends the pause, or the rest, of a source whose first record after it is due; returns its state.
    @inline(__always)
    private func wake(_ state: inout SourceState, _ sourceClass: SourceClass) -> SourceState {
        if state.quiet {
            state.quiet = false
            controllers[sourceClass.rawValue].active += 1
            pausesEnded += 1
        }
        if state.resting {
            state.resting = false
            controllers[sourceClass.rawValue].active += 1
        }
        return state
    }

    /// An always-on source rests until the session it just scripted.
    private func rest(_ state: inout SourceState, _ sourceClass: SourceClass) {
        state.resting = true
        controllers[sourceClass.rawValue].active -= 1
        alwaysOnSessions += 1
    }

    /// Puts a source back in the heap for its record scripted at `next`, after one scripted
    /// at `previous`; when its pause falls between them, it goes quiet until then.
    @inline(__always)
    private func schedule(
        _ heapSlot: Int32, next: Int64, after previous: Int64, _ state: inout SourceState,
        _ sourceClass: SourceClass
    ) {
        if next > state.pauseAfter && previous <= state.pauseAfter {
            state.quiet = true
            controllers[sourceClass.rawValue].active -= 1
            pausesBegun += 1
        }
        heap.push(time: state.shifted(next), slot: heapSlot)
    }

    /// Whether a new source gets a pause: drawn from the seed and its id alone, so the same
    /// sources pause whatever the other options.
    private func pauseDraws(for tag: SourceTag) -> SplitMix64? {
        guard configuration.pausePercent > 0 else { return nil }
        var draws = SplitMix64(seed: pauseSeed ^ SplitMix64.hash(tag.key))
        return draws.below(100) < configuration.pausePercent ? draws : nil
    }

    /// Whether a new source, whose first record is at `first`, is always on: drawn from the seed
    /// and its id alone, apart from the pauses, for sources started in the first 24 hours.
    private func isAlwaysOn(_ tag: SourceTag, first: Int64) -> Bool {
        guard configuration.alwaysOnPercent > 0, first < configuration.start + 86_400_000 else { return false }
        var draws = SplitMix64(seed: alwaysOnSeed ^ SplitMix64.hash(tag.key))
        guard draws.below(100) < configuration.alwaysOnPercent else { return false }
        alwaysOnSources += 1
        return true
    }

    /// The state of a new source: its tag, whether it is always on and, with `draws`, a pause at a moment drawn
    /// uniformly from its first record (`first`) to just before its last (`last`).
    private func plan(
        _ tag: SourceTag, draws: SplitMix64?, first: Int64, last: Int64
    ) -> SourceState {
        var state = SourceState(tag: tag, alwaysOn: isAlwaysOn(tag, first: first))
        guard var draws, last > first else { return state }
        state.pauseAfter = draws.between(first...(last - 1))
        state.pauseLength = configuration.pauseLength ?? draws.between(2_700_000...18_000_000)
        pausesPlanned += 1
        return state
    }

    // MARK: - Late records

    /// Holds the record in `scratch` back, to be written 2 to 25 s after its time.
    private func holdLate(time: Int64, class sourceClass: SourceClass, source: SourceTag) {
        let lateSlot: Int32
        if let free = freeLateSlots.popLast() {
            lateSlot = free
            lateRecords[Int(free)] = scratch
            lateClasses[Int(free)] = UInt8(sourceClass.rawValue)
            lateTags[Int(free)] = source
        } else {
            lateSlot = Int32(lateRecords.count)
            lateRecords.append(scratch)
            lateClasses.append(UInt8(sourceClass.rawValue))
            lateTags.append(source)
        }
        lateHeap.push(time: time + lateRng.between(2_000...25_000), slot: lateSlot)
    }

    private func releaseLate(upTo time: Int64) throws(GeneratorError) {
        while written < configuration.records, let first = lateHeap.first, first.time <= time {
            _ = lateHeap.pop()
            try output.select(time: first.time, source: lateTags[Int(first.slot)])
            output.buffer.append(contentsOf: lateRecords[Int(first.slot)])
            lateRecords[Int(first.slot)] = []
            freeLateSlots.append(first.slot)
            written += 1
            writtenByClass[Int(lateClasses[Int(first.slot)])] += 1
            lateWritten += 1
        }
    }

    // MARK: - Starting instruments

    private func control(at time: Int64) {
        tickCount += 1
        for index in controllers.indices {
            let active = controllers[index].active
            controllers[index].maxActive = max(controllers[index].maxActive, active)
            controllers[index].activeSum += active
        }
        if tickCount % 10 == 0 {
            for index in controllers.indices {
                let averageActive = Double(controllers[index].activeSum) / 10
                if averageActive >= 1 && tickCount > 120 {
                    let measured =
                        Double(controllers[index].produced - controllers[index].producedAtMeasure)
                        / (averageActive * 10_000)
                    controllers[index].rate = controllers[index].rate * 0.9 + measured * 0.1
                }
                controllers[index].activeSum = 0
                controllers[index].producedAtMeasure = controllers[index].produced
            }
        }
        let horizon: Int64 = 600_000
        let expectedTotal = expected(at: time + horizon)
        for sourceClass in SourceClass.allCases {
            let controller = controllers[sourceClass.rawValue]
            guard controller.share > 0 else { continue }
            let missing = max(0, expectedTotal * controller.share - Double(controller.produced))
            let desiredActive = Int(missing / Double(horizon) / max(controller.rate, 1e-7))
            let limit = max(2, desiredActive / 60)
            let spawns = min(max(0, desiredActive - controller.active), limit)
            for _ in 0..<spawns {
                switch sourceClass {
                case .avt: startInstrument(at: time + rng.between(0...999))
                case .vp: startApp(at: time + sideRng.between(0...999))
                case .marconi: startPlayer(at: time + sideRng.between(0...999))
                }
            }
        }
    }

    /// The records that should have been produced by `time` to follow the daily curve.
    private func expected(at time: Int64) -> Double {
        let total = Double(configuration.records)
        guard time > configuration.start else { return 0 }
        let elapsed = time - configuration.start
        let hour = Int(elapsed / 3_600_000)
        guard hour < configuration.files, let all = cumulativeWeights.last, all > 0 else { return total }
        let fraction = Double(elapsed % 3_600_000) / 3_600_000
        let done = cumulativeWeights[hour] + (cumulativeWeights[hour + 1] - cumulativeWeights[hour]) * fraction
        return total * done / all
    }

    private func startInstrument(at time: Int64) {
        controllers[SourceClass.avt.rawValue].started += 1
        let instrumentsStarted = controllers[SourceClass.avt.rawValue].started
        var instrumentRng = rng.split()
        let platformIndex = instrumentRng.weighted(Self.platforms.map(\.weight))
        let platform = Self.platforms[platformIndex]
        let number = Self.mix32(UInt32(truncatingIfNeeded: instrumentsStarted) ^ seedMix)
        let id = platform.prefix + "-" + Self.hex8(number)
        let tag = SourceTag(
            key: UInt64(SourceClass.avt.rawValue) << 32 | UInt64(number), prefix: UInt8(platformIndex))
        var nameField = Array("\"instrument\":".utf8)
        nameField += Catalog.json(id)
        var attributes: [UInt8] = []
        let volume = [100, 100, 100, 80, 65, 50, 30][instrumentRng.below(7)]
        if volume != 100 { attributes += ",\"volume\":\(volume)".utf8 }
        if instrumentRng.chance(perMille: 40) { attributes += ",\"isMuted\":true".utf8 }
        attributes += ",\"deviceModel\":".utf8
        attributes += Catalog.json(platform.devices[instrumentRng.below(platform.devices.count)])
        let hasAds = instrumentRng.chance(perMille: 400)
        var instrument = Instrument(
            nameField: nameField, staticAttributes: attributes, hasAds: hasAds,
            rng: instrumentRng, firstEvent: time)
        guard instrument.refill(catalog: catalog), let next = instrument.nextTime else { return }
        let draws = pauseDraws(for: tag)
        let last = draws == nil ? next : Self.lastTime(of: instrument, from: next) { $0.refill(catalog: catalog) }
        let slot = Self.place(
            instrument, plan(tag, draws: draws, first: next, last: last), in: &instruments, &instrumentStates,
            free: &freeSlots)
        heap.push(time: next, slot: slot)
        controllers[SourceClass.avt.rawValue].active += 1
    }

    private func startApp(at time: Int64) {
        controllers[SourceClass.vp.rawValue].started += 1
        let started = controllers[SourceClass.vp.rawValue].started
        let appRng = sideRng.split()
        let number = Self.mix32(UInt32(truncatingIfNeeded: started) ^ seedMix ^ 0xA99_5E55)
        let id = Self.appPrefix + "-" + Self.hex8(number)
        let tag = SourceTag(
            key: UInt64(SourceClass.vp.rawValue) << 32 | UInt64(number), prefix: UInt8(Self.platforms.count))
        var app = AppSession(appField: Array("\"app\":".utf8) + Catalog.json(id), rng: appRng, firstEvent: time)
        guard app.refill(catalog: sideCatalog), let next = app.nextTime else { return }
        let draws = pauseDraws(for: tag)
        let last = draws == nil ? next : Self.lastTime(of: app, from: next) { $0.refill(catalog: sideCatalog) }
        let slot = Self.place(
            app, plan(tag, draws: draws, first: next, last: last), in: &apps, &appStates, free: &freeAppSlots)
        heap.push(time: next, slot: Int32(SourceClass.vp.rawValue) << Self.classShift | slot)
        controllers[SourceClass.vp.rawValue].active += 1
    }

    private func startPlayer(at time: Int64) {
        controllers[SourceClass.marconi.rawValue].started += 1
        let started = controllers[SourceClass.marconi.rawValue].started
        var playerRng = sideRng.split()
        let isLive = playerRng.chance(perMille: 700)
        let number = Self.mix32(UInt32(truncatingIfNeeded: started) ^ seedMix ^ 0x4AD1_0F00)
        let id = (isLive ? Self.livePrefix : Self.onDemandPrefix) + "-" + Self.hex8(number)
        let tag = SourceTag(
            key: UInt64(SourceClass.marconi.rawValue) << 32 | UInt64(number),
            prefix: UInt8(Self.platforms.count + (isLive ? 1 : 2)))
        let station = playerRng.below(sideCatalog.stations.count)
        var player = RadioPlayer(
            playerField: Array("\"player\":".utf8) + Catalog.json(id), isLive: isLive, station: station, rng: playerRng,
            firstEvent: time)
        guard player.refill(catalog: sideCatalog), let next = player.nextTime else { return }
        let draws = pauseDraws(for: tag)
        let last = draws == nil ? next : Self.lastTime(of: player, from: next) { $0.refill(catalog: sideCatalog) }
        let slot = Self.place(
            player, plan(tag, draws: draws, first: next, last: last), in: &players, &playerStates,
            free: &freePlayerSlots)
        heap.push(time: next, slot: Int32(SourceClass.marconi.rawValue) << Self.classShift | slot)
        controllers[SourceClass.marconi.rawValue].active += 1
    }

    /// The time of the last record a paused source would write without its pause: a copy of it
    /// scripted to its end (`refill` scripts its next phase, false at the end).
    private static func lastTime<Source: ScriptedSource>(
        of source: Source, from first: Int64, refill: (inout Source) -> Bool
    ) -> Int64 {
        var probe = source
        var last = probe.lastPendingTime ?? first
        while refill(&probe) { last = probe.lastPendingTime ?? last }
        return last
    }

    /// Puts a started source and its state in a free slot, or in a new one; returns the slot.
    private static func place<Source>(
        _ source: Source, _ state: SourceState, in sources: inout [Source], _ states: inout [SourceState],
        free: inout [Int32]
    ) -> Int32 {
        if let slot = free.popLast() {
            sources[Int(slot)] = source
            states[Int(slot)] = state
            return slot
        }
        sources.append(source)
        states.append(state)
        return Int32(sources.count - 1)
    }

    /// A bijective 32-bit mix (lowbias32), so instrument ids never collide.
    static func mix32(_ input: UInt32) -> UInt32 {
        var x = input
        x ^= x >> 16
        x &*= 0x7FEB_352D
        x ^= x >> 15
        x &*= 0x846C_A68B
        x ^= x >> 16
        return x
    }

    static func hex8(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    // MARK: - Encoding

    private func encode(_ event: GeneratedEvent, slot: Int, into buffer: inout [UInt8]) {
        append("{\"ts\":", to: &buffer)
        Self.appendInt(event.timestamp, to: &buffer)
        buffer.append(UInt8(ascii: ","))
        buffer.append(contentsOf: instruments[slot].nameField)
        append(event.kind.isAd ? ",\"tracker\":1,\"action\":" : ",\"tracker\":0,\"action\":", to: &buffer)
        buffer.append(contentsOf: actionJSON[Int(event.kind.rawValue)])
        if event.kind.isAd {
            append(",\"attrs\":{\"isAdsTracker\":true,\"adRoll\":", to: &buffer)
            append(event.adRoll == 0 ? "\"pre\"" : event.adRoll == 1 ? "\"mid\"" : "\"post\"", to: &buffer)
            if event.index >= 0 {
                let ad = catalog.ads[Int(event.index)]
                append(",\"adPosition\":", to: &buffer)
                Self.appendInt(event.position, to: &buffer)
                append(",\"adDuration\":", to: &buffer)
                Self.appendInt(ad.duration, to: &buffer)
                append(",\"adId\":", to: &buffer)
                buffer.append(contentsOf: ad.id)
                append(",\"adTitle\":", to: &buffer)
                buffer.append(contentsOf: ad.title)
                append(",\"adCreativeId\":", to: &buffer)
                buffer.append(contentsOf: ad.creativeId)
                append(",\"adSystem\":", to: &buffer)
                buffer.append(contentsOf: ad.system)
                append(",\"adAdvertiserName\":", to: &buffer)
                buffer.append(contentsOf: ad.advertiser)
                append(",\"adBitrate\":", to: &buffer)
                Self.appendInt(ad.bitrate, to: &buffer)
            }
        } else {
            append(",\"attrs\":{\"isAdsTracker\":false", to: &buffer)
            if event.loaded {
                let content = catalog.contents[instruments[slot].content]
                append(",\"position\":", to: &buffer)
                Self.appendInt(event.position, to: &buffer)
                if content.duration > 0 {
                    append(",\"duration\":", to: &buffer)
                    Self.appendInt(content.duration, to: &buffer)
                }
                let rendition = Instrument.renditions[Int(event.rendition)]
                append(",\"bitrate\":", to: &buffer)
                Self.appendInt(rendition.0, to: &buffer)
                append(",\"resolutionWidth\":", to: &buffer)
                Self.appendInt(rendition.1, to: &buffer)
                append(",\"resolutionHeight\":", to: &buffer)
                Self.appendInt(rendition.2, to: &buffer)
                switch event.kind {
                case .streamLoad, .start, .qualityChangeUp, .qualityChangeDown:
                    append(",\"fps\":", to: &buffer)
                    append(Self.fpsValues[instruments[slot].content % Self.fpsValues.count], to: &buffer)
                default:
                    break
                }
                if event.kind == .streamLoad || event.kind == .start {
                    append(",\"source\":", to: &buffer)
                    buffer.append(contentsOf: content.source)
                    append(",\"title\":", to: &buffer)
                    buffer.append(contentsOf: content.title)
                }
            }
            if event.kind == .error && event.index >= 0 {
                append(",\"errorDescription\":", to: &buffer)
                // Indexes from 1000 on are start errors (see `Instrument`).
                let index = Int(event.index)
                let text =
                    index >= 1000
                    ? catalog.startErrors[(index - 1000) % catalog.startErrors.count]
                    : catalog.errors[index % catalog.errors.count]
                buffer.append(contentsOf: text)
            }
        }
        buffer.append(contentsOf: instruments[slot].staticAttributes)
        append("}}\n", to: &buffer)
    }

    @inline(__always)
    private func append(_ text: StaticString, to buffer: inout [UInt8]) {
        appendStatic(text, to: &buffer)
    }

    static func appendInt(_ value: Int64, to buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[count] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
                magnitude /= 10
                count += 1
            } while magnitude > 0
            var index = count - 1
            while index >= 0 {
                buffer.append(raw[index])
                index -= 1
            }
        }
    }
}

/// A simulated source the generator scripts a phase at a time.
protocol ScriptedSource {
    /// The time of the last record of the phase scripted last, if it has any.
    var lastPendingTime: Int64? { get }
}

extension Instrument: ScriptedSource {
    var lastPendingTime: Int64? { pending.last?.timestamp }
}

extension AppSession: ScriptedSource {
    var lastPendingTime: Int64? { pending.last?.timestamp }
}

extension RadioPlayer: ScriptedSource {
    var lastPendingTime: Int64? { pending.last?.timestamp }
}
