import EventModel
import Foundation
import Replay
import ReportEncoding

/// What a replay reads and every option that decides what it writes: what the command line
/// (`replay`, `check`) hands to a ``ReplayRun``.
package struct ReplayConfiguration {
    /// The input files (`-` for standard input), as given.
    package var files: [String]
    /// The replay engine's options.
    package var replayOptions: ReplayOptions
    /// The name of the hub every instrument runs (`ads` or `core`).
    package var hubName: String
    /// The first part of metric names.
    package var prefix: String
    /// What the metric files hold, and whether the aggregates are added to them (`--aggregate`).
    package var grain: MetricsGrain
    package var aggregate: Bool
    /// The window of first records whose sessions are written (`--since`, `--until`).
    package var since: Timestamp?
    package var until: Timestamp?
    /// The reorder window, in milliseconds.
    package var maxLateness: Int64
    /// `--max-rejects`, `--max-late` and `--strict`.
    package var maxRejects: RejectLimit?
    package var maxLate: RejectLimit?
    package var strict: Bool
    /// The value-proposition middlewares as given (`duration:open:complete`, ...), in order.
    package var middlewareArguments: [String]
    /// The name of the running command, for the page's provenance.
    package var toolName: String
    /// The floor of views of report.html's breakdown rows (`--breakdown-min-views`).
    package var breakdownMinimumViews = Self.defaultBreakdownMinimumViews
    package static let defaultBreakdownMinimumViews = HTMLReport.Page.defaultBreakdownMinimumViews

    package init(
        files: [String], replayOptions: ReplayOptions, hubName: String, prefix: String, grain: MetricsGrain,
        aggregate: Bool, since: Timestamp?, until: Timestamp?, maxLateness: Int64,
        maxRejects: RejectLimit?, maxLate: RejectLimit?, strict: Bool, middlewareArguments: [String], toolName: String
    ) {
        self.files = files
        self.replayOptions = replayOptions
        self.hubName = hubName
        self.prefix = prefix
        self.grain = grain
        self.aggregate = aggregate
        self.since = since
        self.until = until
        self.maxLateness = maxLateness
        self.maxRejects = maxRejects
        self.maxLate = maxLate
        self.strict = strict
        self.middlewareArguments = middlewareArguments
        self.toolName = toolName
    }

    /// The points the metric files hold.
    package var metricPoints: MetricPoints { MetricPoints(grain: grain, aggregate: aggregate) }

    /// The sessions whose reports are written.
    package var window: Range<Timestamp> {
        (since ?? Timestamp(milliseconds: .min))..<(until ?? Timestamp(milliseconds: .max))
    }

    /// The inputs in replay order: by file name, then by path, each path once.
    package static func inputOrder(_ paths: [String]) -> [String] {
        Array(Set(paths)).sorted { lhs, rhs in
            let lhsName = (lhs as NSString).lastPathComponent
            let rhsName = (rhs as NSString).lastPathComponent
            if lhsName != rhsName { return lhsName.precedesInUTF8Order(rhsName) }
            return lhs.precedesInUTF8Order(rhs)
        }
    }
}
