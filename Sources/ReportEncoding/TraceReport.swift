import EventModel
import Marconi
import OpenAVT
import Replay
import TextFormat
import ValueProposition

/// `events.jsonl`: the trace, one JSON object a line, in output order.
///
/// - OpenAVT, accepted: `{"ts":…,"type":"avt","instrument":…,"tracker":…,"action":…,"attrs":{…},"metrics":{…}}`
///   with attributes sorted by name and metrics in the metricalc's order (`metrics` is left
///   out when there are none); rejected: `"rejected":"why"` in place of `metrics`, and the
///   attributes the event had when the hub saw it.
/// - Value proposition: `{"ts":…,"type":"vp","app":…,"name":…,"attrs":{…}}` with everything
///   Tentacles reports, after the trace's middlewares; a non-fatal error:
///   `{"ts":…,"type":"vp","app":…,"name":…,"error":"prohibitedStatusChange","status":"opened","action":"pause"}`
///   (`initialActionNeedsToBeOpen` has no `status`).
/// - Marconi: `{"ts":…,"type":"marconi","player":…,"state":"startPlaying","meta":{…},"trackChanged":false}`,
///   with the state's payload: `meta` and `trackChanged` for `startPlaying`, `meta` and
///   `progress` for `continuePlaying`, `description` (a string or `null`) for `error`.
public enum TraceReport {
    /// The whole file.
    public static func encode(_ trace: [TraceLine]) -> [UInt8] {
        var buffer: [UInt8] = []
        var json = JSONWriter()
        for line in trace {
            json.beginObject(into: &buffer)
            json.key("ts", into: &buffer)
            json.int(line.timestamp.milliseconds, into: &buffer)
            switch line {
            case .avt(let entry): encode(entry, with: &json, into: &buffer)
            case .vp(.event(let event)): encode(event, with: &json, into: &buffer)
            case .vp(.error(let error)): encode(error, with: &json, into: &buffer)
            case .vp(.dropped(let dropped)): encode(dropped, with: &json, into: &buffer)
            case .marconi(let change): encode(change, with: &json, into: &buffer)
            }
            json.endObject(into: &buffer)
            json.endLine(into: &buffer)
        }
        return buffer
    }

    private static func encode(_ entry: TraceEntry, with json: inout JSONWriter, into buffer: inout [UInt8]) {
        field("type", "avt", &json, &buffer)
        field("instrument", entry.instrument, &json, &buffer)
        json.key("tracker", into: &buffer)
        json.int(Int64(entry.tracker), into: &buffer)
        field("action", entry.event.action.name, &json, &buffer)
        json.key("attrs", into: &buffer)
        json.attributes(entry.event.attributes, into: &buffer)
        if let rejection = entry.rejection {
            field("rejected", rejection, &json, &buffer)
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
    }

    private static func encode(_ event: ValuePropositionEvent, with json: inout JSONWriter, into buffer: inout [UInt8])
    {
        field("type", "vp", &json, &buffer)
        field("app", event.app, &json, &buffer)
        field("name", event.name, &json, &buffer)
        json.key("attrs", into: &buffer)
        json.attributes(event.attributes, into: &buffer)
    }

    private static func encode(_ error: ValuePropositionError, with json: inout JSONWriter, into buffer: inout [UInt8])
    {
        field("type", "vp", &json, &buffer)
        field("app", error.app, &json, &buffer)
        field("name", error.name, &json, &buffer)
        field("error", error.kind.name, &json, &buffer)
        switch error.kind {
        case .prohibitedStatusChange(let status, let action):
            field("status", status.rawValue, &json, &buffer)
            field("action", action.rawValue, &json, &buffer)
        case .initialActionNeedsToBeOpen(let action):
            field("action", action.rawValue, &json, &buffer)
        }
    }

    /// `{"ts":…,"type":"vp","app":…,"name":…,"dropped":"<session id>"}`.
    private static func encode(_ dropped: DroppedSession, with json: inout JSONWriter, into buffer: inout [UInt8]) {
        field("type", "vp", &json, &buffer)
        field("app", dropped.app, &json, &buffer)
        field("name", dropped.name, &json, &buffer)
        field("dropped", dropped.sessionID, &json, &buffer)
    }

    private static func encode(_ change: MarconiStateChange, with json: inout JSONWriter, into buffer: inout [UInt8]) {
        field("type", "marconi", &json, &buffer)
        field("player", change.player, &json, &buffer)
        field("state", change.stateName, &json, &buffer)
        for payload in change.payload {
            json.key(payload.name, into: &buffer)
            switch payload {
            case .meta(let meta): json.attributes(meta, into: &buffer)
            case .trackChanged(let changed): json.bool(changed, into: &buffer)
            case .progress(let progress): json.double(progress, into: &buffer)
            case .description(let description):
                if let description { json.string(description, into: &buffer) } else { json.null(into: &buffer) }
            }
        }
    }

    private static func field(_ key: String, _ value: String, _ json: inout JSONWriter, _ buffer: inout [UInt8]) {
        json.key(key, into: &buffer)
        json.string(value, into: &buffer)
    }
}
