/// One line of `events.jsonl`, as the comparison sees it.
struct TraceEvent {
    /// Whose sequence it belongs to: `instrument I, tracker 0`, `app A, value proposition N`,
    /// `player P`.
    var sequence: String
    /// What the event is, to align two versions of a sequence: the action (`Start`, and
    /// whether it was rejected), the value proposition's status or error, the player's state.
    var identity: String
    /// The event's time, as written.
    var time: String
    /// Every other value by name (`ts`, `attribute title`, `metric StartTime`, `meta artist`,
    /// `rejected`, ...), in the order of the line.
    var fields: [(name: String, value: String)]

    /// Reads one line of the trace.
    ///
    /// - Throws: ``JSONText/ParseError`` when the line is not a JSON object.
    init(line: Substring) throws(JSONText.ParseError) {
        let members = try JSONText.members(of: line)
        func plain(_ key: String) -> String { JSONText.value(key, in: members)?.plain ?? "?" }
        let type = plain("type")
        let sequenceKeys: [String]
        switch type {
        case "avt":
            sequence = "instrument \(plain("instrument")), tracker \(plain("tracker"))"
            sequenceKeys = ["type", "instrument", "tracker"]
            identity = plain("action") + (JSONText.value("rejected", in: members) == nil ? "" : ", rejected")
        case "vp":
            sequence = "app \(plain("app")), value proposition \(plain("name"))"
            sequenceKeys = ["type", "app", "name"]
            if JSONText.value("error", in: members) != nil {
                identity = "\(plain("error")) on \(plain("action"))"
            } else if case .object(let attributes)? = JSONText.value("attrs", in: members) {
                identity = JSONText.value("status", in: attributes)?.plain ?? "event"
            } else {
                identity = "event"
            }
        case "marconi":
            sequence = "player \(plain("player"))"
            sequenceKeys = ["type", "player"]
            identity = plain("state")
        default:
            sequence = "\(type) events"
            sequenceKeys = ["type"]
            identity = "event"
        }
        time = plain("ts")
        fields = []
        for member in members where !sequenceKeys.contains(member.key) {
            Self.flatten(member.value, name: member.key, prefix: Self.prefixes[member.key], into: &fields)
        }
    }

    /// How the members of a nested object are named: `attribute title`, `metric StartTime`.
    private static let prefixes = ["attrs": "attribute ", "metrics": "metric ", "meta": "meta "]

    private static func flatten(
        _ value: JSONText, name: String, prefix: String?, into fields: inout [(name: String, value: String)]
    ) {
        switch value {
        case .text(let text): fields.append((name, text))
        case .object(let members):
            if members.isEmpty { fields.append((name, "{}")) }
            for member in members {
                let inner = prefix.map { $0 + member.key } ?? "\(name).\(member.key)"
                flatten(member.value, name: inner, prefix: nil, into: &fields)
            }
        }
    }
}
