import EventModel
import Foundation
import Replay

/// The paragraph printed on standard error at the end of a run.
struct RunSummary {
    var input: InputReport
    var result: ReplayResult
    var seconds: Double
    var outputFolder: String

    var text: String {
        var parts = [
            "avt-replay: read \(count(input.files, "file")) (\(megabytes(input.bytes)) MB),",
            "\(count(input.records, "record")): \(input.replayed) replayed, \(input.rejectedLines) rejected",
        ]
        let skipped = input.unsupported.sorted { $0.key.rawValue < $1.key.rawValue }
        if !skipped.isEmpty {
            parts[parts.count - 1] += ","
            parts.append(
                "\(skipped.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ")) not replayed by this version"
            )
        }
        if input.damagedFiles > 0 {
            parts[parts.count - 1] += ","
            parts.append("\(count(input.damagedFiles, "file")) not read to the end")
        }
        parts[parts.count - 1] += ";"
        var replayed = ["\(count(result.playbacks.count, "playback")) from \(count(result.instruments, "instrument"))"]
        if result.apps > 0 {
            replayed.append(
                "\(count(result.vpSessions.count, "value-proposition session")) from \(count(result.apps, "app"))")
        }
        parts.append(replayed.joined(separator: ", ") + " written to \(outputFolder)/;")
        let rate = seconds > 0 ? Double(input.records) / seconds : 0
        parts.append(String(format: "%.2f s, %.0f records/s.", seconds, rate))
        return parts.joined(separator: " ")
    }

    private func count(_ value: Int, _ noun: String) -> String {
        "\(value) \(noun)\(value == 1 ? "" : "s")"
    }

    private func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f", Double(bytes) / 1_000_000)
    }
}
