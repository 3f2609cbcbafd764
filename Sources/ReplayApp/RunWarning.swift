import EventModel
import Foundation
import Replay
import ReportEncoding

/// Input that replayed, but probably not as its logger meant: valid records whose `ts` looks
/// like epoch seconds, actions that look like misspelt OpenAVT actions, a `--group-by` key no
/// row carries, a file named twice. Counted once per file (or per key), with the first
/// example and a fix; printed at the end of a run and listed in `run.json`. A warning never
/// changes a report.
package struct RunWarning: Equatable, Sendable {
    package enum Kind: String, Sendable {
        /// A `ts` number that, read as milliseconds, is before 1973: epoch seconds, probably.
        case tsLooksLikeSeconds
        /// An action that is not OpenAVT's but differs from one only in case or by a small edit.
        case actionLooksMisspelt
        /// A `--group-by` key that no playback, session or item carries.
        case groupByKeyUnused
        /// The same file named more than once (another path, `./`, a link): read once.
        case sameFileTwice
        /// A `ts` outside the times InfluxDB or Graphite store (``MetricTimeRange``): the
        /// record is replayed, its points left out of the metric files that cannot hold them.
        case tsOutsideMetricTimes
        /// Records more than the reorder window later than every input's clock once the inputs
        /// ended: one device's clock ahead of the others' (docs/time.md).
        case clockAhead
        /// The record furthest behind its input's clock, of those later than the reorder window:
        /// a backlog uploaded late, or one device's clock behind the others'.
        case clockBehind
    }

    package var kind: Kind
    /// The input (as the first path that named it), or `nil` for a warning about an option.
    package var file: String?
    /// How many records (or names, or keys) it is about.
    package var count: Int
    /// The line of the first example, when it is one.
    package var line: Int?
    /// The first example, as the input had it (`"ts":1763622300`, `"action":"start"`).
    package var example: String
    /// What it means and what to do.
    package var fix: String

    /// The line printed on standard error (after `avt-replay: `).
    package var message: String {
        let place = [file, line.map(String.init)].compactMap { $0 }.joined(separator: ":")
        let subject: String
        switch kind {
        case .tsLooksLikeSeconds:
            subject = "\(example) looks like epoch seconds (\(count) records of this file)"
        case .actionLooksMisspelt:
            subject = "\(example) is not an OpenAVT action; replayed as a custom action (\(count) records of this file)"
        case .groupByKeyUnused:
            subject = "\(example): no playback, session or item carries this attribute; its column is empty"
        case .sameFileTwice:
            subject = "\(example) names the same file; it is read once, as \(file ?? "")"
        case .tsOutsideMetricTimes:
            subject = "\(example) is a time metric servers do not store (\(count) records of this file)"
        case .clockAhead:
            subject = "\(example) (\(count) records of this file)"
        case .clockBehind:
            subject = "\(example) (the furthest of the \(count) records of this file later than --max-lateness)"
        }
        return "warning: " + (place.isEmpty ? "" : place + ": ") + subject + ": " + fix
    }

    /// A record whose time InfluxDB or Graphite cannot store: its points are left out.
    static func outsideMetricTimes(file: String, line: Int, time: Timestamp) -> RunWarning {
        let left =
            MetricTimeRange.influx.contains(time) ? "metrics.graphite" : "metrics.influx and metrics.graphite"
        return RunWarning(
            kind: .tsOutsideMetricTimes, file: file, count: 1, line: line,
            example: "\"ts\":\(time.milliseconds) (\(SummaryReport.rfc3339(time)))",
            fix: "the records are replayed and their rows written, but their points are left out of \(left) "
                + "(InfluxDB stores 1677-09-21 to 2262-04-11, Graphite 1970-01-01 to 2106-02-07): check the "
                + "device's clock")
    }

    /// Records ahead of every input's clock: the first of `key` at `line`, `count` of them of
    /// `keys` keys, the furthest `by` milliseconds later than the inputs' latest clock.
    static func clockAhead(file: String, line: Int, key: SessionKey, count: Int, keys: Int, by: Int64) -> RunWarning {
        let others = keys > 1 ? " and \(keys - 1) more" : ""
        return RunWarning(
            kind: .clockAhead, file: file, count: count, line: line,
            example: "\(describe(key))\(others) up to \(durationText(by)) ahead of every input",
            fix: "later than every other record, beyond --max-lateness: replayed for their own "
                + "\(keys > 1 ? "lives" : "life") only, moving no clock (no other life's idle gap, nor the next night, "
                + "goes by them): check the device's clock")
    }

    /// The late record furthest behind its input's clock: of `key` at `line`, `by`
    /// milliseconds behind; `late` records of the input were later than the window.
    static func clockBehind(file: String, line: Int, key: SessionKey, by: Int64, late: Int) -> RunWarning {
        RunWarning(
            kind: .clockBehind, file: file, count: late, line: line,
            example: "\(describe(key)) is \(durationText(by)) behind the file's clock",
            fix: "replayed in its own order at the file's clock less --max-lateness, its life idle by the "
                + "stream's clock: a backlog uploaded late, or the device's clock")
    }

    /// An instrument, app or player as a warning names it.
    static func describe(_ key: SessionKey) -> String {
        let kind =
            switch key.system {
            case .openavt: "instrument"
            case .vp: "app"
            case .marconi: "player"
            }
        return "\(kind) \"\(key.id)\""
    }

    /// A `ts` number before 1973 read as milliseconds; its milliseconds as given.
    static func secondsLike(file: String, line: Int, milliseconds: Int64) -> RunWarning {
        RunWarning(
            kind: .tsLooksLikeSeconds, file: file, count: 1, line: line, example: "\"ts\":\(milliseconds)",
            fix: "read as milliseconds, it is \(SummaryReport.rfc3339(Timestamp(milliseconds: milliseconds))); "
                + "if the logger writes seconds, give --ts-unit s (--ts-unit ms says they are milliseconds)")
    }

    /// Epoch milliseconds under this (1973-03-03T09:46:40Z) look like seconds: the bound
    /// `--since` uses to tell the two apart.
    static let secondsBound: Int64 = 100_000_000_000
}

/// Tells actions that look like misspelt OpenAVT actions (`start`, `Strat`, `BuferBegin`) from
/// the app's own, with a cache of the names seen, so that a record costs a look-up of its
/// name's words.
struct ActionSpelling {
    private struct Entry {
        var words: StringWords
        /// The name itself, so that the words stay its own.
        var name: String
        var suggestion: String?
    }

    private var recent: [Entry?] = Array(repeating: nil, count: 64)

    /// The OpenAVT action `name` looks like a misspelling of, or `nil` (OpenAVT's own, or
    /// nothing like one).
    mutating func suggestion(for name: String) -> String? {
        let words = StringWords(name)
        let slot = Int(truncatingIfNeeded: words.mixed >> 58)
        if let entry = recent[slot], entry.words == words { return entry.suggestion }
        let suggestion = Self.closest(to: name)
        recent[slot] = Entry(words: words, name: name, suggestion: suggestion)
        return suggestion
    }

    /// OpenAVT's action that `name` differs from only in case or by a small edit (one edit for
    /// names under six letters, two for longer ones), or `nil`.
    static func closest(to name: String) -> String? {
        guard Action.Standard(rawValue: name) == nil else { return nil }
        let names = Action.Standard.allCases.map(\.rawValue)
        return Suggestion.closest(to: name, among: names)
    }
}

/// The closest name to a given one among candidates: the same but for case, or a small edit
/// away (case ignored): what "did you mean …?" offers.
package enum Suggestion {
    /// The candidate equal to `name` but for case, else the nearest within one edit (two for
    /// names of six characters or more), the first in `candidates`' order on a tie; `nil` when
    /// none is that near or `name` is one of them.
    package static func closest(to name: String, among candidates: [String]) -> String? {
        guard !candidates.contains(name) else { return nil }
        let lowered = Array(name.lowercased().unicodeScalars)
        let limit = lowered.count < 6 ? 1 : 2
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let other = Array(candidate.lowercased().unicodeScalars)
            guard abs(other.count - lowered.count) <= limit else { continue }
            let distance = editDistance(lowered, other)
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps
    /// of two neighbours, each one edit.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
