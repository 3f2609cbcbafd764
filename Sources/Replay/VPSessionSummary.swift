import EventModel
import ValueProposition

/// One row of `vp_sessions.csv`: one value-proposition session (one session id).
public struct VPSessionSummary: Hashable, Sendable {
    /// How a session ended.
    public enum Outcome: String, Hashable, Sendable {
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
struct VPSessionRecorder {
    private var rows: [VPSessionSummary] = []
    private var index: [String: Int] = [:]
    /// The open sessions: their row, and the status they are in and since when. An app has a
    /// few open at once and an event's id is mostly the very string of its row's, so a scan
    /// finds one faster than hashing the id.
    private var open: [(row: Int, status: SessionStatus, since: Timestamp)] = []
    /// The row of the last event recorded, which ``row(of:)`` is asked for next.
    private var lastRow: Int?

    mutating func record(_ output: SessionOutput) {
        switch output {
        case .event(let event):
            let openPosition = open.firstIndex { rows[$0.row].sessionID == event.sessionID }
            let row: Int
            if let openPosition {
                row = open[openPosition].row
                rows[row].addTime(in: open[openPosition].status, from: open[openPosition].since, to: event.timestamp)
            } else if let known = index[event.sessionID] {
                row = known
            } else {
                row = rows.count
                index[event.sessionID] = row
                var summary = VPSessionSummary(
                    app: event.app, name: event.name, sessionID: event.sessionID,
                    attributes: event.valuePropositionAttributes,
                    openedTimestamp: event.timestamp)
                summary.restoredFrom = event.restoredFrom
                rows.append(summary)
            }
            lastRow = row
            if let openPosition {
                open[openPosition].status = event.status
                open[openPosition].since = event.timestamp
            } else {
                open.append((row, event.status, event.timestamp))
            }
            switch event.status {
            case .opened:
                break
            case .started:
                if rows[row].firstStartedTimestamp == nil { rows[row].firstStartedTimestamp = event.timestamp }
            case .paused:
                rows[row].pauses += 1
            case .completed, .canceled:
                rows[row].endTimestamp = event.timestamp
                rows[row].outcome = event.status == .completed ? .completed : .canceled
                rows[row].endTrigger = event.attribute(.trigger)?.string
                rows[row].duration = event.timestamp.milliseconds(since: rows[row].openedTimestamp)
                open.removeAll { $0.row == row }
            }
        case .error(let error):
            if let sessionID = error.sessionID, let row = row(of: sessionID) {
                rows[row].prohibitedChanges += 1
            }
        case .dropped(let dropped):
            guard let openPosition = open.firstIndex(where: { rows[$0.row].sessionID == dropped.sessionID }) else {
                return
            }
            let (row, status, since) = open.remove(at: openPosition)
            rows[row].addTime(in: status, from: since, to: dropped.timestamp)
            rows[row].endTimestamp = dropped.timestamp
            rows[row].outcome = .dropped
            rows[row].endTrigger = "didBecomeActive"
            rows[row].duration = dropped.timestamp.milliseconds(since: rows[row].openedTimestamp)
        }
    }

    /// The index of a session's row.
    func row(of sessionID: String) -> Int? {
        if let lastRow, rows[lastRow].sessionID == sessionID { return lastRow }
        return index[sessionID]
    }

    /// When a session's row opened: the time of its first event.
    func openedTimestamp(ofRow row: Int) -> Timestamp {
        rows[row].openedTimestamp
    }

    /// The rows, with the sessions still open counted up to the app's last record.
    func finish(lastRecord: Timestamp) -> [VPSessionSummary] {
        var finished = rows
        for (row, status, since) in open {
            finished[row].addTime(in: status, from: since, to: lastRecord)
            finished[row].duration = lastRecord.milliseconds(since: finished[row].openedTimestamp)
        }
        return finished
    }
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
