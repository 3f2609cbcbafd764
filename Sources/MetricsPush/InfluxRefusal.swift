import Foundation

/// The lines of a batch that an InfluxDB error message names, so that a refusal can be
/// reported with the offending lines.
///
/// InfluxDB 1.x names them in two ways: `unable to parse '<line>': ...` quotes the line, and
/// `field type conflict: input field "F" on measurement "M" ...` names a field of a
/// measurement, whose lines in the batch are then the ones that carry that field.
enum InfluxRefusal {
    /// At most `limit` lines of `batch` that `message` blames.
    static func offendingLines(in batch: [UInt8], message: String, limit: Int = 5) -> [String] {
        var lines: [String] = []
        var rest = Substring(message)
        while let start = rest.range(of: "unable to parse '") {
            let after = rest[start.upperBound...]
            guard let end = after.range(of: "': ") else { break }
            lines.append(String(after[..<end.lowerBound]))
            rest = after[end.upperBound...]
        }
        if let field = quoted(after: "input field \"", in: message),
            let measurement = quoted(after: "on measurement \"", in: message)
        {
            let text = String(decoding: batch, as: UTF8.self)
            for line in text.split(separator: "\n") where lines.count < limit {
                guard line.hasPrefix(measurement + ",") || line.hasPrefix(measurement + " ") else { continue }
                let fields = line.split(separator: " ").dropFirst().first ?? ""
                if fields.hasPrefix(field + "=") || fields.contains("," + field + "=") {
                    lines.append(String(line))
                }
            }
        }
        return Array(lines.prefix(limit))
    }

    private static func quoted(after marker: String, in message: String) -> String? {
        guard let start = message.range(of: marker) else { return nil }
        let after = message[start.upperBound...]
        guard let end = after.firstIndex(of: "\"") else { return nil }
        return String(after[..<end])
    }
}
