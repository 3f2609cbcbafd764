import EventModel
import TextFormat

/// Writes records back as event-log lines (the input format), as `RecordDecoder` reads them.
///
/// Used for the state a run leaves for the next one; writing a record and reading it back
/// gives the same record.
public enum EventLogEncoder {
    /// One record as a JSON line, ending in a line feed.
    public static func encode(_ record: Record, into buffer: inout [UInt8]) {
        var json = JSONWriter()
        json.beginObject(into: &buffer)
        json.key("ts", into: &buffer)
        json.int(record.timestamp.milliseconds, into: &buffer)
        switch record {
        case .avt(let avt):
            field("instrument", avt.instrument, &json, &buffer)
            json.key("tracker", into: &buffer)
            json.int(Int64(avt.tracker), into: &buffer)
            field("action", avt.action, &json, &buffer)
            object("attrs", avt.attributes, &json, &buffer)
        case .vp(let vp):
            field("type", "vp", &json, &buffer)
            field("app", vp.app, &json, &buffer)
            field("name", vp.name, &json, &buffer)
            object("attrs", vp.attributes, &json, &buffer)
            field("action", vp.action.rawValue, &json, &buffer)
            field("trigger", vp.trigger, &json, &buffer)
            object("actionAttrs", vp.actionAttributes, &json, &buffer)
        case .app(let app):
            field("type", "app", &json, &buffer)
            field("app", app.app, &json, &buffer)
            field("event", app.event.rawValue, &json, &buffer)
        case .marconi(let marconi):
            field("type", "marconi", &json, &buffer)
            field("player", marconi.player, &json, &buffer)
            field("event", marconi.event.rawValue, &json, &buffer)
            if let meta = marconi.meta {
                json.key("meta", into: &buffer)
                json.attributes(meta, into: &buffer)
            }
            if let progress = marconi.progress {
                json.key("progress", into: &buffer)
                json.double(progress, into: &buffer)
            }
            if let error = marconi.error { field("error", error, &json, &buffer) }
        }
        json.endObject(into: &buffer)
        json.endLine(into: &buffer)
    }

    private static func field(_ key: String, _ value: String, _ json: inout JSONWriter, _ buffer: inout [UInt8]) {
        json.key(key, into: &buffer)
        json.string(value, into: &buffer)
    }

    private static func object(_ key: String, _ value: Attributes, _ json: inout JSONWriter, _ buffer: inout [UInt8]) {
        guard !value.isEmpty else { return }
        json.key(key, into: &buffer)
        json.attributes(value, into: &buffer)
    }
}
