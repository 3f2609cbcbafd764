import Foundation

/// The names of files a process writes before renaming or linking them into place: `NAME.tmp-PID`,
/// so that a later process can tell whose a file left behind is, and remove it once that
/// process is gone.
package enum TemporaryName {
    /// `name` as the temporary name of this process: `NAME.tmp-PID`.
    package static func of(_ name: String, pid: Int32) -> String {
        name + ".tmp-" + String(pid)
    }

    /// The pid a temporary name ends in, or `nil` for any other name.
    package static func owner(of name: String) -> Int32? {
        guard let marker = name.range(of: ".tmp-", options: .backwards) else { return nil }
        let digits = name[marker.upperBound...]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let pid = Int32(digits), pid > 0
        else { return nil }
        return pid
    }
}
