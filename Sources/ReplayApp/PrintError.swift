import Foundation
import Synchronization

/// Standard error as a run writes it: lines, and on a terminal the progress line, redrawn in
/// place (``ProgressLine``). Every line written while the progress line is drawn clears it
/// first, so that no line starts after the progress text (`…about 0 s leftavt-replay: …`);
/// the progress line is drawn again at its next update.
package enum StandardError {
    /// Erases the terminal's current line: a carriage return and ECMA-48's "erase in line".
    package static let clearLine = "\r\u{1B}[K"

    /// Whether the progress line is drawn: its text ends the terminal's last line, with no line
    /// feed after it. The lock also keeps one thread's write from cutting into another's.
    private static let progressDrawn = Mutex(false)

    /// Writes a line, clearing the progress line first if it is drawn.
    package static func writeLine(_ message: String) {
        progressDrawn.withLock { drawn in
            write((drawn ? clearLine : "") + message + "\n")
            drawn = false
        }
    }

    /// Draws the progress line, in place of the one drawn.
    static func drawProgress(_ text: String) {
        progressDrawn.withLock { drawn in
            write(clearLine + text)
            drawn = true
        }
    }

    /// Clears the progress line, if it is drawn.
    static func clearProgress() {
        progressDrawn.withLock { drawn in
            if drawn { write(clearLine) }
            drawn = false
        }
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// Writes a line to standard error (clearing the progress line first, if it is drawn).
package func printError(_ message: String) {
    StandardError.writeLine(message)
}
