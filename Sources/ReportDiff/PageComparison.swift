import Foundation

/// `report.html` compared by its data, not its layout: every element the page marks as
/// coming from a CSV file (`data-csv`, with `data-row`, `data-key`/`data-value` and `data-col`)
/// or as a histogram bin (`data-bin`), matched by those attributes, and its text compared. A
/// change of layout, style or wording alone is no difference.
enum PageComparison {
    /// One marked value: what it is (its `data-` attributes) and its text.
    struct Item: Equatable {
        var key: String
        var text: String
    }

    static func differences(before: [UInt8], after: [UInt8]) -> [ReportDifference] {
        let old = items(String(decoding: before, as: UTF8.self))
        let new = items(String(decoding: after, as: UTF8.self))
        let newByKey = Dictionary(new.map { ($0.key, $0.text) }, uniquingKeysWith: { first, _ in first })
        let oldKeys = Set(old.map(\.key))
        var differences: [ReportDifference] = []
        for item in old {
            guard let text = newByKey[item.key] else {
                differences.append(ReportDifference(subject: "value \(item.key)", change: .missing))
                continue
            }
            if text != item.text {
                differences.append(
                    ReportDifference(
                        subject: "value \(item.key)",
                        change: .changed([ValueChange(name: "shown", before: item.text, after: text)])))
            }
        }
        for item in new where !oldKeys.contains(item.key) {
            differences.append(ReportDifference(subject: "value \(item.key)", change: .new))
        }
        return differences
    }

    /// The marked values of a page, in page order; a key met again gets its occurrence number.
    static func items(_ page: String) -> [Item] {
        var items: [Item] = []
        var seen: [String: Int] = [:]
        var rest = page[...]
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            guard let close = rest.firstIndex(of: ">") else { break }
            let tag = rest[..<close]
            rest = rest[rest.index(after: close)...]
            let attributes = dataAttributes(of: tag)
            guard attributes.contains(where: { $0.name == "csv" || $0.name == "bin" }) else { continue }
            var key = attributes.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
            let occurrence = seen[key, default: 0]
            seen[key] = occurrence + 1
            if occurrence > 0 { key += " #\(occurrence + 1)" }
            let text = rest.prefix { $0 != "<" }
            items.append(Item(key: key, text: unescaped(String(text))))
        }
        return items
    }

    /// The `data-` attributes of a tag's inside (`td data-csv="a" class="n"`), in order,
    /// without the `data-` and with their values unescaped.
    private static func dataAttributes(of tag: Substring) -> [(name: String, value: String)] {
        var attributes: [(name: String, value: String)] = []
        var rest = tag
        while let start = rest.range(of: " data-") {
            rest = rest[start.upperBound...]
            guard let equals = rest.range(of: "=\"") else { break }
            let name = String(rest[..<equals.lowerBound])
            rest = rest[equals.upperBound...]
            guard let quote = rest.firstIndex(of: "\"") else { break }
            attributes.append((name, unescaped(String(rest[..<quote]))))
            rest = rest[rest.index(after: quote)...]
        }
        return attributes
    }

    /// Text with the page's character references resolved (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;`).
    private static func unescaped(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
