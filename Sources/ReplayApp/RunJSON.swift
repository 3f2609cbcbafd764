import Foundation
import Replay
import ReportEncoding
import TextFormat

/// `run.json`: what one run did, for cron wrappers and monitoring to read instead of standard
/// error (its fields: docs/run-json.md). Written at the end of every run that got past its
/// options, failed ones included; unlike the reports it holds the run's duration and memory,
/// so it differs from run to run.
package struct RunJSON {
    var status: ExitStatus
    var counts: RunCounts
    var output: String
    var state: String?
    /// Each server pushed to, and what became of its batches.
    var pushes: [PushSinkSummary]
    var seconds: Double
    /// `--threads`: the engines the lives were shared among.
    var threads: Int

    package init(
        status: ExitStatus, counts: RunCounts, output: String, state: String?, pushes: [PushSinkSummary],
        seconds: Double, threads: Int
    ) {
        self.threads = threads
        self.status = status
        self.counts = counts
        self.output = output
        self.state = state
        self.pushes = pushes
        self.seconds = seconds
    }

    /// Whether the reports in ``output`` are this run's.
    var reportsWritten: Bool {
        switch status {
        case .success, .inputSkipped, .metricsKept, .metricsLost: true
        case .usage, .outputFailed, .inputFailed, .noInput, .busy: false
        }
    }

    /// The process's peak resident memory so far, in KiB.
    static var peakMemoryKiB: Int64 {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Int64(usage.ru_maxrss)
    }

    /// Appends each count as a key and an integer.
    private static func append(_ counts: [(String, Int)], to json: inout JSONWriter, into bytes: inout [UInt8]) {
        for (name, value) in counts {
            json.key(name, into: &bytes)
            json.int(Int64(value), into: &bytes)
        }
    }

    package func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        var json = JSONWriter()
        json.beginObject(into: &bytes)
        json.key("avtReplayRun", into: &bytes)
        json.int(1, into: &bytes)
        json.key("exitStatus", into: &bytes)
        json.int(Int64(status.rawValue), into: &bytes)
        json.key("outcome", into: &bytes)
        json.string(status.name, into: &bytes)
        json.key("output", into: &bytes)
        json.string(output, into: &bytes)
        json.key("reportsWritten", into: &bytes)
        json.bool(reportsWritten, into: &bytes)
        if let state {
            json.key("state", into: &bytes)
            json.string(state, into: &bytes)
        }
        json.key("inputs", into: &bytes)
        json.beginArray(into: &bytes)
        for input in counts.inputs {
            json.beginObject(into: &bytes)
            json.key("name", into: &bytes)
            json.string(input.name, into: &bytes)
            json.key("size", into: &bytes)
            if let size = input.size { json.int(size, into: &bytes) } else { json.null(into: &bytes) }
            json.key("digest", into: &bytes)
            if let digest = input.digest { json.string(digest, into: &bytes) } else { json.null(into: &bytes) }
            Self.append(
                [
                    ("lines", input.lines), ("rejected", input.rejected), ("late", input.late),
                    ("lateRejected", input.lateRejected),
                ], to: &json, into: &bytes)
            json.endObject(into: &bytes)
        }
        json.endArray(into: &bytes)
        json.key("records", into: &bytes)
        json.beginObject(into: &bytes)
        Self.append(
            [
                ("read", counts.records), ("replayed", counts.replayed), ("rejected", counts.rejectedLines),
                ("late", counts.late), ("lateRejected", counts.lateRejected), ("ahead", counts.ahead),
                ("damagedFiles", counts.damagedFiles),
            ], to: &json, into: &bytes)
        json.endObject(into: &bytes)
        json.key("rows", into: &bytes)
        json.beginObject(into: &bytes)
        Self.append(
            [
                ("playbacks", counts.playbacks), ("vpSessions", counts.vpSessions),
                ("marconiItems", counts.marconiItems), ("livesEndedByGap", counts.livesEndedByGap),
            ], to: &json, into: &bytes)
        json.endObject(into: &bytes)
        if let carried = counts.carried {
            json.key("carried", into: &bytes)
            json.beginObject(into: &bytes)
            Self.append(
                [
                    ("instruments", carried.lives[.openavt] ?? 0), ("openPlaybacks", carried.rows[.openavt] ?? 0),
                    ("appSessions", carried.lives[.vp] ?? 0), ("openVPSessions", carried.rows[.vp] ?? 0),
                    ("players", carried.lives[.marconi] ?? 0), ("openMarconiItems", carried.rows[.marconi] ?? 0),
                ], to: &json, into: &bytes)
            json.endObject(into: &bytes)
        }
        json.key("push", into: &bytes)
        json.beginObject(into: &bytes)
        for push in pushes {
            json.key(push.name, into: &bytes)
            json.beginObject(into: &bytes)
            Self.append(
                [
                    ("delivered", push.delivered), ("fromSpool", push.fromSpool), ("kept", push.kept),
                    ("refused", push.refused), ("lost", push.lost), ("waiting", push.waiting),
                ], to: &json, into: &bytes)
            if let unreachable = push.unreachable {
                json.key("unreachable", into: &bytes)
                json.string(unreachable, into: &bytes)
            }
            json.endObject(into: &bytes)
        }
        json.endObject(into: &bytes)
        json.key("warnings", into: &bytes)
        json.beginArray(into: &bytes)
        for warning in counts.warnings {
            json.beginObject(into: &bytes)
            json.key("kind", into: &bytes)
            json.string(warning.kind.rawValue, into: &bytes)
            json.key("file", into: &bytes)
            if let file = warning.file { json.string(file, into: &bytes) } else { json.null(into: &bytes) }
            json.key("count", into: &bytes)
            json.int(Int64(warning.count), into: &bytes)
            json.key("line", into: &bytes)
            if let line = warning.line { json.int(Int64(line), into: &bytes) } else { json.null(into: &bytes) }
            json.key("example", into: &bytes)
            json.string(warning.example, into: &bytes)
            json.key("fix", into: &bytes)
            json.string(warning.fix, into: &bytes)
            json.endObject(into: &bytes)
        }
        json.endArray(into: &bytes)
        json.key("threads", into: &bytes)
        json.int(Int64(threads), into: &bytes)
        json.key("seconds", into: &bytes)
        json.double((seconds * 1000).rounded() / 1000, into: &bytes)
        json.key("peakMemoryKiB", into: &bytes)
        json.int(Self.peakMemoryKiB, into: &bytes)
        json.endObject(into: &bytes)
        json.endLine(into: &bytes)
        return bytes
    }
}
