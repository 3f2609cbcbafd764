/// One difference between two report sets, said in words: what (``subject``) and how
/// (``change``), for a developer to act on.
///
/// "Before" is the first set (the expected reports of a check), "after" the second (the
/// replay's): a ``Change/new`` subject is only in the second set, a ``Change/missing`` one only
/// in the first.
package struct ReportDifference: Sendable, Hashable, CustomStringConvertible {
    /// How the subject differs.
    package enum Change: Sendable, Hashable {
        /// Only in the second set.
        case new
        /// Only in the first set.
        case missing
        /// In both sets, with these values changed.
        case changed([ValueChange])
        /// Nothing found changed row by row, yet the bytes differ (rows in another order, or
        /// written differently); the first line that differs, by number, before and after
        /// (nil past the end of the file).
        case rewritten(line: Int, before: String?, after: String?)
    }

    /// What differs: `playback P of instrument I`, `column C`, `file`, ...
    package var subject: String
    package var change: Change

    package init(subject: String, change: Change) {
        self.subject = subject
        self.change = change
    }

    /// `playback P of instrument I: start_time_ms 1100 → 1250`, `new playback ...`,
    /// `missing playback ...`.
    package var description: String {
        switch change {
        case .new: return "new \(subject)"
        case .missing: return "missing \(subject)"
        case .changed(let changes):
            return "\(subject): " + changes.map(\.description).joined(separator: ", ")
        case .rewritten(let line, let before, let after):
            return "\(subject); first at line \(line): \(before ?? "(end of file)") → \(after ?? "(end of file)")"
        }
    }
}

/// One value that differs: a column, an attribute, a metric, a field.
package struct ValueChange: Sendable, Hashable, CustomStringConvertible {
    /// `start_time_ms`, `attribute timeSinceMediaRequest`, `metric StartTime`, `ts`, ...
    package var name: String
    /// The value in the first set, as written; nil where it has none.
    package var before: String?
    /// The value in the second set, as written; nil where it has none.
    package var after: String?

    package init(name: String, before: String?, after: String?) {
        self.name = name
        self.before = before
        self.after = after
    }

    /// `start_time_ms 1100 → 1250`; an empty value shows as `(empty)`, a value that is not
    /// there as `(absent)`.
    package var description: String {
        "\(name) \(Self.show(before)) → \(Self.show(after))"
    }

    private static func show(_ value: String?) -> String {
        guard let value else { return "(absent)" }
        return value.isEmpty ? "(empty)" : value
    }
}
