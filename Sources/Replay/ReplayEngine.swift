import EventModel
import HeapModule

/// Replays records in event-time order through live state machines, one life per instrument,
/// app session or Marconi player, and hands over what they produce as ``SessionReport``s.
///
/// Records come in the order of their time (the inputs merged, see `EventTimeMerge` in the
/// command line): the engine's clock, the *frontier*, is the latest time added. Each record
/// goes straight to the state machines of its key's life (``SessionKey``): OpenAVT's
/// instrument, hub and metricalc, Tentacles' session manager, Marconi's player. A life
/// begins with its key's first record and ends only when the frontier is more than the idle
/// gap (``ReplayOptions/idleGap``) past its latest record, or when the input ends; a pause
/// shorter than the gap changes nothing. A record after the gap starts a new life, with ids
/// scoped by its time.
///
/// A life takes its records as they come and replays them in bursts when it hands over its
/// trace lines and points (`take(_:at:)`), or when a record may make rows final (an OpenAVT
/// `End`, `Stop` or `Next`, a value-proposition `complete` or `cancel`, an app lifecycle event,
/// any Marconi record): the rows it made final are handed over with that record. Trace lines
/// and points are handed over:
/// - when it has been idle for ``flushDelay`` (frontier past its latest record by that much);
/// - before a record in a later second than its latest, once ``pendingLimit`` records and
///   outputs wait;
/// - with its rows when it ends.
/// Hand-overs never split one second of a life's points (but for a record later than the
/// reorder window), so Graphite's sum per path and second is that of all its points.
///
/// The reports come out in a fixed order, whatever the layout of the input: the place of what
/// made them due, a record or a deadline (``SessionReport/order``, ``SessionOrder``).
///
/// With a ``Shard`` other than ``Shard/all``, only the shard's lives are replayed; a record of
/// another shard moves the clock, and nothing else. Every place comes from a life's own
/// records, so each report comes out with the order it has in an unsharded run.
public struct ReplayEngine {
    private let options: ReplayOptions
    let sharedOptions: SharedReplayOptions
    /// The numbers of OpenAVT's actions, shared by the lives: each waiting record keeps one.
    let actionCodes = ActionCodes()
    /// The lives this engine replays.
    public let shard: Shard
    private(set) var lives: [SessionKey: Life] = [:]
    /// Each life's next deadline (a flush or its end); entries a later one replaced are skipped.
    private var deadlines = Heap<Deadline>()
    /// The latest time added so far.
    public private(set) var frontier: Timestamp?
    /// Lives ended by the idle gap so far.
    public private(set) var livesEndedByGap = 0
    /// Records refused because they came after a later record of their life was replayed.
    public private(set) var lateRecords = 0

    /// Log time after which an idle life replays its waiting records and hands its outputs
    /// over: fifteen minutes (a life waits with at most ``pendingLimit`` of them).
    public static let flushDelay: Int64 = 900_000
    /// Records and outputs waiting after which a life hands them over at its next second.
    public static let pendingLimit = 64

    /// Creates an engine with no life, that replays the lives of `shard`.
    public init(options: ReplayOptions = ReplayOptions(), shard: Shard = .all) {
        self.options = options
        sharedOptions = SharedReplayOptions(options)
        self.shard = shard
    }

    /// What adding a record did.
    public enum Outcome {
        /// The record was replayed; the reports are those it made due, in order.
        case replayed([SessionReport])
        /// The record, given back, was not replayed: its life already replayed a record this
        /// many milliseconds later. The reports are those it made due, in order.
        case late(by: Int64, Record, [SessionReport])
    }

    /// Adds a record at its place in the merged stream.
    ///
    /// The record first moves the clock to its place's time, which may make flushes and ends
    /// due (its own life's end included, when it comes more than the idle gap after its life's
    /// latest record); then it is replayed by its life, or starts a new one. A record earlier
    /// than its life's latest (it came late) is refused.
    ///
    /// A record that does not move the clock (`movesClock` false: one the merge found ahead of
    /// every input, `EventTimeMerge`) makes only its own life's end due, and is then replayed
    /// the same way: other lives' idle gaps go by the other records' clock.
    public mutating func add(
        _ record: consuming Record, at place: StreamPlace, movesClock: Bool = true
    ) -> Outcome {
        var reports: [SessionReport] = []
        if let late = add(record, at: place, movesClock: movesClock, reportingInto: &reports) {
            return .late(by: late.by, late.record, reports)
        }
        return .replayed(reports)
    }

    /// Adds a record as ``add(_:at:movesClock:)`` does, appending the reports it made due to
    /// `reports` (a batch's, so that no array is made and copied for each record that makes
    /// some); gives the record back when it came late, with how many milliseconds.
    package mutating func add(
        _ record: consuming Record, at place: StreamPlace, movesClock: Bool,
        reportingInto reports: inout [SessionReport]
    ) -> (by: Int64, record: Record)? {
        let timestamp = record.timestamp
        let key = SessionKey(of: record)
        let ownReports = reports.count
        if movesClock { advance(to: place.time, into: &reports) }
        guard shard.contains(key) else { return nil }
        if !movesClock { endIfIdle(key, at: place, into: &reports) }
        let endsRows = Life.mayEndRows(record)
        let life: Life
        if let index = lives.index(forKey: key) {
            life = lives.values[index]
            let latest = life.latest
            if timestamp < latest {
                lateRecords += 1
                return (latest.milliseconds(since: timestamp), record)
            }
            // Pending outputs go before a record in a later second, once there are enough.
            if life.pendingCount >= Self.pendingLimit,
                timestamp.epochSeconds > latest.epochSeconds
            {
                reports.append(flush(life, order: .record(place, key: key), active: true))
            }
            life.take(record)
        } else {
            life = Life.starting(key: key, first: timestamp, options: sharedOptions, actionCodes: actionCodes)
            life.take(record)
            lives[key] = life
        }
        life.clockAtLatest = place.time
        if endsRows { handOverFinalRows(of: life, at: place, into: &reports, after: ownReports) }
        schedule(life)
        return nil
    }

    /// Adds a record read at `position`, its place in the stream at its own time (records
    /// added this way must come in the order of their times).
    public mutating func add(_ record: consuming Record, at position: SourcePosition) -> Outcome {
        let place = StreamPlace(
            time: record.timestamp, keyDigest: Shard.hash(SessionKey(of: record)), position: position)
        return add(record, at: place)
    }

    /// Moves the clock to `time` for a record that another engine replays (one of a
    /// ``ReplayEngines`` with the lives of other keys), or for the end of a batch of them: the
    /// reports are the flushes and ends it made due here, in order.
    package mutating func advance(to time: Timestamp) -> [SessionReport] {
        var reports: [SessionReport] = []
        advance(to: time, into: &reports)
        return reports
    }

    /// Moves the clock to `time` as ``advance(to:)`` does, appending the reports to `reports`.
    package mutating func advance(to time: Timestamp, into reports: inout [SessionReport]) {
        if frontier.map({ time > $0 }) ?? true { frontier = time }
        dueReports(into: &reports)
    }

    /// Hands over what every life has pending (its waiting records replayed: trace lines,
    /// points, rows made final), by latest record, then key, as a run that keeps its lives for
    /// the next one (`--state`) ends: so that the night's records are reported that night.
    /// The lives stay open, holding only their state machines and open rows.
    package mutating func handOverPending(_ body: (consuming SessionReport) -> Void) {
        for life in lives.values.sorted(by: { ($0.latest, $0.key) < ($1.latest, $1.key) }) {
            var report = SessionReport(key: life.key, closing: nil)
            life.takeOutputs(into: &report)
            life.takeFinalRows(into: &report)
            report.order = .end(latest: report.lastTimestamp ?? life.latest, key: life.key)
            body(report)
        }
    }

    /// A life as a state file keeps it (``openLives``): its state machines and open rows.
    package struct OpenLife: Encodable {
        let life: Life

        package func encode(to encoder: any Encoder) throws {
            try life.encodeState(to: encoder)
        }
    }

    /// The lives still open, by latest record, then key: what a later run goes on with. Call
    /// ``handOverPending(_:)`` first.
    package var openLives: [OpenLife] { Self.openLives(Array(lives.values)) }

    /// `lives` as a state file keeps them, by latest record, then key.
    static func openLives(_ lives: [Life]) -> [OpenLife] {
        lives.sorted { ($0.latest, $0.key) < ($1.latest, $1.key) }.map(OpenLife.init)
    }

    /// A life an earlier run left open (``OpenLife``), decoded with the engine's
    /// ``restoringContext`` in the decoder's `userInfo` under ``RestoredLife/contextKey``.
    package struct RestoredLife: Decodable {
        let life: Life

        /// Where the decoder's `userInfo` holds the engine's ``RestoringContext``.
        package static let contextKey: CodingUserInfoKey = {
            // `init?(rawValue:)` gives a key for every string.
            guard let key = CodingUserInfoKey(rawValue: "avt-replay.restoring") else { preconditionFailure() }
            return key
        }()

        package init(from decoder: any Decoder) throws {
            guard let context = decoder.userInfo[Self.contextKey] as? RestoringContext else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "no replay engine to restore a life into"))
            }
            life = try Life.restoring(from: decoder, options: context.options, actionCodes: context.actionCodes(for:))
        }
    }

    /// What restoring a life needs from the engines: their options (the components to make)
    /// and the table of actions of the engine that will replay the life's key.
    package final class RestoringContext {
        let options: SharedReplayOptions
        private let tables: [ActionCodes]
        private let partition: KeyPartition

        init(options: SharedReplayOptions, tables: [ActionCodes], partition: KeyPartition) {
            self.options = options
            self.tables = tables
            self.partition = partition
        }

        func actionCodes(for key: SessionKey) -> ActionCodes {
            tables[partition.engine(of: key)]
        }
    }

    /// What a decoder needs to restore lives into this engine (``RestoredLife``).
    package var restoringContext: RestoringContext {
        RestoringContext(options: sharedOptions, tables: [actionCodes], partition: KeyPartition(engines: 1))
    }

    /// Takes a life an earlier run left open (one of another shard is left out). Call
    /// ``resume(frontier:)`` after the last life.
    package mutating func restore(_ restored: RestoredLife) {
        guard shard.contains(restored.life.key) else { return }
        lives[restored.life.key] = restored.life
    }

    /// Sets the frontier an earlier run left, after ``restore(_:)``, and schedules every life.
    package mutating func resume(frontier: Timestamp?) {
        if let frontier, self.frontier.map({ frontier > $0 }) ?? true { self.frontier = frontier }
        for life in lives.values { schedule(life) }
    }

    /// The time of the earliest first record of a row still open, in any life: the buckets from
    /// that time on may still get rows.
    package var earliestOpenRow: Timestamp? {
        lives.values.compactMap(\.earliestOpenRow).min()
    }

    /// What is still open: the lives of each system, and their open rows (playbacks of
    /// instruments, sessions of apps, items of players).
    public struct OpenCounts: Equatable, Sendable {
        public var lives: [MetricSystem: Int] = [:]
        public var rows: [MetricSystem: Int] = [:]

        public init() {}
    }

    /// The lives still open and their open rows, counted (what a run with `--state` carries over).
    public var openCounts: OpenCounts {
        var counts = OpenCounts()
        for life in lives.values {
            let system = life.key.system
            counts.lives[system, default: 0] += 1
            counts.rows[system, default: 0] += life.openRowCount
        }
        return counts
    }

    /// Ends every life (the input ended) and returns their last reports, by latest record, then key.
    public mutating func finish() -> [SessionReport] {
        var reports: [SessionReport] = []
        finish { reports.append($0) }
        return reports
    }

    /// Ends every life (the input ended), handing each last report to `body` as it is made, by
    /// latest record, then key: the reports of all lives are never held at once.
    public mutating func finish(_ body: (consuming SessionReport) -> Void) {
        Self.end(takeLives(), body)
    }

    /// Takes every life out of the engine, with its deadlines.
    mutating func takeLives() -> [Life] {
        defer {
            lives = [:]
            deadlines = Heap()
        }
        return Array(lives.values)
    }

    /// Ends `lives` (of one engine, or of all the engines of a ``ReplayEngines``) as the
    /// input ends, by latest record, then key.
    static func end(_ lives: consuming [Life], _ body: (consuming SessionReport) -> Void) {
        var remaining = lives
        remaining.sort { ($0.latest, $0.key) > ($1.latest, $1.key) }
        while let life = remaining.popLast() {
            var report = life.end(.inputEnd)
            report.order = .end(latest: report.lastTimestamp ?? Timestamp(milliseconds: 0), key: life.key)
            body(report)
        }
    }

    /// Hands over the pending outputs of a life; an `active` one (not idle for ``flushDelay``)
    /// keeps the memory of its waiting records.
    private func flush(_ life: Life, order: SessionOrder, active: Bool) -> SessionReport {
        var report = SessionReport(key: life.key, closing: nil)
        life.takeOutputs(into: &report, keepingCapacity: active)
        report.order = order
        return report
    }

    /// Replays a life's waiting records, the one just taken last, and hands over the rows they
    /// made final at this record: in the report of the flush made at this record before it
    /// (``pendingLimit``), if any, among the reports after the first `ownReports` (those of
    /// the records before), or in one of their own (the trace lines and points stay
    /// pending, so that one second of a life's points is not split). So a row comes out at the
    /// record that ended it, whenever the life hands its other outputs over.
    private func handOverFinalRows(
        of life: Life, at place: StreamPlace, into reports: inout [SessionReport], after ownReports: Int
    ) {
        let order = SessionOrder.record(place, key: life.key)
        if let flush = reports[ownReports...].lastIndex(where: { $0.order == order }) {
            life.takeFinalRows(into: &reports[flush])
            return
        }
        var report = SessionReport(key: life.key, closing: nil)
        life.takeFinalRows(into: &report)
        guard !(report.playbacks.isEmpty && report.vpSessions.isEmpty && report.marconiItems.isEmpty) else { return }
        report.firstTimestamp = life.first
        report.lastTimestamp = life.latest
        report.order = order
        reports.append(report)
    }

    /// Ends the life of `key` when a record at `place` comes more than the idle gap after it
    /// (by the clock at its latest record) though the clock did not move there: the record
    /// starts a new life.
    private mutating func endIfIdle(_ key: SessionKey, at place: StreamPlace, into reports: inout [SessionReport]) {
        guard let index = lives.index(forKey: key), end(of: lives.values[index]) < place.time else { return }
        let life = lives.remove(at: index).value
        var report = life.end(.idleGap)
        report.order = .record(place, key: key)
        livesEndedByGap += 1
        reports.append(report)
    }

    /// The life's next deadline: a flush after ``flushDelay`` while outputs wait, its end
    /// after the idle gap (whichever comes first), counted from the clock at its latest record:
    /// its time, or its place's when it came late (one device's clock behind the others' is
    /// idle by the stream's clock, not its own).
    private func deadline(of life: Life) -> Timestamp {
        let delay = life.pendingCount > 0 ? min(Self.flushDelay, options.idleGap) : options.idleGap
        return Timestamp(milliseconds: life.clockAtLatest.milliseconds &+ delay)
    }

    /// When the idle gap ends the life: its deadline with no outputs waiting.
    private func end(of life: Life) -> Timestamp {
        Timestamp(milliseconds: life.clockAtLatest.milliseconds &+ options.idleGap)
    }

    /// Puts the life's deadline in the heap when it is earlier than the one there.
    private mutating func schedule(_ life: Life) {
        let due = deadline(of: life)
        guard due < life.scheduled else { return }
        life.scheduled = due
        deadlines.insert(Deadline(time: due, key: life.key))
    }

    /// The flushes and ends the frontier has passed, in deadline order.
    private mutating func dueReports(into reports: inout [SessionReport]) {
        guard let frontier else { return }
        while let next = deadlines.min, next.time < frontier {
            deadlines.removeMin()
            guard let index = lives.index(forKey: next.key) else { continue }
            let life = lives.values[index]
            guard life.scheduled == next.time else { continue }
            life.scheduled = Timestamp(milliseconds: .max)
            let due = deadline(of: life)
            if due > next.time {
                // The life had records since: its deadline moved, and it comes out again in order.
                schedule(life)
            } else if end(of: life) > next.time {
                reports.append(flush(life, order: .deadline(next.time, key: life.key), active: false))
                schedule(life)
            } else {
                lives.remove(at: index)
                var report = life.end(.idleGap)
                report.order = .deadline(next.time, key: life.key)
                livesEndedByGap += 1
                reports.append(report)
            }
        }
    }
}

/// When a life's next flush or end is due.
private struct Deadline: Comparable {
    var time: Timestamp
    var key: SessionKey

    static func < (lhs: Deadline, rhs: Deadline) -> Bool {
        (lhs.time, lhs.key) < (rhs.time, rhs.key)
    }
}
