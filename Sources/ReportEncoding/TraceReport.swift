import EventModel
import OpenAVT
import Replay

/// `events.jsonl`: the trace, one JSON object a line, in output order.
///
/// An accepted event: `{"ts":…,"type":"avt","instrument":…,"tracker":…,"action":…,"attrs":{…},"metrics":{…}}`
/// with attributes sorted by name and metrics in the metricalc's order (`metrics` is left
/// out when there are none). A rejected one has `"rejected":"why"` in place of `metrics`,
/// and the attributes the event had when the hub saw it.
public enum TraceReport {
    /// The whole file.
    public static func encode(_ trace: [TraceEntry]) -> [UInt8] {
        var buffer: [UInt8] = []
        var json = JSONWriter()
        for entry in trace {
            json.beginObject(into: &buffer)
            json.key("ts", into: &buffer)
            json.int(entry.event.timestamp.milliseconds, into: &buffer)
            json.key("type", into: &buffer)
            json.string("avt", into: &buffer)
            json.key("instrument", into: &buffer)
            json.string(entry.instrument, into: &buffer)
            json.key("tracker", into: &buffer)
            json.int(Int64(entry.tracker), into: &buffer)
            json.key("action", into: &buffer)
            json.string(entry.event.action.name, into: &buffer)
            json.key("attrs", into: &buffer)
            json.attributes(entry.event.attributes, into: &buffer)
            if let rejection = entry.rejection {
                json.key("rejected", into: &buffer)
                json.string(rejection, into: &buffer)
            } else if !entry.metrics.isEmpty {
                json.key("metrics", into: &buffer)
                json.beginObject(into: &buffer)
                for metric in entry.metrics {
                    json.key(metric.name, into: &buffer)
                    switch metric.value {
                    case .int(let value): json.int(value, into: &buffer)
                    case .double(let value): json.double(value, into: &buffer)
                    }
                }
                json.endObject(into: &buffer)
            }
            json.endObject(into: &buffer)
            json.endLine(into: &buffer)
        }
        return buffer
    }
}
