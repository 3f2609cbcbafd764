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
        if counts.ahead > 0 {
            read += ", \(counts.ahead) ahead of every input's clock (replayed for their own lives only)"
        }
        if counts.damagedFiles > 0 {
            read += ", \(count(counts.damagedFiles, "file")) not read to the end"
        }
        let rows = [
            count(counts.playbacks, "playback"), count(counts.vpSessions, "value-proposition session"),
            count(counts.marconiItems, "Marconi item"),
        ]
        let ended = counts.sessions.values.reduce(0, +)
        var parts = [
            read + ";",
            rows.joined(separator: ", ") + " written to \(outputFolder)/ (\(count(ended, "life", "lives")) ended);",
        ]
        if counts.livesEndedByGap > 0 {
            parts.append(
                "\(count(counts.livesEndedByGap, "life", "lives")) ended by the idle gap (a later record starts a new one);"
            )
        }
        if let state, let carried = counts.carried {
            let open = [
                "\(count(carried.lives[.openavt] ?? 0, "instrument")) with \(count(carried.rows[.openavt] ?? 0, "open playback"))",
                "\(count(carried.lives[.vp] ?? 0, "app session")) with \(count(carried.rows[.vp] ?? 0, "open session"))",
                "\(count(carried.lives[.marconi] ?? 0, "player")) with \(count(carried.rows[.marconi] ?? 0, "open item"))",
            ]
            let lives = carried.lives.values.reduce(0, +)
            parts.append("\(count(lives, "life", "lives")) carried over in \(state) (\(open.joined(separator: ", ")));")
        }
        if let state, counts.resumedLives > 0 {
            parts.append("\(count(counts.resumedLives, "life", "lives")) resumed from \(counts.resumedFrom ?? state);")
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
