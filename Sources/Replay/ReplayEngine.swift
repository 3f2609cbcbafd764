import EventModel
import HeapModule
import Marconi
import OpenAVT

/// Replays event-log records as they are read, with memory bounded by the sessions open at once.
///
/// Records are grouped into replay sessions by ``SessionKey`` (one instrument, app session or
/// Marconi player). The engine's clock is the watermark: the latest `ts` read so far. A
/// session closes when the watermark is more than the session timeout past its latest
/// record, or when the input ends; only then are its records sorted (by `ts`, ties in
/// ``SourcePosition`` order: line order in a file, then the file whose name sorts first) and
/// replayed through fresh state machines, so a record may arrive late, in the same file or a
/// later one, by anything up to the session timeout and still replay in order. A record that
/// arrives after its session closed starts a new session.
///
/// Sessions close in the order of their latest record, then ``SessionKey``, so the reports
/// do not depend on how the records of different sessions interleave in the input (as long
/// as none arrives later than the timeout). Ids are scoped with the time of the session's
/// first record, so a session that starts again gets new ones.
///
/// With a ``Shard`` other than ``Shard/all``, every record moves the watermark (so sessions
/// close exactly when they would in an unsharded run), but only the records of the shard's
/// sessions are kept and replayed.
public struct ReplayEngine {
    private let options: ReplayOptions
    /// The sessions this engine replays.
    public let shard: Shard
    /// Records added so far: closed sessions carry it as ``ClosedSession/sequence``.
    private var recordsAdded: Int64 = 0
    private var sessions: [SessionKey: PendingSession] = [:]
    private var closing = Heap<CloseCandidate>()
    /// The latest `ts` read so far.
    public private(set) var watermark: Timestamp?
    /// Sessions closed by the timeout so far.
    public private(set) var timedOutSessions = 0

    /// Creates an engine with no session open, that replays the sessions of `shard`.
    public init(options: ReplayOptions = ReplayOptions(), shard: Shard = .all) {
        self.options = options
        self.shard = shard
    }

    /// Adds a record read at `position`, and returns the sessions it closed, to be replayed
    /// (``ClosedSession/replay()``, on any thread) and written in this order.
    ///
    /// The record first moves the watermark, which may close sessions (its own included,
    /// when it comes more than the timeout after its session's latest record); then it joins
    /// its session, or starts a new one.
    public mutating func add(_ record: consuming Record, at position: SourcePosition) -> [ClosedSession] {
        let timestamp = record.timestamp
        if watermark.map({ timestamp > $0 }) ?? true {
            watermark = timestamp
        }
        recordsAdded += 1
        let closed = closeIdleSessions()
        insert(record, at: position)
        return closed
    }

    /// Puts back a record of a session an earlier run left open (``openSessionRecords``),
    /// without moving the watermark or closing anything; call ``resume(watermark:)`` after.
    /// A record of another shard's session is left out.
    public mutating func restore(_ record: consuming Record, at position: SourcePosition) {
        insert(record, at: position)
    }

    private mutating func insert(_ record: consuming Record, at position: SourcePosition) {
        let key = SessionKey(of: record)
        guard shard.contains(key) else { return }
        let timestamp = record.timestamp
        // The record is moved into its session, not copied.
        let isFirst = sessions[key, default: PendingSession()].add(record, at: position)
        if isFirst {
            closing.insert(CloseCandidate(latest: timestamp, key: key))
        }
    }

    /// Closes every open session (the input ended) and returns them, in closing order.
    public mutating func finish() -> [ClosedSession] {
        // Sessions are moved out, last to close first, so that their records are not copied.
        var remaining = Array(sessions)
        sessions = [:]
        closing = Heap()
        remaining.sort {
            CloseCandidate(latest: $1.value.latest, key: $1.key) < CloseCandidate(latest: $0.value.latest, key: $0.key)
        }
        var closed: [ClosedSession] = []
        closed.reserveCapacity(remaining.count)
        while let (key, session) = remaining.popLast() {
            closed.append(
                ClosedSession(key, consume session, closing: .inputEnd, sequence: recordsAdded + 1, options: options))
        }
        return closed
    }

    /// The records of the sessions still open, in the order ``finish()`` would close them,
    /// each session's in replay order: what a later run needs to go on where this one stopped.
    public var openSessionRecords: [(record: Record, position: SourcePosition)] {
        sessions.sorted {
            CloseCandidate(latest: $0.value.latest, key: $0.key) < CloseCandidate(latest: $1.value.latest, key: $1.key)
        }
        .flatMap { $0.value.ordered(instrument: $0.key.id) }
    }

    /// Sets the watermark, as a run that resumes an earlier one must after ``restore(_:at:)``.
    public mutating func resume(watermark: Timestamp) {
        if self.watermark.map({ watermark > $0 }) ?? true {
            self.watermark = watermark
        }
    }

    private mutating func closeIdleSessions() -> [ClosedSession] {
        guard let watermark else { return [] }
        var closed: [ClosedSession] = []
        while let candidate = closing.min,
            watermark.milliseconds(since: candidate.latest) > options.sessionTimeout
        {
            closing.removeMin()
            // Read in place: the dictionary's subscript copied the whole session (a retain and
            // a release of each of its buffers, by then out of the cache) to read its time.
            guard let position = sessions.index(forKey: candidate.key) else { continue }
            let latest = sessions.values[position].latest
            // The session had later records since its entry was made: it goes back in at its
            // latest, still before any session whose latest is later.
            guard latest == candidate.latest else {
                closing.insert(CloseCandidate(latest: latest, key: candidate.key))
                continue
            }
            // Moved out, so that its records are not copied.
            guard let session = sessions.removeValue(forKey: candidate.key) else { continue }
            timedOutSessions += 1
            closed.append(
                ClosedSession(
                    candidate.key, consume session, closing: .timeout, sequence: recordsAdded, options: options))
        }
        return closed
    }
}

/// The records of a session not closed yet, each with its position, in arrival order: an
/// instrument's in an ``AVTRecordLog``, the others as they are.
private struct PendingSession {
    var avtRecords = AVTRecordLog()
    var entries: [(record: Record, position: SourcePosition)] = []
    /// The earliest and the latest time of its records.
    var earliest = Timestamp(milliseconds: 0)
    var latest = Timestamp(milliseconds: 0)
    /// The position of the record added last.
    var lastPosition = SourcePosition(fileRank: 0, line: 0)
    /// Whether every record came after the one before in replay order.
    var inReplayOrder = true
    /// The highest tracker id of its OpenAVT records.
    var maxTracker = 0

    /// Room made for a session's first records with its first: grown from one, the array of
    /// a session of a hundred records was reallocated and copied seven times on the main
    /// thread, whose appends already miss the cache at 5M records (measured together with
    /// the one reading thread: 1M records 1.39 s -> 1.30 s).
    static let initialCapacity = 32

    /// How many records it has.
    var count: Int { avtRecords.count + entries.count }

    /// Adds a record; returns whether it is the session's first.
    mutating func add(_ record: consuming Record, at position: SourcePosition) -> Bool {
        let isFirst = count == 0
        let timestamp = record.timestamp
        if isFirst {
            (earliest, latest) = (timestamp, timestamp)
        } else if timestamp > latest {
            latest = timestamp
        } else {
            earliest = min(earliest, timestamp)
            if inReplayOrder, (timestamp, position) < (latest, lastPosition) { inReplayOrder = false }
        }
        lastPosition = position
        if case .avt(let avt) = record {
            maxTracker = max(maxTracker, avt.tracker)
            avtRecords.append(avt, at: position)
        } else {
            if isFirst { entries.reserveCapacity(Self.initialCapacity) }
            entries.append((record, position))
        }
        return isFirst
    }

    /// The records and their positions in replay order.
    func ordered(instrument: String) -> [(record: Record, position: SourcePosition)] {
        var ordered = replayOrder.map { entries[$0] }
        avtRecords.forEach(inReplayOrder: inReplayOrder) {
            ordered.append((.avt($0.record(instrument: instrument)), $0.position))
        }
        return ordered
    }

    /// The entries, last first in replay order: a replay takes them from the end. They are
    /// put in that order in place, moved rather than copied: entries that came in replay
    /// order, as most do, reversed, the others sorted (measured: copying them, a retain of
    /// each of their strings and buffers, was 3% of a replay's time at a million records,
    /// and at five million, where they are cold by then, the copies of the sorted ones alone
    /// were 2% of a worker's samples). The worker that replays the session does this, not
    /// the thread that routes records, which has the most work.
    consuming func entriesLastFirst() -> [(record: Record, position: SourcePosition)] {
        if inReplayOrder {
            entries.reverseByMoving()
        } else {
            entries.sort { ($0.record.timestamp, $0.position) > ($1.record.timestamp, $1.position) }
        }
        return entries
    }

    /// The indices of the entries in replay order: by time, ties by position.
    private var replayOrder: [Int] {
        guard !inReplayOrder else { return Array(entries.indices) }
        return entries.indices.sorted {
            (entries[$0].record.timestamp, entries[$0].position) < (entries[$1].record.timestamp, entries[$1].position)
        }
    }
}

/// A session that may close once the watermark is past its latest record. The heap keeps one
/// entry per open session, made with its first record; an entry that comes out older than
/// its session's latest record goes back in at that time (measured: an entry per record, as
/// there used to be, kept the heap as large as the records of the last timeout and was 5% of
/// a replay).
private struct CloseCandidate: Comparable {
    var latest: Timestamp
    var key: SessionKey

    static func < (lhs: CloseCandidate, rhs: CloseCandidate) -> Bool {
        (lhs.latest, lhs.key) < (rhs.latest, rhs.key)
    }
}

/// A session that closed, ready to be replayed.
///
/// Replaying is a pure function of the records and the options, so closed sessions can be
/// replayed on several threads; their reports are written in closing order.
public struct ClosedSession: Sendable {
    /// The instrument, app or player.
    public let key: SessionKey
    /// Why it closed.
    public let closing: SessionReport.Closing
    /// The records added to the engine when it closed (the one that closed it included), or
    /// one more than all of them when the input ended (``SessionReport/closeSequence``).
    public let sequence: Int64
    /// The records as they arrived, put in replay order by the worker that replays them.
    private var records: PendingSession
    /// How many records it has.
    public var recordCount: Int { records.count }
    private let options: ReplayOptions

    fileprivate init(
        _ key: SessionKey, _ session: consuming PendingSession, closing: SessionReport.Closing, sequence: Int64,
        options: ReplayOptions
    ) {
        self.key = key
        self.closing = closing
        self.sequence = sequence
        self.records = session
        self.options = options
    }

    /// Replays the session's records through fresh state machines.
    ///
    /// The session is consumed: each record is moved out of it and released once replayed,
    /// rather than copied out and released twice (measured: the copies' retains were 2% of a
    /// replay's time at a million records). Replay a batch with ``Swift/Array/replayed()``.
    public consuming func replay() -> SessionReport {
        var session = PendingSession()
        swap(&session, &records)
        let scope = String(session.earliest.milliseconds)
        var report = SessionReport(key: key, closing: closing)
        if session.count > 0 {
            report.firstTimestamp = session.earliest
            report.lastTimestamp = session.latest
        }
        report.closeSequence = sequence
        let (avtRecords, maxTracker) = (session.avtRecords, session.maxTracker)
        let inReplayOrder = session.inReplayOrder
        var pending = (consume session).entriesLastFirst()
        switch key.system {
        case .openavt:
            var replay = InstrumentReplay(id: key.id, scope: scope, maxTracker: maxTracker, options: options)
            avtRecords.forEach(inReplayOrder: inReplayOrder) { replay.replay($0) }
            replay.instrument.shutdown()
            report.playbacks = replay.summaries.map { summary in
                var summary = summary
                summary.timedOut = closing == .timeout && summary.endAction == nil
                return summary
            }
            report.trace = replay.trace
            report.points = replay.points
        case .vp:
            var replay = AppReplay(app: key.id, scope: scope, options: options)
            while let (record, _) = pending.popLast() {
                replay.replay(record)
            }
            report.vpSessions = replay.summaries().map { summary in
                var summary = summary
                summary.timedOut = closing == .timeout && summary.outcome == .open
                return summary
            }
            report.trace = replay.trace
            report.points = replay.points
        case .marconi:
            var replay = PlayerReplay(player: key.id, options: options)
            while let (record, _) = pending.popLast() {
                if case .marconi(let marconi) = consume record { replay.replay(marconi) }
            }
            report.trace = replay.trace
            (report.marconiItems, report.points) = replay.finish()
        }
        return report
    }
}

extension Array where Element == ClosedSession {
    /// Replays each session, in order (``ClosedSession/replay()``), consuming them.
    public consuming func replayed() -> [SessionReport] {
        reverse()
        var reports: [SessionReport] = []
        reports.reserveCapacity(count)
        while let session = popLast() {
            reports.append((consume session).replay())
        }
        return reports
    }
}
