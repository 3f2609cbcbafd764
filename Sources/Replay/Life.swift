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
/// A life holds no records (but with ``ReplayOptions/keepsRecords``, for `--state`): its
/// state machines, the rows they are building, the outputs not handed over yet, and with
/// `--group-by` its rows' metrics aggregated by bucket.
final class Life {
    let key: SessionKey
    /// The state machines, by the key's system.
    private var machines: Machines

    /// One system's state machines: one of them, not room for all three, in every life.
    private enum Machines {
        case instrument(InstrumentReplay)
        case app(AppReplay)
        case player(PlayerReplay)
        /// While a burst of records is replayed (``replayWaiting()``), the machines are out.
        case outForReplay
    }
    /// The time of the first record.
    let first: Timestamp
    /// The time of the latest record.
    private(set) var latest: Timestamp
    /// The trace lines and points not handed over yet.
    private var outputs = LifeOutputs()
    /// Records taken but not replayed yet: a life replays its records in bursts, when it hands
    /// its outputs over, so that its state machines stay in the cache for all of them. An
    /// instrument's lie back to back in one buffer (``WaitingAVTRecords``), a player's are kept
    /// as their payloads.
    private var waitingAVT = WaitingAVTRecords()
    private var waitingMarconi: [MarconiRecord] = []
    private var waitingApp: [Record] = []

    /// How many records wait to be replayed (kept as a number: the arrays' counts are in
    /// their buffers, away from the life).
    private var waitingCount = 0
    /// The deadline of the life's newest entry in the engine's heap.
    var scheduled = Timestamp(milliseconds: .max)
    /// With `--group-by`, the metrics of each row by row index, aggregated by bucket, system and
    /// name (the group is known when the row is final).
    private var rowAggregates: [Int: [MetricAggregates.Key: MetricAggregates.Aggregate]] = [:]
    /// The records replayed, with ``ReplayOptions/keepsRecords``.
    private(set) var records: [(record: Record, position: SourcePosition)] = []
    /// ``ReplayOptions/keepsRecords``, and whether `--group-by` is given: read for every
    /// record, apart from the options.
    private let keepsRecords: Bool
    private let groupsRows: Bool
    private let options: ReplayOptions

    /// Starts the life of `key` at `first`; its ids are scoped with `first`'s milliseconds,
    /// so that a later life of the same key gets other ids.
    init(key: SessionKey, first: Timestamp, options: ReplayOptions) {
        self.key = key
        self.first = first
        self.latest = first
        self.options = options
        keepsRecords = options.keepsRecords
        groupsRows = !options.groupBy.keys.isEmpty
        let scope = String(first.milliseconds)
        switch key.system {
        case .openavt: machines = .instrument(InstrumentReplay(id: key.id, scope: scope, options: options))
        case .vp: machines = .app(AppReplay(app: key.id, scope: scope, options: options))
        case .marconi: machines = .player(PlayerReplay(player: key.id, options: options))
        }
    }

    /// How many records and outputs wait to be replayed or handed over.
    var pendingCount: Int { waitingCount + outputCount }
    /// How many outputs wait to be handed over, as of the last burst.
    private var outputCount = 0

    /// How many trace lines wait to be handed over, once the waiting records are replayed.
    var pendingTrace: Int {
        replayWaiting()
        return outputs.trace.count
    }

    /// How many points wait to be handed over, once the waiting records are replayed.
    var pendingPoints: Int {
        replayWaiting()
        return outputs.points.count
    }

    /// Keeps only the last `trace` trace lines and `points` points pending, as if the others
    /// had been handed over (a life rebuilt from a state file: an earlier run wrote them).
    func keepOutputs(trace: Int, points: Int) {
        replayWaiting()
        let handedOver = outputs.points.count - min(points, outputs.points.count)
        aggregateRowPoints(Array(outputs.points.prefix(handedOver)))
        outputs.points.removeFirst(handedOver)
        outputs.trace.removeFirst(outputs.trace.count - min(trace, outputs.trace.count))
        outputCount = outputs.count
    }

    /// Takes one record of the life, no earlier than ``latest``, to be replayed with the
    /// others that wait when the life next hands its outputs over.
    func take(_ record: consuming Record, at position: SourcePosition) {
        latest = max(latest, record.timestamp)
        waitingCount += 1
        if keepsRecords { records.append((copy record, position)) }
        switch consume record {
        case .avt(let avt):
            waitingAVT.append(avt)
        case .marconi(let marconi):
            waitingMarconi.append(marconi)
        case let record:
            waitingApp.append(record)
        }
    }

    /// Replays one record of the life now, no earlier than ``latest``.
    func replay(_ record: consuming Record, at position: SourcePosition) {
        take(record, at: position)
        replayWaiting()
    }

    /// Replays the records that wait, in the order they came (a life has records of one kind);
    /// an active life keeps the memory they took for its next ones (`keepingCapacity`).
    private func replayWaiting(keepingCapacity: Bool = false) {
        guard waitingCount > 0 else { return }
        // Most records give a point: room for them all, made once rather than grown.
        outputs.points.reserveCapacity(outputs.points.count + waitingCount)
        // The machines are taken out for the burst, so that they change in place; each record is
        // moved out of its array, not copied: first to last, from the end of the array reversed
        // (a loop for each kind: handed through a generic closure, each record is copied).
        let taken = machines
        machines = .outForReplay
        switch consume taken {
        case .instrument(var replay):
            waitingAVT.drain(keepingCapacity: keepingCapacity) { replay.replay($0, into: &outputs) }
            machines = .instrument(replay)
        case .player(var replay):
            var records: [MarconiRecord] = []
            swap(&records, &waitingMarconi)
            records.reverseByMoving()
            while let record = records.popLast() { replay.replay(record, into: &outputs) }
            machines = .player(replay)
        case .app(var replay):
            var records: [Record] = []
            swap(&records, &waitingApp)
            records.reverseByMoving()
            while let record = records.popLast() { replay.replay(record, into: &outputs) }
            machines = .app(replay)
        case .outForReplay:
            break
        }
        waitingCount = 0
        outputCount = outputs.count
    }

    /// Hands over the outputs produced since the last hand-over; an active life keeps the memory
    /// of its waiting records for its next ones (`keepingCapacity`).
    func takeOutputs(into report: inout SessionReport, keepingCapacity: Bool = false) {
        replayWaiting(keepingCapacity: keepingCapacity)
        var taken = LifeOutputs()
        swap(&taken, &outputs)
        outputCount = 0
        aggregateRowPoints(taken.points)
        report.trace = taken.trace
        report.points = taken.points
        report.firstTimestamp = first
        report.lastTimestamp = latest
    }

    /// With `--group-by`, adds the points that belong to a row to the row's aggregates.
    private func aggregateRowPoints(_ points: [MetricPoint]) {
        guard groupsRows else { return }
        for point in points {
            guard let row = point.rowIndex, let value = MetricAggregates.value(of: point.metric) else { continue }
            let key = MetricAggregates.Key(
                bucket: point.metric.timestamp.bucketStart(length: options.bucket), system: point.system,
                name: point.metric.name)
            rowAggregates[row, default: [:]][key, default: MetricAggregates.Aggregate()].add(value)
        }
    }

    /// Ends the life: its last outputs, its rows, and its rows' aggregates by group.
    func end(_ closing: SessionReport.Closing) -> SessionReport {
        var report = SessionReport(key: key, closing: closing)
        takeOutputs(into: &report)
        switch machines {
        case .instrument(let instrument):
            instrument.instrument.shutdown()
            report.playbacks = instrument.summaries.map { summary in
                var summary = summary
                summary.timedOut = closing == .idleGap && summary.endAction == nil
                return summary
            }
        case .app(let app):
            report.vpSessions = app.summaries().map { summary in
                var summary = summary
                summary.timedOut = closing == .idleGap && summary.outcome == .open
                return summary
            }
        case .player(var player):
            let (items, points) = player.finish()
            report.marconiItems = items
            aggregateRowPoints(points)
            report.points += points
        case .outForReplay:
            break
        }
        guard !rowAggregates.isEmpty else { return report }
        let groupBy = options.groupBy
        let groups: [[String]] =
            switch key.system {
            case .openavt: report.playbacks.map(groupBy.values(of:))
            case .vp: report.vpSessions.map(groupBy.values(of:))
            case .marconi: report.marconiItems.map(groupBy.values(of:))
            }
        for (row, aggregates) in rowAggregates {
            let group =
                groups.indices.contains(row)
                ? groups[row] : groupBy.values(ofUnownedPointFrom: key.system, source: key.id)
            for (var rowKey, aggregate) in aggregates {
                rowKey.group = group
                report.rowAggregates[rowKey, default: MetricAggregates.Aggregate()].merge(aggregate)
            }
        }
        return report
    }
}
