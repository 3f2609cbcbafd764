import Foundation

/// Writes a line to standard error.
package func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
