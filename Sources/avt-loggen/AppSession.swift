/// One simulated app session instrumented with Tentacles: value propositions (`vp`
/// records) and the app lifecycle (`app` records), scripted one activity at a time.
///
/// An activity is one value proposition: `open`, then mostly `start`, a few `pause`/`start`
/// cycles (videos and articles, with the position in `actionAttrs`), and `complete` or
/// `cancel`. Sometimes a catalog browse stays started while a video plays, the app goes to
/// the background and comes back (`willResignActive`, `didBecomeActive`: Tentacles restores
/// the sessions), or never comes back. Now and then the app does what Tentacles refuses: a
/// prohibited status change (`pause` or `complete` before `start`, `complete` while paused),
/// or an action with no open session (a `complete` after a `cancel`). No activity leaves
/// the app silent for more than 20 minutes; only `--pauses` makes an app go quiet longer
/// (``SourceState``). With `--always-on`, an app whose session ended comes back hours later
/// (``continueLater(catalog:)``).
struct AppSession {
    enum Kind: UInt8 {
        case open, start, pause, complete, cancel, willResignActive, didBecomeActive
    }

    enum Trigger: UInt8 {
        case none, clicked, automatically, userBack, errorShown, deepLink, timeout
    }

    struct Event {
        var timestamp: Int64
        var kind: Kind
        var trigger: Trigger
        /// Index into `propositions`.
        var proposition: Int16
        /// The `actionAttrs`: none, a playback position, a reading progress, a reason.
        var extraKind: UInt8
        var extra: Int64
    }

    static let noExtra: UInt8 = 0
    static let positionExtra: UInt8 = 1
    static let scrollExtra: UInt8 = 2
    static let resultsExtra: UInt8 = 3

    /// `"app":"a-7f3a9c1b"` as JSON bytes.
    let appField: [UInt8]
    var rng: SplitMix64
    var pending: [Event] = []
    var head = 0
    /// The value propositions this app used (`"name":…` and `"attrs":…` of each), by index.
    private(set) var propositions: [SideCatalog.Proposition] = []

    private var activitiesLeft: Int
    private var lastTimestamp: Int64
    /// The time of the last record scripted.
    private var lastRecord: Int64 = 0
    private var firstActivity = true
    private var done = false
    /// A catalog browse left started while the next activity runs.
    private var openBrowse: Int16 = -1
    /// The session ended in the background (`willResignActive` and nothing after it), and the
    /// value propositions it left open then: the activity it was in, a browse left started.
    private var leftInBackground = false
    private var leftOpen: [Int16] = []

    init(appField: [UInt8], rng: SplitMix64, firstEvent: Int64) {
        self.appField = appField
        self.rng = rng
        let counts = [1, 1, 2, 2, 3, 3, 4, 5, 6, 8]
        activitiesLeft = counts[self.rng.below(counts.count)]
        lastTimestamp = firstEvent - 1
    }

    var nextTime: Int64? { head < pending.count ? pending[head].timestamp : nil }

    mutating func refill(catalog: SideCatalog) -> Bool {
        pending.removeAll(keepingCapacity: true)
        head = 0
        while pending.isEmpty {
            if done { return false }
            if activitiesLeft == 0 {
                if openBrowse >= 0 {
                    add(lastTimestamp + rng.between(1_000...30_000), .cancel, openBrowse, trigger: .userBack)
                    openBrowse = -1
                }
                done = true
                continue
            }
            activitiesLeft -= 1
            activity(catalog: catalog)
        }
        return true
    }

    /// With `--always-on`, once the session has nothing more to emit: the app comes back 1 to
    /// 4 hours after its last record for one activity, as a session's first. If it was left in
    /// the background, it comes back to the foreground first (`didBecomeActive`: Tentacles
    /// restores the sessions left open) and the user leaves what it shows (`cancel`), so that
    /// no session stays open for ever. `false` when it has nothing to emit even so. Draws
    /// only from the session's own generator.
    mutating func continueLater(catalog: SideCatalog) -> Bool {
        pending.removeAll(keepingCapacity: true)
        head = 0
        lastTimestamp += rng.between(3_600_000...14_400_000) - 1
        // Every event of the earlier activities is written: only the propositions left open
        // are needed, renumbered.
        var kept: [SideCatalog.Proposition] = []
        if leftInBackground {
            add(lastTimestamp + 1, .didBecomeActive, -1)
            for index in leftOpen {
                kept.append(propositions[Int(index)])
                add(lastTimestamp + rng.between(500...5_000), .cancel, Int16(kept.count - 1), trigger: .userBack)
            }
            leftInBackground = false
            leftOpen.removeAll()
        }
        propositions = kept
        done = false
        firstActivity = true
        activitiesLeft = 0
        activity(catalog: catalog)
        return !pending.isEmpty
    }

    // MARK: - Activities

    private mutating func activity(catalog: SideCatalog) {
        let kindIndex = firstActivity ? (rng.chance(perMille: 600) ? 1 : 0) : rng.weighted([45, 15, 22, 12, 6])
        let kind = SideCatalog.PropositionKind(rawValue: kindIndex) ?? .watchingVideo
        let start = firstActivity ? lastTimestamp + 1 : lastTimestamp + rng.between(1_000...90_000)
        firstActivity = false
        let choices = catalog.propositions[kind.rawValue]
        // Popular items come up more often.
        let draw = rng.below(choices.count)
        let proposition = choices[draw * draw / choices.count]
        if kind == .browsingCatalog && openBrowse >= 0 {
            // One browse at a time: the earlier one is left for this one.
            add(start - 1, .cancel, openBrowse, trigger: .userBack)
            openBrowse = -1
        }
        let index = Int16(propositions.count)
        propositions.append(proposition)

        if kind == .watchingVideo && openBrowse >= 0 && rng.chance(perMille: 600) {
            // The user picked the video in the catalog: the browse completes.
            add(start, .complete, openBrowse, trigger: .clicked)
            openBrowse = -1
        }
        add(start, .open, index, trigger: rng.chance(perMille: 50) ? .deepLink : .none)
        if rng.chance(perMille: 50) {  // opened and left
            add(lastTimestamp + rng.between(500...20_000), .cancel, index, trigger: .userBack)
            strayAction(after: index)
            return
        }
        if rng.chance(perMille: 30) {  // a prohibited change: pause or complete before start
            add(lastTimestamp + rng.between(100...2_000), rng.chance(perMille: 500) ? .pause : .complete, index)
        }
        add(
            lastTimestamp + rng.between(100...3_000), .start, index,
            trigger: kind == .watchingVideo ? .automatically : .none)

        var activeLeft = min(proposition.length, rng.between(20_000...max(20_000, proposition.length)))
        if kind == .watchingVideo && rng.chance(perMille: 400) { activeLeft = proposition.length }
        var position: Int64 = 0
        while activeLeft > 0 {
            let segment = min(
                activeLeft, [rng.between(5_000...60_000), rng.between(60_000...540_000)][rng.weighted([40, 60])])
            activeLeft -= segment
            position += segment
            let time = lastTimestamp + segment
            if activeLeft == 0 {
                lastTimestamp = time - 1  // the activity ends at `time`
                break
            }
            // Long silences end in a pause, so that the app is never silent for 20 minutes.
            let choice = time - lastRecord > 600_000 ? 0 : rng.weighted([70, 10, 20])
            switch choice {
            case 0 where kind == .watchingVideo || kind == .readingArticle:
                add(
                    time, .pause, index, trigger: .none,
                    extraKind: kind == .watchingVideo ? Self.positionExtra : Self.scrollExtra,
                    extra: kind == .watchingVideo ? position : min(100, position / 3_000))
                if rng.chance(perMille: 30) {  // prohibited: complete while paused
                    add(lastTimestamp + rng.between(200...5_000), .complete, index)
                }
                if background(at: lastTimestamp + rng.between(1_000...60_000)) == false {
                    leftOpen.append(index)
                    return
                }
                add(lastTimestamp + rng.between(2_000...300_000), .start, index, trigger: .clicked)
            case 1:
                if background(at: time, certain: true) == false {
                    leftOpen.append(index)
                    return
                }
            default:
                // Nothing to record: the user is just busy with it.
                lastTimestamp = time
            }
        }
        let end = lastTimestamp + 1
        switch kind {
        case .watchingVideo:
            if activeLeft == 0 && position >= proposition.length {
                add(end, .complete, index, trigger: .automatically)
            } else if rng.chance(perMille: 800) {
                add(end, .cancel, index, trigger: rng.chance(perMille: 900) ? .userBack : .errorShown)
            } else {
                add(end, .complete, index, trigger: .clicked)
            }
        case .browsingCatalog:
            if rng.chance(perMille: 450) {
                openBrowse = index  // stays started while the next activity runs
                return
            }
            add(end, rng.chance(perMille: 500) ? .complete : .cancel, index, trigger: .clicked)
        case .searchingContent:
            if rng.chance(perMille: 700) {
                add(
                    end, .complete, index, trigger: .clicked, extraKind: Self.resultsExtra,
                    extra: rng.between(0...40))
            } else {
                add(end, .cancel, index, trigger: rng.chance(perMille: 900) ? .userBack : .timeout)
            }
        case .purchasingSubscription:
            add(end, rng.chance(perMille: 400) ? .complete : .cancel, index, trigger: .clicked)
        case .readingArticle:
            add(end, rng.chance(perMille: 650) ? .complete : .cancel, index, trigger: .clicked)
        }
        strayAction(after: index)
    }

    /// Now and then an action on a session that is gone: Tentacles' `initialActionNeedsToBeOpen`.
    private mutating func strayAction(after index: Int16) {
        if rng.chance(perMille: 25) {
            add(lastTimestamp + rng.between(50...3_000), rng.chance(perMille: 500) ? .complete : .start, index)
        }
    }

    /// Maybe sends the app to the background; `false` when it never comes back (the session ends).
    private mutating func background(at time: Int64, certain: Bool = false) -> Bool {
        guard certain || rng.chance(perMille: 40) else {
            lastTimestamp = max(lastTimestamp, time - 1)
            return true
        }
        add(time, .willResignActive, -1)
        if !propositions.isEmpty && time % 5 == 0 {
            // The app opens its last value proposition again while in the background: Tentacles
            // drops that session when the app comes back.
            add(time + 1_000, .open, Int16(propositions.count - 1))
        }
        if rng.chance(perMille: 200) {
            done = true
            activitiesLeft = 0
            if openBrowse >= 0 { leftOpen.append(openBrowse) }
            openBrowse = -1
            leftInBackground = true
            return false
        }
        add(
            lastTimestamp + [rng.between(2_000...60_000), rng.between(60_000...600_000)][rng.weighted([60, 40])],
            .didBecomeActive, -1)
        if rng.chance(perMille: 20) {  // a second one restores nothing
            add(lastTimestamp + rng.between(10...500), .didBecomeActive, -1)
        }
        return true
    }

    private mutating func add(
        _ time: Int64, _ kind: Kind, _ proposition: Int16, trigger: Trigger = .none, extraKind: UInt8 = 0,
        extra: Int64 = 0
    ) {
        let timestamp = max(time, lastTimestamp + 1)
        lastRecord = timestamp
        pending.append(
            Event(
                timestamp: timestamp, kind: kind, trigger: trigger, proposition: proposition, extraKind: extraKind,
                extra: extra))
        lastTimestamp = timestamp
    }

    // MARK: - Encoding

    static let actionNames: [StaticString] = [
        "\"open\"", "\"start\"", "\"pause\"", "\"complete\"", "\"cancel\"",
    ]

    func encode(_ event: Event, catalog: SideCatalog, into buffer: inout [UInt8]) {
        appendStatic("{\"ts\":", to: &buffer)
        Generator.appendInt(event.timestamp, to: &buffer)
        switch event.kind {
        case .willResignActive, .didBecomeActive:
            appendStatic(",\"type\":\"app\",", to: &buffer)
            buffer.append(contentsOf: appField)
            appendStatic(
                event.kind == .willResignActive
                    ? ",\"event\":\"willResignActive\"}\n" : ",\"event\":\"didBecomeActive\"}\n",
                to: &buffer)
            return
        default:
            break
        }
        let proposition = propositions[Int(event.proposition)]
        appendStatic(",\"type\":\"vp\",", to: &buffer)
        buffer.append(contentsOf: appField)
        buffer.append(UInt8(ascii: ","))
        buffer.append(contentsOf: proposition.name)
        appendStatic(",\"action\":", to: &buffer)
        appendStatic(Self.actionNames[Int(event.kind.rawValue)], to: &buffer)
        buffer.append(UInt8(ascii: ","))
        buffer.append(contentsOf: proposition.attrs)
        if event.trigger != .none {
            appendStatic(",\"trigger\":", to: &buffer)
            buffer.append(contentsOf: catalog.triggers[Int(event.trigger.rawValue)])
        }
        switch event.extraKind {
        case Self.positionExtra:
            // Seconds with two decimals, as players report it.
            appendStatic(",\"actionAttrs\":{\"position\":", to: &buffer)
            Generator.appendInt(event.extra / 1000, to: &buffer)
            buffer.append(UInt8(ascii: "."))
            let hundredths = (event.extra % 1000) / 10
            buffer.append(UInt8(truncatingIfNeeded: hundredths / 10) &+ 0x30)
            buffer.append(UInt8(truncatingIfNeeded: hundredths % 10) &+ 0x30)
            appendStatic("}", to: &buffer)
        case Self.scrollExtra:
            appendStatic(",\"actionAttrs\":{\"scrollPercent\":", to: &buffer)
            Generator.appendInt(event.extra, to: &buffer)
            appendStatic("}", to: &buffer)
        case Self.resultsExtra:
            appendStatic(",\"actionAttrs\":{\"results\":", to: &buffer)
            Generator.appendInt(event.extra, to: &buffer)
            appendStatic(",\"source\":\"suggestion\"}", to: &buffer)
        default:
            break
        }
        appendStatic("}\n", to: &buffer)
    }
}

@inline(__always)
func appendStatic(_ text: StaticString, to buffer: inout [UInt8]) {
    buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
}
