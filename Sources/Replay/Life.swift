import EventModel
import Marconi
import OpenAVT

/// The trace lines and metric points a live replay produced and has not handed over yet.
struct LifeOutputs {
    var trace: [TraceLine] = []
    var points: [MetricPoint] = []

    var count: Int { trace.count + points.count }
}

/// One life of an instrument, app session or Marconi player (a class: the engine's table and
/// heap refer to it, and it changes in place): its state machines, fed its
/// records as they come, from its first record until it is forgotten after the idle gap or
/// the input ends.
///
/// A life holds no records but those waiting for its next burst: its state machines, the
/// rows they are building (only the open ones: a row made final is handed over at the record
/// that made it so, see ``takeFinalRows(into:)``), the outputs not handed over yet, and with
/// `--group-by` its open rows' metrics aggregated by bucket.
///
/// Each system's life is a subclass that holds its state machines in place, with the records
/// waiting for them: ``InstrumentLife``, ``AppLife``, ``PlayerLife``. A life replays its records
/// in bursts, when it hands its outputs over, so that its state machines stay in the cache for
/// all of them.
class Life {
    let key: SessionKey
    /// The time of the first record.
    let first: Timestamp
    /// The time of the latest record.
    private(set) var latest: Timestamp
    /// The trace lines and points not handed over yet.
    fileprivate var outputs = LifeOutputs()
    /// How many records wait to be replayed (kept as a number: the subclasses' waiting records
    /// keep their count away from the life).
    private var waitingCount = 0
    /// The replay's clock when the latest record was replayed: its time in the stream, later
    /// than ``latest`` when the record came late. The life's deadlines count from it.
    var clockAtLatest: Timestamp
    /// The deadline of the life's newest entry in the engine's heap.
    var scheduled = Timestamp(milliseconds: .max)
    /// With `--group-by`, the metrics of each open row by its number, aggregated by bucket,
    /// system and name (the group is known when the row is final).
    private var rowAggregates: [Int: [MetricAggregates.Key: MetricAggregates.Aggregate]] = [:]
    /// How many of ``outputs``' points are in ``rowAggregates`` already.
    private var aggregatedPoints = 0
    /// Whether `--group-by` is given: read for every burst, apart from the options.
    private let groupsRows: Bool
    fileprivate let options: SharedReplayOptions

    /// The life of `key` starting at `first`, of its system's kind; its ids are scoped with
    /// `first`'s milliseconds, so that a later life of the same key gets other ids. An
    /// instrument's waiting records number their actions with `actionCodes`.
    static func starting(
        key: SessionKey, first: Timestamp, options: SharedReplayOptions, actionCodes: ActionCodes
    ) -> Life {
        let scope = String(first.milliseconds)
        switch key.system {
        case .openavt:
            return InstrumentLife(key: key, first: first, scope: scope, options: options, actionCodes: actionCodes)
        case .vp: return AppLife(key: key, first: first, scope: scope, options: options)
        case .marconi: return PlayerLife(key: key, first: first, options: options)
        }
    }

    fileprivate init(key: SessionKey, first: Timestamp, options: SharedReplayOptions) {
        self.key = key
        self.first = first
        self.latest = first
        clockAtLatest = first
        self.options = options
        groupsRows = !options.options.groupBy.keys.isEmpty
    }

    /// Keeps a record until the next burst (each subclass keeps its system's records).
    fileprivate func wait(_ record: consuming Record) {}

    /// Replays the waiting records into ``outputs``, in the order they came; an active life
    /// keeps the memory they took for its next ones (`keepingCapacity`).
    fileprivate func replayBurst(keepingCapacity: Bool) {}

    /// Moves the rows made final since the last call into `report`, with their groups by number.
    fileprivate func moveFinalRows(into report: inout SessionReport) -> [(row: Int, group: [String])] { [] }

    /// Puts the rows still open in the life's last report, with their groups by number, and
    /// the points they give at the end.
    fileprivate func endRows(
        _ closing: SessionReport.Closing, into report: inout SessionReport
    ) -> [(row: Int, group: [String])] { [] }

    /// Writes the state of the life's state machines (its system's replay).
    fileprivate func encodeReplay(to encoder: any Encoder) throws {}

    /// How many rows are still open, once the waiting records are replayed.
    var openRowCount: Int {
        replayWaiting()
        return countOpenRows()
    }

    fileprivate func countOpenRows() -> Int { 0 }

    /// The time of the earliest open row's first record, once the waiting records are replayed.
    var earliestOpenRow: Timestamp? {
        replayWaiting()
        return earliestOpenRowStart()
    }

    fileprivate func earliestOpenRowStart() -> Timestamp? { nil }

    /// Whether a record may make rows final: an OpenAVT `End`, `Stop` or `Next`, a
    /// value-proposition `complete` or `cancel`, an app lifecycle event, any Marconi record.
    /// The engine replays such a record at once and hands the rows over with it.
    static func mayEndRows(_ record: borrowing Record) -> Bool {
        switch record {
        case .avt(let record):
            // The standard actions' raw values, literals: the static `Action`s are globals
            // made on first use, each read a call (`swift_once`) on every record.
            let action = record.action
            return action == Action.Standard.end.rawValue || action == Action.Standard.stop.rawValue
                || action == Action.Standard.next.rawValue
        case .vp(let record): return record.action == .complete || record.action == .cancel
        case .app, .marconi: return true
        }
    }

    /// How many records and outputs wait to be replayed or handed over.
    var pendingCount: Int { waitingCount + outputCount }
    /// How many outputs wait to be handed over, as of the last burst.
    private var outputCount = 0

    /// Takes one record of the life, no earlier than ``latest``, to be replayed with the
    /// others that wait when the life next hands its outputs over.
    func take(_ record: consuming Record) {
        latest = max(latest, record.timestamp)
        waitingCount += 1
        wait(record)
    }

    /// Replays the records that wait, in the order they came; an active life keeps the
    /// memory they took for its next ones (`keepingCapacity`).
    private func replayWaiting(keepingCapacity: Bool = false) {
        guard waitingCount > 0 else {
            // Replayed already (a record that may end rows is replayed at once): an idle life
            // still gives back the memory its waiting records took.
            if !keepingCapacity { replayBurst(keepingCapacity: false) }
            return
        }
        // Most records give a point: room for them all, made once rather than grown.
        outputs.points.reserveCapacity(outputs.points.count + waitingCount)
        replayBurst(keepingCapacity: keepingCapacity)
        waitingCount = 0
        aggregateRowPoints(outputs.points[aggregatedPoints...])
        aggregatedPoints = outputs.points.count
        outputCount = outputs.count
    }

    /// Hands over the outputs produced since the last hand-over; an active life keeps the memory
    /// of its waiting records for its next ones (`keepingCapacity`).
    func takeOutputs(into report: inout SessionReport, keepingCapacity: Bool = false) {
        replayWaiting(keepingCapacity: keepingCapacity)
        var taken = LifeOutputs()
        swap(&taken, &outputs)
        outputCount = 0
        aggregatedPoints = 0
        report.trace = taken.trace
        report.points = taken.points
        report.firstTimestamp = first
        report.lastTimestamp = latest
    }

    /// With `--group-by`, adds the points that belong to a row to the row's aggregates.
    private func aggregateRowPoints(_ points: ArraySlice<MetricPoint>) {
        guard groupsRows else { return }
        for point in points {
            guard let row = point.rowIndex, let value = MetricAggregates.value(of: point.metric) else { continue }
            let key = MetricAggregates.Key(
                bucket: point.metric.timestamp.bucketStart(length: options.options.bucket), system: point.system,
                name: point.metric.name)
            rowAggregates[row, default: [:]][key, default: MetricAggregates.Aggregate()].add(value)
        }
    }

    /// Replays the waiting records and hands over the rows they made final, with their
    /// aggregates by group (the trace lines and points stay pending).
    func takeFinalRows(into report: inout SessionReport) {
        replayWaiting(keepingCapacity: true)
        addGroups(moveFinalRows(into: &report), into: &report)
    }

    /// With `--group-by`, moves the aggregates of rows now final into the report, by their groups.
    private func addGroups(_ rows: [(row: Int, group: [String])], into report: inout SessionReport) {
        guard groupsRows else { return }
        for (row, group) in rows {
            guard let aggregates = rowAggregates.removeValue(forKey: row) else { continue }
            for (var rowKey, aggregate) in aggregates {
                rowKey.group = group
                report.rowAggregates[rowKey, default: MetricAggregates.Aggregate()].merge(aggregate)
            }
        }
    }

    /// Ends the life: its last outputs, its rows, and its rows' aggregates by group.
    func end(_ closing: SessionReport.Closing) -> SessionReport {
        var report = SessionReport(key: key, closing: closing)
        takeOutputs(into: &report)
        addGroups(moveFinalRows(into: &report), into: &report)
        let handedOver = report.points.count
        let rows = endRows(closing, into: &report)
        aggregateRowPoints(report.points[handedOver...])
        addGroups(rows, into: &report)
        // Points of a row no report has (none with OpenAVT's hubs): grouped as the life's.
        let fallback = options.options.groupBy.values(ofUnownedPointFrom: key.system, source: key.id)
        for aggregates in rowAggregates.values {
            for (var rowKey, aggregate) in aggregates {
                rowKey.group = fallback
                report.rowAggregates[rowKey, default: MetricAggregates.Aggregate()].merge(aggregate)
            }
        }
        rowAggregates = [:]
        return report
    }
}

/// The life of an OpenAVT instrument: the instrument, its hub, metricalc and trackers, and the
/// records that wait back to back in one buffer (``WaitingAVTRecords``).
final class InstrumentLife: Life {
    private var replay: InstrumentReplay
    private var waiting = WaitingAVTRecords()
    private let actionCodes: ActionCodes

    fileprivate init(
        key: SessionKey, first: Timestamp, scope: String, options: SharedReplayOptions, actionCodes: ActionCodes
    ) {
        replay = InstrumentReplay(id: key.id, scope: scope, options: options.options)
        self.actionCodes = actionCodes
        super.init(key: key, first: first, options: options)
    }

    fileprivate init(
        restoring decoder: any Decoder, key: SessionKey, first: Timestamp, options: SharedReplayOptions,
        actionCodes: ActionCodes
    ) throws {
        replay = try InstrumentReplay(
            restoring: decoder, id: key.id, scope: String(first.milliseconds), options: options.options)
        self.actionCodes = actionCodes
        super.init(key: key, first: first, options: options)
    }

    override fileprivate func encodeReplay(to encoder: any Encoder) throws {
        try replay.encodeState(to: encoder)
    }

    override fileprivate func wait(_ record: consuming Record) {
        guard case .avt(let record) = consume record else { return }
        waiting.append(record, codes: actionCodes)
    }

    override fileprivate func replayBurst(keepingCapacity: Bool) {
        waiting.drain(keepingCapacity: keepingCapacity) { replay.replay($0, into: &outputs) }
        if !keepingCapacity { replay.dropReusables() }
    }

    override fileprivate func moveFinalRows(into report: inout SessionReport) -> [(row: Int, group: [String])] {
        let rows = replay.takeFinalRows()
        report.playbacks += rows.map(\.summary)
        return rows.map { ($0.row, options.options.groupBy.values(of: $0.summary)) }
    }

    override fileprivate func countOpenRows() -> Int { replay.openRows.count }

    override fileprivate func earliestOpenRowStart() -> Timestamp? { replay.earliestOpenRow }

    override fileprivate func endRows(
        _ closing: SessionReport.Closing, into report: inout SessionReport
    ) -> [(row: Int, group: [String])] {
        replay.instrument.shutdown()
        let rows = replay.openRows.map { row, summary in
            var summary = summary
            summary.timedOut = closing == .idleGap && summary.endAction == nil
            return (row: row, summary: summary)
        }
        report.playbacks += rows.map(\.summary)
        return rows.map { ($0.row, options.options.groupBy.values(of: $0.summary)) }
    }
}

/// The life of an app session: Tentacles' session manager and the records that wait.
final class AppLife: Life {
    private var replay: AppReplay
    private var waiting = WaitingRecords<Record>()

    fileprivate init(key: SessionKey, first: Timestamp, scope: String, options: SharedReplayOptions) {
        replay = AppReplay(app: key.id, scope: scope, options: options)
        super.init(key: key, first: first, options: options)
    }

    fileprivate init(restoring decoder: any Decoder, key: SessionKey, first: Timestamp, options: SharedReplayOptions)
        throws
    {
        replay = try AppReplay(restoring: decoder, options: options)
        super.init(key: key, first: first, options: options)
    }

    override fileprivate func encodeReplay(to encoder: any Encoder) throws {
        try replay.encodeState(to: encoder)
    }

    override fileprivate func wait(_ record: consuming Record) {
        waiting.append(record)
    }

    override fileprivate func replayBurst(keepingCapacity: Bool) {
        waiting.drain(keepingCapacity: keepingCapacity) { replay.replay($0, into: &outputs) }
        if !keepingCapacity { replay.dropReusables() }
    }

    override fileprivate func moveFinalRows(into report: inout SessionReport) -> [(row: Int, group: [String])] {
        let rows = replay.takeFinalRows()
        report.vpSessions += rows.map(\.summary)
        return rows.map { ($0.row, options.options.groupBy.values(of: $0.summary)) }
    }

    override fileprivate func countOpenRows() -> Int { replay.openRows().count }

    override fileprivate func earliestOpenRowStart() -> Timestamp? { replay.earliestOpenRow }

    override fileprivate func endRows(
        _ closing: SessionReport.Closing, into report: inout SessionReport
    ) -> [(row: Int, group: [String])] {
        let rows = replay.openRows().map { row, summary in
            var summary = summary
            summary.timedOut = closing == .idleGap && summary.outcome == .open
            return (row: row, summary: summary)
        }
        report.vpSessions += rows.map(\.summary)
        return rows.map { ($0.row, options.options.groupBy.values(of: $0.summary)) }
    }
}

/// The life of a Marconi player: its state machine and the records that wait.
final class PlayerLife: Life {
    private var replay: PlayerReplay
    private var waiting = WaitingRecords<MarconiRecord>()

    override fileprivate init(key: SessionKey, first: Timestamp, options: SharedReplayOptions) {
        replay = PlayerReplay(player: key.id, options: options.options)
        super.init(key: key, first: first, options: options)
    }

    fileprivate init(restoring decoder: any Decoder, key: SessionKey, first: Timestamp, options: SharedReplayOptions)
        throws
    {
        replay = try PlayerReplay(restoring: decoder, options: options.options)
        super.init(key: key, first: first, options: options)
    }

    override fileprivate func encodeReplay(to encoder: any Encoder) throws {
        try replay.encodeState(to: encoder)
    }

    override fileprivate func wait(_ record: consuming Record) {
        guard case .marconi(let record) = consume record else { return }
        waiting.append(record)
    }

    override fileprivate func replayBurst(keepingCapacity: Bool) {
        waiting.drain(keepingCapacity: keepingCapacity) { replay.replay($0, into: &outputs) }
    }

    override fileprivate func moveFinalRows(into report: inout SessionReport) -> [(row: Int, group: [String])] {
        let rows = replay.takeFinalRows()
        report.marconiItems += rows.map(\.summary)
        return rows.map { ($0.row, options.options.groupBy.values(of: $0.summary)) }
    }

    override fileprivate func countOpenRows() -> Int { replay.earliestOpenRow == nil ? 0 : 1 }

    override fileprivate func earliestOpenRowStart() -> Timestamp? { replay.earliestOpenRow }

    override fileprivate func endRows(
        _ closing: SessionReport.Closing, into report: inout SessionReport
    ) -> [(row: Int, group: [String])] {
        let (rows, points) = replay.finish()
        report.marconiItems += rows.map(\.summary)
        report.points += points
        return rows.map { ($0.row, options.options.groupBy.values(of: $0.summary)) }
    }
}

// MARK: State

extension Life {
    /// Keys of a life's state: its key (`k` system, `i` id), its first and latest records' times
    /// (`f`, `l`), the clock at its latest record when later than that (`c`, it came late), its
    /// system's state machines (`s`) and, with `--group-by`, its open rows' aggregates (`g`).
    /// What it had pending was handed over before (``ReplayEngine/handOverPending(_:)``).
    private enum StateKeys: String, CodingKey {
        case system = "k", id = "i", first = "f", latest = "l", clock = "c", replay = "s", aggregates = "g"
    }

    /// Writes the life's state: its state machines and the rows they are building, never its records.
    func encodeState(to encoder: any Encoder) throws {
        var state = encoder.container(keyedBy: StateKeys.self)
        try state.encode(key.system, forKey: .system)
        try state.encode(key.id, forKey: .id)
        try state.encode(first, forKey: .first)
        try state.encode(latest, forKey: .latest)
        if clockAtLatest > latest { try state.encode(clockAtLatest, forKey: .clock) }
        try encodeReplay(to: state.superEncoder(forKey: .replay))
        if !rowAggregates.isEmpty { try state.encode(SavedRowAggregates(rowAggregates), forKey: .aggregates) }
    }

    /// A life as ``encodeState(to:)`` wrote it, its state machines made with the options'
    /// components and given their state.
    static func restoring(
        from decoder: any Decoder, options: SharedReplayOptions, actionCodes: (SessionKey) -> ActionCodes
    ) throws -> Life {
        let state = try decoder.container(keyedBy: StateKeys.self)
        let key = SessionKey(
            system: try state.decode(MetricSystem.self, forKey: .system), id: try state.decode(String.self, forKey: .id)
        )
        let first = try state.decode(Timestamp.self, forKey: .first)
        let replay = try state.superDecoder(forKey: .replay)
        let life: Life =
            switch key.system {
            case .openavt:
                try InstrumentLife(
                    restoring: replay, key: key, first: first, options: options, actionCodes: actionCodes(key))
            case .vp: try AppLife(restoring: replay, key: key, first: first, options: options)
            case .marconi: try PlayerLife(restoring: replay, key: key, first: first, options: options)
            }
        life.latest = try state.decode(Timestamp.self, forKey: .latest)
        life.clockAtLatest = max(life.latest, try state.decodeIfPresent(Timestamp.self, forKey: .clock) ?? life.latest)
        life.rowAggregates = try state.decodeIfPresent(SavedRowAggregates.self, forKey: .aggregates)?.aggregates ?? [:]
        return life
    }
}

/// Open rows' aggregates as a state file keeps them: `[[row, [[bucket, system, name, aggregate], …]], …]`,
/// rows and keys in order.
private struct SavedRowAggregates: Codable {
    var aggregates: [Int: [MetricAggregates.Key: MetricAggregates.Aggregate]]

    init(_ aggregates: [Int: [MetricAggregates.Key: MetricAggregates.Aggregate]]) {
        self.aggregates = aggregates
    }

    init(from decoder: any Decoder) throws {
        aggregates = [:]
        var rows = try decoder.unkeyedContainer()
        while !rows.isAtEnd {
            var row = try rows.nestedUnkeyedContainer()
            let number = try row.decode(Int.self)
            var keys = try row.nestedUnkeyedContainer()
            var byKey: [MetricAggregates.Key: MetricAggregates.Aggregate] = [:]
            while !keys.isAtEnd {
                var entry = try keys.nestedUnkeyedContainer()
                let key = MetricAggregates.Key(
                    bucket: try entry.decode(Timestamp.self), system: try entry.decode(MetricSystem.self),
                    name: try entry.decode(String.self))
                byKey[key] = try entry.decode(MetricAggregates.Aggregate.self)
            }
            aggregates[number] = byKey
        }
    }

    func encode(to encoder: any Encoder) throws {
        var rows = encoder.unkeyedContainer()
        for (number, byKey) in aggregates.sorted(by: { $0.key < $1.key }) {
            var row = rows.nestedUnkeyedContainer()
            try row.encode(number)
            var keys = row.nestedUnkeyedContainer()
            for (key, aggregate) in byKey.sorted(by: { $0.key < $1.key }) {
                var entry = keys.nestedUnkeyedContainer()
                try entry.encode(key.bucket)
                try entry.encode(key.system)
                try entry.encode(key.name)
                try entry.encode(aggregate)
            }
        }
    }
}
