import EventLog
import EventModel
import Foundation
import Replay

/// Reads input files into a replayer, keeping every good record and noting every problem.
enum InputReader {
    /// Reads `paths` in the order given (their rank breaks ties between equal times).
    static func read(_ paths: [String], into replayer: inout Replayer) -> InputReport {
        var report = InputReport()
        for (rank, path) in paths.enumerated() {
            report.files += 1
            report.bytes += fileSize(path)
            do {
                let reader = try EventLogReader(path: path)
                try reader.forEachEntry { entry in
                    report.records += 1
                    switch entry {
                    case .record(let record, let line) where record.isReplayed:
                        report.replayed += 1
                        replayer.add(record, at: SourcePosition(fileRank: rank, line: line))
                    case .record(.avt, _), .record(.vp, _), .record(.app, _), .record(.marconi, _):
                        report.unsupported[.marconi, default: 0] += 1
                    case .rejected(let rejection):
                        report.problems.append(.line(rejection))
                    }
                }
            } catch let error as EventLogError {
                report.problems.append(.file(name: error.file, message: error.message))
            } catch {
                report.problems.append(.file(name: LineReader.displayName(for: path), message: "\(error)"))
            }
        }
        return report
    }

    private static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        guard path != "-", stat(path, &info) == 0 else { return 0 }
        return Int64(info.st_size)
    }
}

extension Record {
    /// Whether this version replays records of this type.
    fileprivate var isReplayed: Bool {
        if case .marconi = self { return false }
        return true
    }
}
