import EventLog
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
    /// `--ts-unit`: the unit of a `ts` given as a number; `nil` when not given (milliseconds,
    /// and a warning for numbers that look like seconds).
    package var timestampUnit: RecordDecoder.TimestampUnit? = nil
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

    /// The inputs in replay order: by file name, then by path, each file once.
    package static func inputOrder(_ paths: [String]) -> [String] {
        uniqueInputs(paths).inputs
    }

    /// The inputs in replay order (by file name, then by path), each file once whatever the
    /// paths that name it (another spelling, `./`, an absolute path, a link: the same device
    /// and inode), as the first path that names it; and each other path that named one of them.
    /// Paths that name nothing (missing files) are told apart by their spelling; `-` is
    /// standard input.
    package static func uniqueInputs(_ paths: [String]) -> (inputs: [String], repeated: [(path: String, as: String)]) {
        var firstByFile: [FileIdentity: String] = [:]
        var seen: Set<String> = []
        var kept: [String] = []
        var repeated: [(path: String, as: String)] = []
        for path in paths where seen.insert(path).inserted {
            if path != "-", let identity = FileIdentity(path: path) {
                if let first = firstByFile[identity] {
                    repeated.append((path, first))
                    continue
                }
                firstByFile[identity] = path
            }
            kept.append(path)
        }
        let ordered = kept.sorted { lhs, rhs in
            let lhsName = (lhs as NSString).lastPathComponent
            let rhsName = (rhs as NSString).lastPathComponent
            if lhsName != rhsName { return lhsName.precedesInUTF8Order(rhsName) }
            return lhs.precedesInUTF8Order(rhs)
        }
        return (ordered, repeated)
    }

    /// The file a path names, links followed.
    private struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }
}
