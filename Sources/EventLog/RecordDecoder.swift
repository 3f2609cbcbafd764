import CSimdjson
import EventModel
import TextFormat

/// Turns one line of an event log into a `Record`, or a reason to reject it.
///
/// Parsing is simdjson's through the `CSimdjson` shim (its DOM parser, and its on-demand
/// parser for the lines the DOM parser does not take as an object); the rules of the
/// event-log contract are applied here:
/// - the line must be one JSON object, well-formed throughout, with nothing after it;
/// - `ts` is required: an integer (milliseconds since the epoch; seconds, fractions allowed,
///   with ``timestampUnit`` `.seconds`) or an RFC 3339 string
///   (see ``RFC3339``), within ``timestampRange``;
/// - `type` is optional: `avt` (the default), `vp`, `app` or `marconi`;
/// - `vp` needs non-empty strings `app` and `name`, an `action` (`open`, `start`, `pause`,
///   `complete` or `cancel`), and optionally a string `trigger` and objects `attrs` and
///   `actionAttrs`; `app` needs a non-empty string `app` and an `event` (`willResignActive`
///   or `didBecomeActive`); `marconi` needs a non-empty string `player` and an `event`
///   (`bufferingStarted`, `bufferingEnded`, `startPlaying`, `newMeta`, `progress`,
///   `trackChanged` or `error`), and optionally an object `meta`, a number `progress` and
///   a string `error`. Objects hold strings, numbers and booleans, as `attrs` does, but a
///   `vp` record's `attrs` and `actionAttrs` may also hold objects and arrays, kept as their
///   canonical JSON (`canonical(_:)`);
/// - `avt` needs a non-empty string `instrument`, an integer `tracker` from 0 to
///   1023, a non-empty string `action`, and optionally an object `attrs` whose
///   values are strings, numbers or booleans. Integers without fraction or exponent that
///   fit in `Int64` become `.int`, other numbers `.double`;
/// - unknown fields are ignored; when a field occurs twice, the last occurrence counts
///   (in `attrs` too);
/// - `null` counts as absent for the optional fields (`type`, `attrs`) and for attribute
///   values: `"attrs":{"a":1,"a":null}` has no `a`. For a required field it is a wrong type.
///
/// A decoder keeps parser buffers between lines; it is not thread-safe (use one per task).
public final class RecordDecoder {
    /// The timestamps accepted, in milliseconds since the epoch: those RFC 3339 can write,
    /// from 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z. Integers and strings
    /// outside it are rejected.
    public static let timestampRange: ClosedRange<Int64> = -62_167_219_200_000...253_402_300_799_999

    /// The largest tracker id accepted (`trackerRange`).
    public static let maxTracker = Int64(AVTRecord.trackerRange.upperBound)

    private var handle: OpaquePointer?
    /// The parser's output, reused: making one for each line zeroed its 552 bytes.
    private let raw: UnsafeMutablePointer<csj_record> = {
        let raw = UnsafeMutablePointer<csj_record>.allocate(capacity: 1)
        raw.initialize(to: csj_record())
        return raw
    }()
    private let texts = TextCache()
    private let recordTypes = NameTable<RecordType>()
    private let vpActions = NameTable<VPAction>()
    private let lifecycleEvents = NameTable<AppLifecycleEvent>()
    private let marconiEvents = NameTable<MarconiEventKind>()
    /// The key numbers of the object being packed: room for ``maxPackedDirectly``, read and
    /// written without an array's checks.
    private let packingNumbers = UnsafeMutablePointer<UInt32>.allocate(capacity: maxPackedDirectly)
    private var scratch: [UInt8] = []
    /// Where OpenAVT records' attributes are packed while a block is decoded (``decode(_:inspect:)``):
    /// a few allocations for the block's records rather than one each. `nil` between blocks,
    /// where each record's attributes get storage of their own.
    var arena: PackedAttributesArena?
    /// Whether a block's OpenAVT attributes share its storage (``arena``). Off for a reader
    /// that drops most records as soon as they are decoded (another shard's): their storage,
    /// made on a decoding thread and freed on the reading one, was kept by the allocator, and a
    /// `--shard 1/1000` run took three times the memory (docs/performance.md).
    package var sharesBlockStorage = true

    /// The unit of a `ts` given as a number (`--ts-unit`).
    public enum TimestampUnit: String, Sendable, CaseIterable {
        /// Milliseconds since the epoch: integers only (the format's own unit).
        case milliseconds = "ms"
        /// Seconds since the epoch, for loggers that write them: integers, or numbers with a
        /// fraction (`1763622300.125`), rounded to the millisecond.
        case seconds = "s"
    }

    /// How a `ts` given as a number is read.
    public var timestampUnit = TimestampUnit.milliseconds
    /// Whether the last record decoded had its `ts` as a number (rather than an RFC 3339
    /// string): read by whoever is handed its entry, before the next line is decoded.
    public private(set) var lastTimestampWasNumber = false

    /// Creates a decoder; its parser is allocated on first use.
    public init() {}

    deinit {
        if let handle {
            csj_decoder_destroy(handle)
        }
        raw.deallocate()
        packingNumbers.deallocate()
    }

    /// Decodes a line from a ``LineReader``, in place.
    public func decode(_ line: Line) -> DecodedLine {
        decode(line.bytes, readableCount: line.readableCount)
    }

    /// Decodes the UTF-8 bytes of one line.
    ///
    /// - Parameters:
    ///   - bytes: the line, without its newline.
    ///   - readableCount: how many bytes may be read from `bytes.baseAddress` on. With at
    ///     least ``LineReader/padding`` bytes beyond `bytes.count` the line is parsed in place;
    ///     otherwise it is copied into a padded buffer first.
    public func decode(_ bytes: UnsafeRawBufferPointer, readableCount: Int) -> DecodedLine {
        if handle == nil {
            handle = csj_decoder_create()
            if let handle { csj_decoder_set_key_numbers(handle, Self.keyNumber) }
        }
        guard let handle else { return .rejected(reason: "out of memory") }
        var message: UnsafePointer<CChar>?
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let status = csj_decode(handle, base, bytes.count, max(readableCount, bytes.count), raw, &message)
        switch status {
        case .CSJ_OK:
            return record(from: raw)
        case .CSJ_INVALID_JSON:
            let detail = message.map { String(cString: $0) } ?? "unknown error"
            return .rejected(reason: "not valid JSON: \(detail)")
        case .CSJ_NOT_OBJECT:
            return .rejected(reason: "not a JSON object")
        }
    }

    /// Decodes one line given as text (copies it; meant for tests and tools).
    public func decode(_ text: String) -> DecodedLine {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: text.utf8)
        let count = scratch.count
        scratch.append(contentsOf: repeatElement(0, count: LineReader.padding))
        return scratch.withUnsafeBytes { buffer in
            decode(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), readableCount: buffer.count)
        }
    }

    // MARK: - Rules

    private func record(from raw: UnsafeMutablePointer<csj_record>) -> DecodedLine {
        let timestamp: Timestamp
        switch RecordDecoder.timestamp(raw.pointee.ts, unit: timestampUnit) {
        case .success(let value):
            timestamp = value
            lastTimestampWasNumber = raw.pointee.ts.kind != .CSJ_STRING
        case .failure(let rejection): return .rejected(reason: rejection.reason)
        }

        var type = RecordType.avt
        switch raw.pointee.type.kind {
        case .CSJ_ABSENT, .CSJ_NULL:
            break
        case .CSJ_STRING:
            guard let known = recordTypes.name(Self.bytes(of: raw.pointee.type)) else {
                return .rejected(reason: "unknown type \(RecordDecoder.quoted(string(raw.pointee.type)))")
            }
            type = known
        default:
            return .rejected(reason: "\"type\" must be a string")
        }
        let decoded: Result<Record, Rejection>
        switch type {
        case .avt: decoded = avt(raw, at: timestamp)
        case .vp: decoded = vp(raw, at: timestamp)
        case .app: decoded = app(raw, at: timestamp)
        case .marconi: decoded = marconi(raw, at: timestamp)
        }
        switch decoded {
        case .success(let record): return .record(record)
        case .failure(let rejection): return .rejected(reason: rejection.reason)
        }
    }

    private func avt(_ raw: UnsafeMutablePointer<csj_record>, at timestamp: Timestamp) -> Result<Record, Rejection> {
        Result { () throws(Rejection) -> AVTRecord in
            AVTRecord(
                timestamp: timestamp,
                instrument: try nonEmptyString(raw.pointee.instrument, field: "instrument").get(),
                tracker: try Self.tracker(raw.pointee.tracker).get(),
                action: try nonEmptyString(raw.pointee.action, field: "action").get(),
                packedAttributes: try packed(raw.pointee.attrs, field: "attrs", sharingBlock: true).get())
        }.map(Record.avt)
    }

    private func vp(_ raw: UnsafeMutablePointer<csj_record>, at timestamp: Timestamp) -> Result<Record, Rejection> {
        Result { () throws(Rejection) -> VPRecord in
            VPRecord(
                timestamp: timestamp,
                app: try nonEmptyString(raw.pointee.app, field: "app").get(),
                name: try nonEmptyString(raw.pointee.name, field: "name").get(),
                packedAttributes: try packed(raw.pointee.attrs, field: "attrs", allowsNested: true).get(),
                action: try oneOf(vpActions, raw.pointee.action, field: "action").get(),
                trigger: try optionalString(raw.pointee.trigger, field: "trigger").get() ?? VPRecord.defaultTrigger,
                packedActionAttributes: try packed(raw.pointee.action_attrs, field: "actionAttrs", allowsNested: true)
                    .get())
        }.map(Record.vp)
    }

    private func app(_ raw: UnsafeMutablePointer<csj_record>, at timestamp: Timestamp) -> Result<Record, Rejection> {
        Result { () throws(Rejection) -> AppRecord in
            AppRecord(
                timestamp: timestamp,
                app: try nonEmptyString(raw.pointee.app, field: "app").get(),
                event: try oneOf(lifecycleEvents, raw.pointee.event, field: "event").get())
        }.map(Record.app)
    }

    private func marconi(_ raw: UnsafeMutablePointer<csj_record>, at timestamp: Timestamp) -> Result<Record, Rejection>
    {
        Result { () throws(Rejection) -> MarconiRecord in
            MarconiRecord(
                timestamp: timestamp,
                player: try nonEmptyString(raw.pointee.player, field: "player").get(),
                event: try oneOf(marconiEvents, raw.pointee.event, field: "event").get(),
                meta: try object(raw.pointee.meta, field: "meta").get(),
                progress: try Self.optionalNumber(raw.pointee.progress, field: "progress").get(),
                error: try optionalString(raw.pointee.error, field: "error").get())
        }.map(Record.marconi)
    }

    private static func timestamp(_ value: csj_value, unit: TimestampUnit) -> Result<Timestamp, Rejection> {
        var milliseconds: Int64
        switch value.kind {
        case .CSJ_ABSENT:
            return .failure(Rejection("missing \"ts\""))
        case .CSJ_INT where unit == .seconds:
            let (product, overflow) = value.integer.multipliedReportingOverflow(by: 1_000)
            guard !overflow else { return .failure(Rejection(outOfRange + secondsNote)) }
            milliseconds = product
        case .CSJ_INT:
            milliseconds = value.integer
        case .CSJ_BIG_INT:
            return .failure(Rejection(outOfRange))
        case .CSJ_DOUBLE where unit == .seconds:
            let scaled = (value.number * 1_000).rounded()
            guard scaled.isFinite, scaled >= Double(timestampRange.lowerBound),
                scaled <= Double(timestampRange.upperBound)
            else { return .failure(Rejection(outOfRange + secondsNote)) }
            milliseconds = Int64(scaled)
        case .CSJ_DOUBLE:
            return .failure(
                Rejection("\"ts\" must be an integer number of milliseconds, not a fraction or an exponent"))
        case .CSJ_STRING:
            let bytes = UnsafeRawBufferPointer(start: value.string, count: value.length)
            switch RFC3339.milliseconds(bytes) {
            case .success(let parsed): milliseconds = parsed
            case .failure(let error): return .failure(Rejection("\"ts\" is not a valid RFC 3339 time: \(error)"))
            }
        default:
            return .failure(Rejection("\"ts\" must be an integer or an RFC 3339 string"))
        }
        guard timestampRange.contains(milliseconds) else {
            let isNumber = value.kind == .CSJ_INT && unit == .seconds
            return .failure(Rejection(outOfRange + (isNumber ? secondsNote : "")))
        }
        return .success(Timestamp(milliseconds: milliseconds))
    }

    private static let secondsNote = "; read as seconds (--ts-unit s)"
    private static let outOfRange = "\"ts\" is out of range (years 0000 to 9999)"

    private func nonEmptyString(_ value: csj_value, field: String) -> Result<String, Rejection> {
        switch value.kind {
        case .CSJ_ABSENT:
            return .failure(Rejection("missing \"\(field)\""))
        case .CSJ_STRING:
            guard value.length > 0 else {
                return .failure(Rejection("\"\(field)\" must not be empty"))
            }
            return .success(string(value))
        default:
            return .failure(Rejection("\"\(field)\" must be a string"))
        }
    }

    private static func tracker(_ value: csj_value) -> Result<Int, Rejection> {
        switch value.kind {
        case .CSJ_ABSENT:
            return .failure(Rejection("missing \"tracker\""))
        case .CSJ_INT where (0...maxTracker).contains(value.integer):
            return .success(Int(value.integer))
        case .CSJ_INT, .CSJ_BIG_INT:
            return .failure(Rejection("\"tracker\" must be from 0 to \(maxTracker)"))
        default:
            return .failure(Rejection("\"tracker\" must be an integer"))
        }
    }

    /// A string field that may be absent (or `null`).
    private func optionalString(_ value: csj_value, field: String) -> Result<String?, Rejection> {
        switch value.kind {
        case .CSJ_ABSENT, .CSJ_NULL: return .success(nil)
        case .CSJ_STRING: return .success(string(value))
        default: return .failure(Rejection("\"\(field)\" must be a string"))
        }
    }

    /// A number field that may be absent (or `null`).
    private static func optionalNumber(_ value: csj_value, field: String) -> Result<Double?, Rejection> {
        switch value.kind {
        case .CSJ_ABSENT, .CSJ_NULL: return .success(nil)
        case .CSJ_INT: return .success(Double(value.integer))
        case .CSJ_BIG_INT, .CSJ_DOUBLE: return .success(value.number)
        default: return .failure(Rejection("\"\(field)\" must be a number"))
        }
    }

    /// A required string field whose value names a case of `T`, found in `names`.
    private func oneOf<T>(_ names: NameTable<T>, _ value: csj_value, field: String) -> Result<T, Rejection> {
        if value.kind == .CSJ_STRING, let known = names.name(Self.bytes(of: value)) { return .success(known) }
        return nonEmptyString(value, field: field).flatMap { name in
            let names = T.allCases.map(\.rawValue)
            let list = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
            return .failure(Rejection("\"\(field)\" must be \(list), not \(Self.quoted(name))"))
        }
    }

    /// An object field whose values are strings, numbers or booleans, and with `allowsNested`
    /// objects and arrays too (`AttributeValue/json(_:)`); `nil` when absent (or `null`).
    private func object(_ raw: csj_object, field: String, allowsNested: Bool = false) -> Result<
        Attributes?, Rejection
    > {
        switch raw.kind {
        case .CSJ_ABSENT, .CSJ_NULL:
            return .success(nil)
        case .CSJ_OBJECT:
            break
        default:
            return .failure(Rejection("\"\(field)\" must be an object"))
        }
        guard let entries = raw.entries, raw.count > 0 else { return .success([:]) }
        var attributes = Attributes(minimumCapacity: raw.count)
        // Keys whose latest value is an object or an array, with its position; a later
        // valid value of the same key clears it (last wins).
        var invalid: [AttributeKey: Int] = [:]
        for index in 0..<raw.count {
            let entry = entries[index]
            let key = texts.key(UnsafeRawBufferPointer(start: entry.key, count: entry.key_length))
            let value: AttributeValue
            switch entry.value.kind {
            case .CSJ_STRING: value = .string(string(entry.value))
            case .CSJ_INT: value = .int(entry.value.integer)
            case .CSJ_BIG_INT, .CSJ_DOUBLE: value = .double(entry.value.number)
            case .CSJ_BOOL: value = .bool(entry.value.boolean)
            case .CSJ_NULL, .CSJ_ABSENT:
                attributes[key] = nil
                if !invalid.isEmpty { invalid[key] = nil }
                continue
            case .CSJ_OBJECT, .CSJ_ARRAY:
                guard allowsNested else {
                    attributes[key] = nil
                    invalid[key] = index
                    continue
                }
                guard let text = entry.value.string else {
                    return .failure(Rejection("\(Self.quoted(field + "." + key.rawValue)) is not valid JSON"))
                }
                guard
                    let canonical = CanonicalJSON.canonical(
                        UnsafeRawBufferPointer(start: text, count: entry.value.length))
                else {
                    return .failure(Rejection("\(Self.quoted(field + "." + key.rawValue)) is not valid JSON"))
                }
                value = .json(canonical)
            }
            attributes[key] = value
            if !invalid.isEmpty { invalid[key] = nil }
        }
        if let first = invalid.min(by: { $0.value < $1.value }) {
            return .failure(
                Rejection("\(Self.quoted(field + "." + first.key.rawValue)) must be a string, number or boolean"))
        }
        return .success(attributes)
    }

    /// The key numbers the parser packs `attrs` and `actionAttrs` with
    /// (`csj_decoder_set_key_numbers`).
    private static let keyNumber: csj_key_number_fn = { name, length in
        PackedAttributes.keyNumber(ofName: UnsafeRawBufferPointer(start: name, count: length))
    }

    /// An object field as ``PackedAttributes``, under the rules of ``object(_:field:)``.
    ///
    /// The usual object (unique keys, every value a string, number or boolean) is packed
    /// straight from the parser's entries, without a dictionary; any other goes through
    /// ``object(_:field:)``. The parser packs the usual object itself, without listing its
    /// entries for this first. With `sharingBlock`, the usual object goes into the block's
    /// ``arena`` when there is one (OpenAVT records' attributes, which the engine copies as it
    /// takes the record; value propositions keep theirs with their sessions, so not theirs).
    private func packed(
        _ raw: csj_object, field: String, allowsNested: Bool = false, sharingBlock: Bool = false
    ) -> Result<PackedAttributes, Rejection> {
        if raw.kind == .CSJ_OBJECT, raw.packed_length > 0, let bytes = raw.packed {
            let packed = UnsafeRawBufferPointer(start: bytes, count: raw.packed_length)
            if sharingBlock, let shared = arena?.copy(packed) { return .success(shared) }
            return .success(PackedAttributes(packedBytes: packed))
        }
        guard raw.kind == .CSJ_OBJECT, let entries = raw.entries, raw.count > 0,
            raw.count <= Self.maxPackedDirectly
        else {
            return object(raw, field: field, allowsNested: allowsNested).map { PackedAttributes($0 ?? [:]) }
        }
        var size = 0
        // A bit per key number modulo 64: a key whose bit is clear is not a repeat, so the
        // earlier keys are compared only when it is set (names without a number always).
        var numbersSeen: UInt64 = 0
        for index in 0..<raw.count {
            let entry = entries[index]
            let number = texts.keyNumber(UnsafeRawBufferPointer(start: entry.key, count: entry.key_length))
            let bit: UInt64 = number == 0 ? 0 : 1 << (UInt64(number) & 63)
            // A name has a number, or never has one: numbers tell repeated keys apart.
            if numbersSeen & bit != 0 || number == 0 {
                for earlier in 0..<index
                where packingNumbers[earlier] == number && (number != 0 || Self.sameKey(entries[earlier], entry)) {
                    return object(raw, field: field, allowsNested: allowsNested).map { PackedAttributes($0 ?? [:]) }
                }
            }
            numbersSeen |= bit
            let valueBytes: Int
            switch entry.value.kind {
            case .CSJ_STRING: valueBytes = entry.value.length
            case .CSJ_INT: valueBytes = PackedAttributes.byteCount(of: entry.value.integer)
            case .CSJ_BIG_INT, .CSJ_DOUBLE: valueBytes = 8
            case .CSJ_BOOL: valueBytes = 0
            default: return object(raw, field: field, allowsNested: allowsNested).map { PackedAttributes($0 ?? [:]) }
            }
            size += PackedAttributes.packedSize(
                keyNumber: number, nameBytes: entry.key_length, valueBytes: valueBytes,
                isString: entry.value.kind == .CSJ_STRING)
            packingNumbers[index] = number
        }
        func write(_ writer: inout PackedAttributes.Writer) {
            for index in 0..<raw.count {
                let entry = entries[index]
                let number = packingNumbers[index]
                let name = UnsafeRawBufferPointer(start: entry.key, count: entry.key_length)
                switch entry.value.kind {
                case .CSJ_STRING:
                    writer.append(
                        keyNumber: number, name: name,
                        string: UnsafeRawBufferPointer(start: entry.value.string, count: entry.value.length))
                case .CSJ_INT: writer.append(keyNumber: number, name: name, int: entry.value.integer)
                case .CSJ_BOOL: writer.append(keyNumber: number, name: name, bool: entry.value.boolean)
                default: writer.append(keyNumber: number, name: name, double: entry.value.number)
                }
            }
        }
        if sharingBlock, let shared = arena?.pack(byteCount: size, write) { return .success(shared) }
        return .success(PackedAttributes.pack(byteCount: size, write))
    }

    /// Objects with more entries go through a dictionary: checking their keys are unique pair
    /// by pair would cost more.
    private static let maxPackedDirectly = 48

    private static func sameKey(_ lhs: csj_attr, _ rhs: csj_attr) -> Bool {
        lhs.key_length == rhs.key_length
            && UnsafeRawBufferPointer(start: lhs.key, count: lhs.key_length)
                .elementsEqual(UnsafeRawBufferPointer(start: rhs.key, count: rhs.key_length))
    }

    private func string(_ value: csj_value) -> String {
        texts.string(Self.bytes(of: value))
    }

    /// The bytes of a string value, in the parser's memory.
    private static func bytes(of value: csj_value) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: value.string, count: value.length)
    }

    /// A value in double quotes for a reason, shortened to 64 characters, with quotes,
    /// backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == 64 {
                result += "…"
                break
            }
            count += 1
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

/// A rejection reason, as an `Error` so that it fits in a `Result`.
private struct Rejection: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
