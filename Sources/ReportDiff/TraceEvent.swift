/// One line of `events.jsonl`, as the comparison sees it.
struct TraceEvent {
    /// The line as written.
    var line: ArraySlice<UInt8>
    /// Whose sequence it belongs to: `instrument I, tracker 0`, `app A, value proposition N`,
    /// `player P`.
    var sequence: String
    /// What the event is, to align two versions of a sequence: the action (`Start`, and
    /// whether it was rejected), the value proposition's status or error, the player's state.
    var identity: String
    /// The event's time, as written.
    var time: String
    /// The members that name the sequence, left out of ``fields()``.
    private var sequenceKeys: [String]

    /// Reads what identifies one line of the trace (its attributes are read by ``fields()``,
    /// only for a line that differs).
    ///
    /// - Throws: ``WrittenJSON/ParseError`` when the line is not a JSON object.
    init(line: ArraySlice<UInt8>) throws(WrittenJSON.ParseError) {
        self.line = line
        let members = try WrittenJSON.members(of: line, nested: false)
        func plain(_ key: String) -> String { WrittenJSON.value(key, in: members)?.plain ?? "?" }
        let type = plain("type")
        switch type {
        case "avt":
            sequence = "instrument \(plain("instrument")), tracker \(plain("tracker"))"
            sequenceKeys = ["type", "instrument", "tracker"]
            identity = plain("action") + (WrittenJSON.value("rejected", in: members) == nil ? "" : ", rejected")
        case "vp":
            sequence = "app \(plain("app")), value proposition \(plain("name"))"
            sequenceKeys = ["type", "app", "name"]
            if WrittenJSON.value("error", in: members) != nil {
                identity = "\(plain("error")) on \(plain("action"))"
            } else if case .text(let text)? = WrittenJSON.value("attrs", in: members),
                let attributes = try? WrittenJSON.members(of: ArraySlice(text.utf8), nested: false)
            {
                identity = WrittenJSON.value("status", in: attributes)?.plain ?? "event"
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
    }

    /// Every value but those that name the sequence, by name (`ts`, `attribute title`,
    /// `metric StartTime`, `meta artist`, `rejected`, ...), in the order of the line; the
    /// whole line as `line` if an inner object is not valid JSON.
    func fields() -> [(name: String, value: String)] {
        guard let members = try? WrittenJSON.members(of: line) else {
            return [("line", String(decoding: line, as: UTF8.self))]
        }
        var fields: [(name: String, value: String)] = []
        for member in members where !sequenceKeys.contains(member.key) {
            Self.flatten(member.value, name: member.key, prefix: Self.prefixes[member.key], into: &fields)
        }
        return fields
    }

    /// How the members of a nested object are named: `attribute title`, `metric StartTime`.
    private static let prefixes = ["attrs": "attribute ", "metrics": "metric ", "meta": "meta "]

    private static func flatten(
        _ value: WrittenJSON, name: String, prefix: String?, into fields: inout [(name: String, value: String)]
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
