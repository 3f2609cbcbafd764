/// Comparing two versions of `events.jsonl`: lines are grouped by instrument and tracker (by
/// app and value proposition, by player), and each group's two sequences are aligned by
/// what the events are (their action, status or state), so that an event added or lost is
/// one difference rather than a shift of every event after it; the events aligned with each
/// other are compared value by value.
enum TraceComparison {
    /// The events only in one version, and the aligned events with other values; nil when a
    /// line is not a JSON object, to be compared line by line instead.
    static func differences(before: [UInt8], after: [UInt8]) -> [ReportDifference]? {
        guard let old = sequences(before), let new = sequences(after) else { return nil }
        var differences: [ReportDifference] = []
        for name in old.order + new.order.filter({ old.events[$0] == nil }) {
            differences += compare(old.events[name] ?? [], new.events[name] ?? [])
        }
        return differences
    }

    /// The events of each sequence, and the sequences in the order they first appear.
    private static func sequences(_ bytes: [UInt8]) -> (events: [String: [TraceEvent]], order: [String])? {
        var events: [String: [TraceEvent]] = [:]
        var order: [String] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let event = try? TraceEvent(line: line) else { return nil }
            if events[event.sequence] == nil { order.append(event.sequence) }
            events[event.sequence, default: []].append(event)
        }
        return (events, order)
    }

    private static func compare(_ before: [TraceEvent], _ after: [TraceEvent]) -> [ReportDifference] {
        let alignment = after.map(\.identity).difference(from: before.map(\.identity))
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in alignment {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var differences: [ReportDifference] = []
        var old = 0
        var new = 0
        while old < before.count || new < after.count {
            if old < before.count && removed.contains(old) {
                differences.append(ReportDifference(subject: subject(before[old], position: old), change: .missing))
                old += 1
            } else if new < after.count && inserted.contains(new) {
                differences.append(ReportDifference(subject: subject(after[new], position: new), change: .new))
                new += 1
            } else if old < before.count && new < after.count {
                let changes = valueChanges(before[old], after[new])
                if !changes.isEmpty {
                    differences.append(
                        ReportDifference(subject: subject(before[old], position: old), change: .changed(changes)))
                }
                old += 1
                new += 1
            } else {
                break
            }
        }
        return differences
    }

    /// `event 5 (Start at 1763622316150) of instrument I, tracker 0`, counting from 1.
    private static func subject(_ event: TraceEvent, position: Int) -> String {
        "event \(position + 1) (\(event.identity) at \(event.time)) of \(event.sequence)"
    }

    private static func valueChanges(_ before: TraceEvent, _ after: TraceEvent) -> [ValueChange] {
        guard before.line != after.line else { return [] }
        let beforeFields = before.fields()
        let afterFields = after.fields()
        var afterValues: [String: String] = [:]
        for field in afterFields where afterValues[field.name] == nil { afterValues[field.name] = field.value }
        var beforeNames = Set<String>()
        var changes: [ValueChange] = []
        for field in beforeFields where beforeNames.insert(field.name).inserted {
            let value = afterValues[field.name]
            if value != field.value { changes.append(ValueChange(name: field.name, before: field.value, after: value)) }
        }
        for field in afterFields where !beforeNames.contains(field.name) {
            beforeNames.insert(field.name)
            changes.append(ValueChange(name: field.name, before: nil, after: field.value))
        }
        return changes
    }
}
