import EventModel
import ValueProposition

/// One row of `vp_sessions.csv`: one value-proposition session (one session id).
public struct VPSessionSummary: Hashable, Sendable {
    /// How a session ended.
    public enum Outcome: String, Hashable, Sendable, Codable {
        case completed
        case canceled
        /// The log ended first.
        case open
        /// Open when the app came back to the foreground and not among the sessions restored:
        /// Tentacles drops it without an event.
        case dropped
    }

    public var app: String
    public var name: String
    public var sessionID: String
    /// The identifying attributes.
    public var attributes: Attributes
    /// The first `opened`.
    public var openedTimestamp: Timestamp
    /// The time of the `complete`, `cancel`, `willResignActive` or the `didBecomeActive` that
    /// dropped it; `nil` while open.
    public var endTimestamp: Timestamp?
    public var outcome: Outcome = .open
    /// The trigger of the event that ended it.
    public var endTrigger: String?
    /// The first `started`.
    public var firstStartedTimestamp: Timestamp?
    /// Milliseconds spent started.
    public var activeTime: Int64 = 0
    /// Milliseconds spent paused.
    public var pausedTime: Int64 = 0
    /// Entries into paused, a restore into paused included.
    public var pauses: Int64 = 0
    /// Prohibited status changes asked of this session.
    public var prohibitedChanges: Int64 = 0
    /// For a session restored after the app came back, the id it had before.
    public var restoredFrom: String?
    /// (`endTimestamp`, or the app's last record) − `openedTimestamp`.
    public var duration: Int64 = 0
    /// Whether the session was still open when its app session's life ended by the idle gap.
    public var timedOut = false

    /// `firstStartedTimestamp` − `openedTimestamp`, or `nil` if it never started.
    public var timeToStart: Int64? {
        firstStartedTimestamp.map { $0.milliseconds(since: openedTimestamp) }
    }

    public init(app: String, name: String, sessionID: String, attributes: Attributes, openedTimestamp: Timestamp) {
        self.app = app
        self.name = name
        self.sessionID = sessionID
        self.attributes = attributes
        self.openedTimestamp = openedTimestamp
    }
}

/// Builds the ``VPSessionSummary`` rows of one app from the session manager's outputs, in replay order.
///
/// A row is *final* when its session completes, is canceled (by `cancel` or
/// `willResignActive`) or is dropped by `didBecomeActive`: Tentacles forgets the session
/// then, and no later output names it. The recorder keeps only the open rows; final rows wait
/// in ``takeFinalRows()``. Rows are numbered per app-session life, from 0 in the order they
/// opened: points name their row by that number (``MetricPoint/rowIndex``).
struct VPSessionRecorder {
    /// The open sessions: their row's number, the row, and the status it is in and since when.
    /// An app has a few open at once and an event's id is mostly the very string of its row's,
    /// so a scan finds one faster than hashing the id.
    private var open: [OpenRow] = []
    /// The rows made final and not taken yet, with their numbers.
    private var final: [(row: Int, summary: VPSessionSummary)] = []
    /// The number the next row gets.
    private var nextRow = 0

    private struct OpenRow {
        var row: Int
        var summary: VPSessionSummary
        var status: SessionStatus
        var since: Timestamp
    }

    mutating func record(_ output: SessionOutput) {
        switch output {
        case .event(let event):
            let position: Int
            if let known = open.firstIndex(where: { $0.summary.sessionID == event.sessionID }) {
                position = known
                open[position].summary.addTime(
                    in: open[position].status, from: open[position].since, to: event.timestamp)
                open[position].status = event.status
                open[position].since = event.timestamp
            } else {
                var summary = VPSessionSummary(
                    app: event.app, name: event.name, sessionID: event.sessionID,
                    attributes: event.valuePropositionAttributes, openedTimestamp: event.timestamp)
                summary.restoredFrom = event.restoredFrom
                open.append(OpenRow(row: nextRow, summary: summary, status: event.status, since: event.timestamp))
                nextRow += 1
                position = open.count - 1
            }
            switch event.status {
            case .opened:
                break
            case .started:
                if open[position].summary.firstStartedTimestamp == nil {
                    open[position].summary.firstStartedTimestamp = event.timestamp
                }
            case .paused:
                open[position].summary.pauses += 1
            case .completed, .canceled:
                var ended = open.remove(at: position)
                ended.summary.endTimestamp = event.timestamp
                ended.summary.outcome = event.status == .completed ? .completed : .canceled
                ended.summary.endTrigger = event.attribute(.trigger)?.string
                ended.summary.duration = event.timestamp.milliseconds(since: ended.summary.openedTimestamp)
                final.append((ended.row, ended.summary))
            }
        case .error(let error):
            if let sessionID = error.sessionID,
                let position = open.firstIndex(where: { $0.summary.sessionID == sessionID })
            {
                open[position].summary.prohibitedChanges += 1
            }
        case .dropped(let dropped):
            guard let position = open.firstIndex(where: { $0.summary.sessionID == dropped.sessionID }) else { return }
            var ended = open.remove(at: position)
            ended.summary.addTime(in: ended.status, from: ended.since, to: dropped.timestamp)
            ended.summary.endTimestamp = dropped.timestamp
            ended.summary.outcome = .dropped
            ended.summary.endTrigger = "didBecomeActive"
            ended.summary.duration = dropped.timestamp.milliseconds(since: ended.summary.openedTimestamp)
            final.append((ended.row, ended.summary))
        }
    }

    /// The number of a session's row, open or made final by the output just recorded.
    func row(of sessionID: String) -> Int? {
        if let position = open.firstIndex(where: { $0.summary.sessionID == sessionID }) { return open[position].row }
        return final.last { $0.summary.sessionID == sessionID }?.row
    }

    /// When a session's row opened: the time of its first event.
    func openedTimestamp(ofRow row: Int) -> Timestamp? {
        open.first { $0.row == row }?.summary.openedTimestamp ?? final.last { $0.row == row }?.summary.openedTimestamp
    }

    /// Takes the rows made final since the last call, in the order they ended, with their numbers.
    mutating func takeFinalRows() -> [(row: Int, summary: VPSessionSummary)] {
        defer { final = [] }
        return final
    }

    /// The rows still open, counted up to the app's last record, in the order they opened.
    func openRows(lastRecord: Timestamp) -> [(row: Int, summary: VPSessionSummary)] {
        open.map { entry in
            var summary = entry.summary
            summary.addTime(in: entry.status, from: entry.since, to: lastRecord)
            summary.duration = lastRecord.milliseconds(since: summary.openedTimestamp)
            return (entry.row, summary)
        }
    }

    /// The time of the earliest open row's first event.
    var earliestOpenRow: Timestamp? { open.map(\.summary.openedTimestamp).min() }
}

extension VPSessionSummary {
    fileprivate mutating func addTime(in status: SessionStatus, from start: Timestamp, to end: Timestamp) {
        switch status {
        case .started: activeTime += end.milliseconds(since: start)
        case .paused: pausedTime += end.milliseconds(since: start)
        default: break
        }
    }
}

extension VPSessionSummary: Codable {
    /// Short keys (a `--state` file holds every open session of a night); values still at
    /// their default are left out.
    private enum CodingKeys: String, CodingKey {
        case app = "a", name = "n", sessionID = "i", attributes = "at", openedTimestamp = "o"
        case endTimestamp = "e", outcome = "oc", endTrigger = "et", firstStartedTimestamp = "fs"
        case activeTime = "ac", pausedTime = "pt", pauses = "p", prohibitedChanges = "pc"
        case restoredFrom = "r", duration = "d", timedOut = "to"
    }

    public init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            app: try row.decode(String.self, forKey: .app), name: try row.decode(String.self, forKey: .name),
            sessionID: try row.decode(String.self, forKey: .sessionID),
            attributes: try row.decodeIfPresent(SortedAttributes.self, forKey: .attributes)?.attributes ?? [:],
            openedTimestamp: try row.decode(Timestamp.self, forKey: .openedTimestamp))
        endTimestamp = try row.decodeIfPresent(Timestamp.self, forKey: .endTimestamp)
        outcome = try row.decodeIfPresent(Outcome.self, forKey: .outcome) ?? .open
        endTrigger = try row.decodeIfPresent(String.self, forKey: .endTrigger)
        firstStartedTimestamp = try row.decodeIfPresent(Timestamp.self, forKey: .firstStartedTimestamp)
        activeTime = try row.decode(Int64.self, orZeroFor: .activeTime)
        pausedTime = try row.decode(Int64.self, orZeroFor: .pausedTime)
        pauses = try row.decode(Int64.self, orZeroFor: .pauses)
        prohibitedChanges = try row.decode(Int64.self, orZeroFor: .prohibitedChanges)
        restoredFrom = try row.decodeIfPresent(String.self, forKey: .restoredFrom)
        duration = try row.decode(Int64.self, orZeroFor: .duration)
        timedOut = try row.decode(Bool.self, orFalseFor: .timedOut)
    }

    public func encode(to encoder: any Encoder) throws {
        var row = encoder.container(keyedBy: CodingKeys.self)
        try row.encode(app, forKey: .app)
        try row.encode(name, forKey: .name)
        try row.encode(sessionID, forKey: .sessionID)
        if !attributes.isEmpty { try row.encode(SortedAttributes(attributes), forKey: .attributes) }
        try row.encode(openedTimestamp, forKey: .openedTimestamp)
        try row.encodeIfPresent(endTimestamp, forKey: .endTimestamp)
        if outcome != .open { try row.encode(outcome, forKey: .outcome) }
        try row.encodeIfPresent(endTrigger, forKey: .endTrigger)
        try row.encodeIfPresent(firstStartedTimestamp, forKey: .firstStartedTimestamp)
        try row.encode(activeTime, ifNotZeroFor: .activeTime)
        try row.encode(pausedTime, ifNotZeroFor: .pausedTime)
        try row.encode(pauses, ifNotZeroFor: .pauses)
        try row.encode(prohibitedChanges, ifNotZeroFor: .prohibitedChanges)
        try row.encodeIfPresent(restoredFrom, forKey: .restoredFrom)
        try row.encode(duration, ifNotZeroFor: .duration)
        try row.encode(timedOut, ifTrueFor: .timedOut)
    }
}

extension VPSessionRecorder {
    /// Keys of the recorder's state: its open rows (`o`: `[row, summary, status, since]` each)
    /// and the next row's number (`n`). Final rows were handed over before a state is saved.
    private enum CodingKeys: String, CodingKey {
        case open = "o", nextRow = "n"
    }

    private struct SavedRow: Codable {
        var row: Int
        var summary: VPSessionSummary
        var status: SessionStatus
        var since: Timestamp

        init(_ open: OpenRow) {
            (row, summary, status, since) = (open.row, open.summary, open.status, open.since)
        }

        init(from decoder: any Decoder) throws {
            var fields = try decoder.unkeyedContainer()
            row = try fields.decode(Int.self)
            summary = try fields.decode(VPSessionSummary.self)
            status = try fields.decode(SessionStatus.self)
            since = try fields.decode(Timestamp.self)
        }

        func encode(to encoder: any Encoder) throws {
            var fields = encoder.unkeyedContainer()
            try fields.encode(row)
            try fields.encode(summary)
            try fields.encode(status)
            try fields.encode(since)
        }
    }

    func encodeState(to encoder: any Encoder) throws {
        var state = encoder.container(keyedBy: CodingKeys.self)
        if !open.isEmpty { try state.encode(open.map(SavedRow.init), forKey: .open) }
        try state.encode(nextRow, forKey: .nextRow)
    }

    init(fromState decoder: any Decoder) throws {
        let state = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        open = (try state.decodeIfPresent([SavedRow].self, forKey: .open) ?? []).map {
            OpenRow(row: $0.row, summary: $0.summary, status: $0.status, since: $0.since)
        }
        nextRow = try state.decode(Int.self, forKey: .nextRow)
    }
}
