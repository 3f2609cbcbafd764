import Foundation

/// The progress line on standard error, redrawn in place, only when standard error is a
/// terminal: the file being read, the share of the input's bytes read, records per second,
/// and the time left at that pace. In cron (no terminal) it prints nothing.
///
/// The first line is drawn when the first file starts, then at most five times a second.
/// It is drawn through ``StandardError``, which clears it before any other line.
final class ProgressLine {
    private let totalBytes: Int64
    private let files: Int
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var lastDrawn: ContinuousClock.Instant?

    /// A progress line, or `nil` when standard error is not a terminal or the run is quiet.
    init?(totalBytes: Int64, files: Int, quiet: Bool) {
        guard !quiet, isatty(STDERR_FILENO) == 1 else { return nil }
        self.totalBytes = totalBytes
        self.files = files
        started = clock.now
    }

    /// Redraws the line, unless it was drawn less than 0.2 s ago.
    func update(file: Int, name: String, bytesDone: Int64, records: Int) {
        let now = clock.now
        if let lastDrawn, now - lastDrawn < .milliseconds(200) { return }
        lastDrawn = now
        let elapsed = Self.seconds(now - started)
        let rate = elapsed > 0 ? Double(records) / elapsed : 0
        let share = totalBytes > 0 ? min(1, Double(bytesDone) / Double(totalBytes)) : 0
        var text = String(
            format: "avt-replay: file %d/%d %@, %.0f%% of %.1f MB, %.0f records/s", file, files,
            (name as NSString).lastPathComponent, share * 100, Double(totalBytes) / 1e6, rate)
        if share > 0.01 && elapsed > 0 {
            text += String(format: ", about %.0f s left", elapsed / share - elapsed)
        }
        StandardError.drawProgress(text)
    }

    /// Clears the line, before the summary is printed. Any other line written meanwhile
    /// (``printError(_:)``) clears it first too.
    func finish() {
        StandardError.clearProgress()
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
