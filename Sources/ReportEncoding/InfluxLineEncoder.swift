import EventModel

/// Writes points in InfluxDB line protocol, as InfluxDB's own parser reads them.
///
/// A point is one line: `measurement[,tag=value…] field=value[,field=value…] timestamp\n`.
///
/// - Escaping: the measurement escapes comma and space; tag keys, tag values and field
///   keys escape comma, `=` and space; string field values escape `"` and `\`. Other
///   backslashes in names and tags are written as they are, which InfluxDB reads
///   literally (it only unescapes `\,`, `\=` and `\ `). A backslash right before an
///   escaped character (`a\,b` as data) is written `a\\,b`, which InfluxDB 1.x/2.x read
///   back as `a\,b`; line-protocol readers that take `\\` as one backslash differ here,
///   and the protocol has no form that suits both.
/// - Line breaks: the protocol has no escape for them, so every CR or LF in a
///   measurement, tag, field key or string value is written as a space.
/// - Trailing backslashes: a name or tag ending in `\` would escape the separator after
///   it (influxdb#5231), so trailing backslashes of measurements, tag keys, tag values
///   and field keys are stripped.
/// - Empty names: a tag whose key or value is empty (after the rules above) is omitted,
///   as InfluxDB cannot store an empty tag value; a field with an empty key is dropped;
///   a point with an empty measurement, or a measurement starting with `#` (which would
///   make the line a comment), is not written.
/// - Tags are written sorted by key in UTF-8 byte order (InfluxDB's own order, and what
///   makes the output independent of the order the caller gathered them in); when a key
///   is given twice the first occurrence wins. Fields keep the caller's order.
/// - Values: see ``InfluxFieldValue``. A field whose double is NaN or infinite is
///   dropped; a point left with no field is not written. Strings longer than 65,535
///   UTF-8 bytes (InfluxDB's limit) are cut at the last whole character before it.
/// - Timestamps are written as the integer given; the caller picks the unit and sends
///   the matching `precision` (`ms` for `milliseconds`).
/// - Names starting with `_` are reserved by InfluxDB 2; choosing names is the caller's
///   business and the encoder writes them unchanged.
///
/// Every dropped point, field and tag is counted, so that a run can report it.
package struct InfluxLineEncoder: Sendable {
    /// Points not written: no valid field left, or an unusable measurement.
    package private(set) var droppedPoints = 0
    /// Fields dropped from written or unwritten points: non-finite doubles, empty keys.
    package private(set) var droppedFields = 0
    /// Tags omitted: empty key or value, or a repeated key.
    package private(set) var droppedTags = 0
    /// String values cut to InfluxDB's 64 KiB limit.
    package private(set) var truncatedStrings = 0

    /// The longest string field value InfluxDB stores, in UTF-8 bytes.
    package static let maxStringBytes = 65_535

    /// Field keys escaped before, found by their strings' words (`StringWords`):
    /// the metrics have a handful of names, written in code and so shared. The keys are kept
    /// so that their words stay theirs.
    private var escapedKeys: [String] = []
    private var escapedKeyWords: [StringWords] = []
    /// The escaped keys' bytes, back to back, and where each ends.
    private var escapedKeyBytes: [UInt8] = []
    private var escapedKeyEnds: [Int] = []
    /// The key found last: a session's points often repeat a metric.
    private var lastEscapedKey = 0
    /// The most keys kept.
    private static let maxEscapedKeys = 32

    /// Creates an encoder with zeroed counters.
    package init() {}

    /// Appends one point to `buffer`, or nothing when the point cannot be written.
    ///
    /// - Parameters:
    ///   - measurement: the measurement name.
    ///   - tags: `(key, value)` pairs in any order; they are written sorted by key.
    ///   - fields: `(key, value)` pairs, written in this order.
    ///   - timestamp: the point's time, in the unit of the write's `precision`.
    ///   - buffer: the bytes to append to.
    /// - Returns: whether a line was appended.
    @discardableResult
    package mutating func appendPoint(
        measurement: String,
        tags: [(String, String)],
        fields: [(String, InfluxFieldValue)],
        timestamp: Int64,
        into buffer: inout [UInt8]
    ) -> Bool {
        guard let series = series(measurement: measurement, tags: tags) else {
            droppedPoints += 1
            droppedFields += fields.count
            return false
        }
        return appendPoint(series: series, fields: fields, timestamp: timestamp, into: &buffer)
    }

    /// The escaped start of every line of one series, `measurement[,tag=value…]`, for
    /// ``appendPoint(series:fields:sharedFields:timestamp:into:)``; `nil` when the measurement cannot be
    /// written (the caller counts its points as dropped). Omitted tags are counted here, once
    /// per series.
    package mutating func series(measurement: String, tags: [(String, String)]) -> InfluxSeries? {
        var writer = ByteWriter(capacity: 256)
        let measurementBytes = measurement.utf8
        guard let first = measurementBytes.first, first != UInt8(ascii: "#"),
            Self.appendName(measurement, escapingEquals: false, into: &writer)
        else { return nil }
        appendTags(tags, into: &writer)
        return InfluxSeries(bytes: writer.finish())
    }

    /// The escaped `key=value[,key=value…]` of fields that many points share, for
    /// ``appendPoint(series:fields:sharedFields:timestamp:into:)``. What is dropped or cut
    /// while encoding them is counted each time they are written, as for fields given one
    /// by one.
    package func fields(_ fields: [(String, InfluxFieldValue)]) -> InfluxFields {
        var encoder = InfluxLineEncoder()
        var writer = ByteWriter(capacity: 256)
        _ = encoder.appendFields(fields, after: nil, into: &writer)
        return InfluxFields(
            bytes: writer.finish(), droppedFields: encoder.droppedFields, truncatedStrings: encoder.truncatedStrings)
    }

    /// Appends one point of a series made by ``series(measurement:tags:)``: escaping the
    /// measurement and tags once for many points is what makes large outputs cheap. The
    /// `sharedFields` (made by ``fields(_:)``) follow `fields`.
    @discardableResult
    package mutating func appendPoint(
        series: InfluxSeries,
        fields: [(String, InfluxFieldValue)],
        sharedFields: InfluxFields = InfluxFields(),
        timestamp: Int64,
        into buffer: inout [UInt8]
    ) -> Bool {
        var writer = ByteWriter(capacity: 256)
        writer.append(series.bytes)
        let wroteField = appendFields(fields, after: UInt8(ascii: " "), into: &writer)
        let written = finishPoint(
            startingAt: 0, wroteField: wroteField, sharedFields: sharedFields, timestamp: timestamp, into: &writer)
        writer.withBytes(from: 0) { buffer.append(contentsOf: $0) }
        return written
    }

    /// Appends one point of a series with one field of its own: the same as
    /// ``appendPoint(series:fields:sharedFields:timestamp:into:)`` with `[(key, value)]`,
    /// without the array.
    @discardableResult
    package mutating func appendPoint(
        series: InfluxSeries,
        field key: String,
        _ value: InfluxFieldValue,
        sharedFields: InfluxFields = InfluxFields(),
        timestamp: Int64,
        into buffer: inout [UInt8]
    ) -> Bool {
        var writer = ByteWriter(capacity: 256)
        let written = appendPoint(
            series: series, field: key, value, sharedFields: sharedFields, timestamp: timestamp, into: &writer)
        writer.withBytes(from: 0) { buffer.append(contentsOf: $0) }
        return written
    }

    /// ``appendPoint(series:field:_:sharedFields:timestamp:into:)`` into a writer, for the
    /// encoders of many points.
    @discardableResult
    mutating func appendPoint(
        series: InfluxSeries,
        field key: String,
        _ value: InfluxFieldValue,
        sharedFields: InfluxFields,
        timestamp: Int64,
        into writer: inout ByteWriter
    ) -> Bool {
        let start = writer.count
        writer.append(series.bytes)
        let wroteField = appendField(key, value, after: UInt8(ascii: " "), keepingKey: true, into: &writer)
        return finishPoint(
            startingAt: start, wroteField: wroteField, sharedFields: sharedFields, timestamp: timestamp, into: &writer)
    }

    /// Appends the shared fields and the timestamp of a point begun at `start`, or removes the
    /// point (counted) when it has no field.
    private mutating func finishPoint(
        startingAt start: Int, wroteField: Bool, sharedFields: InfluxFields, timestamp: Int64,
        into writer: inout ByteWriter
    ) -> Bool {
        var wroteField = wroteField
        droppedFields += sharedFields.droppedFields
        truncatedStrings += sharedFields.truncatedStrings
        if !sharedFields.bytes.isEmpty {
            writer.append(wroteField ? UInt8(ascii: ",") : UInt8(ascii: " "))
            writer.append(sharedFields.bytes)
            wroteField = true
        }
        guard wroteField else {
            writer.truncate(to: start)
            droppedPoints += 1
            return false
        }
        writer.append(UInt8(ascii: " "))
        writer.appendDecimal(timestamp)
        writer.append(UInt8(ascii: "\n"))
        return true
    }

    /// Appends the fields, the first after `leading` (if any) and the others after a comma;
    /// returns whether one was written.
    private mutating func appendFields(
        _ fields: [(String, InfluxFieldValue)], after leading: UInt8?, into writer: inout ByteWriter
    ) -> Bool {
        var wroteField = false
        for (key, value) in fields
        where appendField(key, value, after: wroteField ? UInt8(ascii: ",") : leading, keepingKey: false, into: &writer)
        {
            wroteField = true
        }
        return wroteField
    }

    /// Appends `key=value` after `leading` (if any); returns whether it was written (a
    /// non-finite double or an empty key is dropped, counted).
    private mutating func appendField(
        _ key: String, _ value: InfluxFieldValue, after leading: UInt8?, keepingKey: Bool, into writer: inout ByteWriter
    ) -> Bool {
        if case .double(let number) = value, !number.isFinite {
            droppedFields += 1
            return false
        }
        let fieldStart = writer.count
        if let leading { writer.append(leading) }
        guard keepingKey ? appendKeptKey(key, into: &writer) : Self.appendName(key, escapingEquals: true, into: &writer)
        else {
            writer.truncate(to: fieldStart)
            droppedFields += 1
            return false
        }
        writer.append(UInt8(ascii: "="))
        appendValue(value, into: &writer)
        return true
    }

    /// Appends a field key as ``appendName(_:escapingEquals:into:)`` does, escaped once and
    /// kept (up to ``maxEscapedKeys`` keys).
    private mutating func appendKeptKey(_ key: String, into writer: inout ByteWriter) -> Bool {
        let words = StringWords(key)
        let known =
            lastEscapedKey < escapedKeyWords.count && escapedKeyWords[lastEscapedKey] == words
            ? lastEscapedKey : escapedKeyWords.firstIndex(of: words)
        if let known {
            lastEscapedKey = known
            let range = (known == 0 ? 0 : escapedKeyEnds[known - 1])..<escapedKeyEnds[known]
            escapedKeyBytes.withUnsafeBufferPointer { writer.append(UnsafeBufferPointer(rebasing: $0[range])) }
            return true
        }
        let keyStart = writer.count
        guard Self.appendName(key, escapingEquals: true, into: &writer) else { return false }
        if escapedKeys.count < Self.maxEscapedKeys {
            writer.withBytes(from: keyStart) { escapedKeyBytes.append(contentsOf: $0) }
            escapedKeys.append(key)
            escapedKeyWords.append(words)
            escapedKeyEnds.append(escapedKeyBytes.count)
        }
        return true
    }

    private mutating func appendTags(_ tags: [(String, String)], into writer: inout ByteWriter) {
        if tags.isEmpty { return }
        var sorted = true
        var index = 1
        while index < tags.count {
            if tags[index].0.precedesInUTF8Order(tags[index - 1].0) {
                sorted = false
                break
            }
            index += 1
        }
        // A stable sort by key when needed: ties keep the caller's order.
        let order =
            sorted
            ? Array(tags.indices)
            : tags.indices.sorted { lhs, rhs in
                let left = tags[lhs].0.utf8, right = tags[rhs].0.utf8
                if left.elementsEqual(right) { return lhs < rhs }
                return left.lexicographicallyPrecedes(right)
            }
        var previous: String? = nil
        for position in order {
            let (key, value) = tags[position]
            if let previous, previous == key {
                droppedTags += 1
                continue
            }
            if appendTag(key: key, value: value, into: &writer) { previous = key }
        }
    }

    /// Appends `,key=value`, or nothing (counted) when the key or the value is empty.
    private mutating func appendTag(key: String, value: String, into writer: inout ByteWriter) -> Bool {
        let tagStart = writer.count
        writer.append(UInt8(ascii: ","))
        guard Self.appendName(key, escapingEquals: true, into: &writer) else {
            writer.truncate(to: tagStart)
            droppedTags += 1
            return false
        }
        writer.append(UInt8(ascii: "="))
        guard Self.appendName(value, escapingEquals: true, into: &writer) else {
            writer.truncate(to: tagStart)
            droppedTags += 1
            return false
        }
        return true
    }

    private mutating func appendValue(_ value: InfluxFieldValue, into writer: inout ByteWriter) {
        switch value {
        case .int(let number):
            writer.appendDecimal(number)
            writer.append(UInt8(ascii: "i"))
        case .double(let number):
            writer.append(utf8: number.description)
        case .bool(let flag):
            writer.append(utf8: flag ? "true" : "false")
        case .string(var text):
            writer.append(UInt8(ascii: "\""))
            text.withUTF8 { bytes in
                var end = bytes.count
                if end > Self.maxStringBytes {
                    truncatedStrings += 1
                    end = Self.maxStringBytes
                    // Back up to the start of a character: never split a UTF-8 sequence.
                    while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
                }
                let kept = UnsafeBufferPointer(rebasing: bytes[..<end])
                guard kept.contains(where: Self.isSpecialInString) else {
                    writer.append(kept)
                    return
                }
                for byte in kept {
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                        writer.append(UInt8(ascii: "\\"))
                        writer.append(byte)
                    case 0x0A, 0x0D:
                        writer.append(UInt8(ascii: " "))
                    default:
                        writer.append(byte)
                    }
                }
            }
            writer.append(UInt8(ascii: "\""))
        }
    }

    /// Appends a measurement, key or tag value: comma and space (and `=` when asked)
    /// escaped, CR and LF as spaces, trailing backslashes stripped. Returns `false` when
    /// nothing is left to write (the caller removes what it started).
    private static func appendName(_ name: String, escapingEquals: Bool, into writer: inout ByteWriter) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            // The end, before any trailing backslashes.
            var end = bytes.count
            while end > 0 && bytes[end - 1] == UInt8(ascii: "\\") { end -= 1 }
            if end == 0 { return false }
            let kept = UnsafeBufferPointer(rebasing: bytes[..<end])
            // Most names need no escaping: copy them whole.
            guard kept.contains(where: { isSpecialInName($0, escapingEquals: escapingEquals) }) else {
                writer.append(kept)
                return true
            }
            for byte in kept {
                switch byte {
                case UInt8(ascii: ","), UInt8(ascii: " "):
                    writer.append(UInt8(ascii: "\\"))
                    writer.append(byte)
                case UInt8(ascii: "="):
                    if escapingEquals { writer.append(UInt8(ascii: "\\")) }
                    writer.append(byte)
                case 0x0A, 0x0D:
                    writer.append(UInt8(ascii: "\\"))
                    writer.append(UInt8(ascii: " "))
                default:
                    writer.append(byte)
                }
            }
            return true
        }
    }

    private static func isSpecialInName(_ byte: UInt8, escapingEquals: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: " "), 0x0A, 0x0D: return true
        case UInt8(ascii: "="): return escapingEquals
        default: return false
        }
    }

    private static func isSpecialInString(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x0A || byte == 0x0D
    }
}

/// The escaped `measurement[,tag=value…]` that starts each line of one series.
package struct InfluxSeries: Hashable, Sendable {
    fileprivate let bytes: [UInt8]
    /// FNV-1a 64 of the bytes, which tells series apart where keeping them all would cost too
    /// much (``InfluxPointTimes``).
    let digest: UInt64

    fileprivate init(bytes: [UInt8]) {
        self.bytes = bytes
        digest = bytes.withUnsafeBytes { fnv1a64($0) }
    }
}

/// Escaped `key=value[,key=value…]` fields that many points share, with what encoding them dropped or cut.
package struct InfluxFields: Hashable, Sendable {
    fileprivate let bytes: [UInt8]
    fileprivate let droppedFields: Int
    fileprivate let truncatedStrings: Int

    /// No fields.
    package init() {
        self.init(bytes: [], droppedFields: 0, truncatedStrings: 0)
    }

    fileprivate init(bytes: [UInt8], droppedFields: Int, truncatedStrings: Int) {
        self.bytes = bytes
        self.droppedFields = droppedFields
        self.truncatedStrings = truncatedStrings
    }
}
