import EventModel
import Foundation
import Replay

/// The paragraph printed on standard error at the end of a run.
package struct RunSummary {
    var counts: RunCounts
    var seconds: Double
    var outputFolder: String
    var state: String?

    package init(counts: RunCounts, seconds: Double, outputFolder: String, state: String?) {
        self.counts = counts
        self.seconds = seconds
        self.outputFolder = outputFolder
        self.state = state
    }

    package var text: String {
        var read = "avt-replay: read \(count(counts.files, "file")) (\(megabytes(counts.bytes)) MB), "
        read += "\(count(counts.records, "record")): \(counts.replayed) replayed, \(counts.rejectedLines) rejected"
        if counts.late > 0 {
            read += ", \(counts.late) later than --max-lateness (\(counts.lateRejected) of them rejected as late)"
        }
        if counts.damagedFiles > 0 {
            read += ", \(count(counts.damagedFiles, "file")) not read to the end"
        }
        var replayed: [String] = []
        if let instruments = counts.sessions[.openavt] {
            replayed.append(
                "\(count(counts.playbacks, "playback")) from \(count(instruments, "instrument life", "instrument lives"))"
            )
        }
        if let apps = counts.sessions[.vp] {
            replayed.append(
                "\(count(counts.vpSessions, "value-proposition session")) from \(count(apps, "app session life", "app session lives"))"
            )
        }
        if let players = counts.sessions[.marconi] {
            replayed.append(
                "\(count(counts.marconiItems, "Marconi item")) from \(count(players, "player life", "player lives"))")
        }
        var parts = [
            read + ";",
            (replayed.isEmpty ? "nothing" : replayed.joined(separator: ", ")) + " written to \(outputFolder)/;",
        ]
        if counts.livesEndedByGap > 0 {
            parts.append(
                "\(count(counts.livesEndedByGap, "life", "lives")) ended by the idle gap (a later record starts a new one);"
            )
        }
        if let state {
            if let resumedFrom = counts.resumedFrom {
                parts.append(
                    "\(counts.resumedRecords) records resumed from \(resumedFrom) and \(counts.savedRecords) kept in \(state);"
                )
            } else {
                parts.append(
                    "\(counts.resumedRecords) records resumed from and \(counts.savedRecords) kept in \(state);")
            }
        }
        let rate = seconds > 0 ? Double(counts.records) / seconds : 0
        parts.append(String(format: "%.2f s, %.0f records/s.", seconds, rate))
        return parts.joined(separator: " ")
    }

    private func count(_ value: Int, _ noun: String, _ plural: String? = nil) -> String {
        "\(value) \(value == 1 ? noun : plural ?? noun + "s")"
    }

    private func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f", Double(bytes) / 1_000_000)
    }
}
