import EventModel

/// The OpenAVT records of one pending session, encoded back to back in one byte buffer.
///
/// A record waits in memory from when it is read until its session closes. Kept as
/// ``EventModel/Record`` values, each record's packed attributes were a heap object of their
/// own, allocated by the thread that routes records in the order they arrived from every
/// session, and freed by the worker that replays them: with millions of records the worker's
/// first touch of each missed the cache. Here a session's records lie together and the
/// worker reads them in order; it copies each record's attributes into the memory its
/// tracker held the tracker's last ones in (``ReplayTracker/load(packedBytes:)``).
///
/// An entry is an ``EntryHeader`` (unaligned) followed by the packed attributes' bytes. The
/// instrument is the session's, and each action name is stored once (``actionIndex(of:)``).
struct AVTRecordLog {
    private var bytes: [UInt8] = []
    /// The action names met, in order of first use; entries refer to them by index.
    private var actions: [String] = []
    /// The words of each of `actions`.
    private var actionWords: [StringWords] = []
    /// The index of the last action appended: most records repeat their instrument's last
    /// action.
    private var lastAction = 0
    /// How many records it holds.
    private(set) var count = 0

    /// The part of an entry before the attributes: the timestamp in 8 bytes, then the file
    /// rank, line, tracker, action index and the attributes' byte count as LEB128 varints of
    /// their bit patterns (measured: 15 bytes or so a record, where fixed-width fields took 40).
    fileprivate struct EntryHeader {
        var timestamp: Int64
        var fileRank: Int
        var line: Int
        var tracker: Int
        var action: Int
        var attributesByteCount: Int

        /// The most bytes a header takes.
        static let maxSize = 8 + 5 * LEB128.maxSize

        /// Writes the header at the start of `buffer`; returns its size.
        func write(into buffer: UnsafeMutableRawBufferPointer) -> Int {
            buffer.storeBytes(of: timestamp.littleEndian, as: Int64.self)
            var offset = 8
            LEB128.write(UInt(bitPattern: fileRank), into: buffer, at: &offset)
            LEB128.write(UInt(bitPattern: line), into: buffer, at: &offset)
            LEB128.write(UInt(bitPattern: tracker), into: buffer, at: &offset)
            LEB128.write(UInt(bitPattern: action), into: buffer, at: &offset)
            LEB128.write(UInt(bitPattern: attributesByteCount), into: buffer, at: &offset)
            return offset
        }
    }

    /// Room for a session's first records, made with its first: most sessions have a few
    /// dozen records of a hundred-odd bytes.
    private static let initialCapacity = 4096

    /// Appends a record read at `position`.
    mutating func append(_ record: borrowing AVTRecord, at position: SourcePosition) {
        if bytes.isEmpty { bytes.reserveCapacity(Self.initialCapacity) }
        let action = actionIndex(of: record.action)
        record.packedAttributes.withPackedBytes { attributes in
            let header = EntryHeader(
                timestamp: record.timestamp.milliseconds, fileRank: position.fileRank, line: position.line,
                tracker: record.tracker, action: action, attributesByteCount: attributes.count)
            withUnsafeTemporaryAllocation(byteCount: EntryHeader.maxSize, alignment: 8) { scratch in
                let size = header.write(into: scratch)
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[..<size]))
            }
            bytes.append(contentsOf: attributes)
        }
        count += 1
    }

    /// The index in `actions` of an action name, added on first use.
    ///
    /// The decoder makes each name's string once and shares it between records, so names
    /// are compared by their two words (the same small string, or the same storage) rather
    /// than by their characters (measured: comparing characters, and growing the arrays one
    /// name at a time, cost 274 instructions a record, 0.9% of a replay's). A name whose
    /// string was made anew gets an index of its own, which names the same action.
    private mutating func actionIndex(of name: String) -> Int {
        let words = StringWords(name)
        if lastAction < actionWords.count && actionWords[lastAction] == words { return lastAction }
        if let index = actionWords.firstIndex(of: words) {
            lastAction = index
        } else {
            if actions.isEmpty {
                actions.reserveCapacity(Self.initialActionCapacity)
                actionWords.reserveCapacity(Self.initialActionCapacity)
            }
            lastAction = actions.count
            actions.append(name)
            actionWords.append(words)
        }
        return lastAction
    }

    /// Room for an instrument's actions, made with its first: most use a dozen or so.
    private static let initialActionCapacity = 16

    /// One record as the log holds it, valid during the call that gives it.
    struct Entry {
        var timestamp: Timestamp
        var tracker: Int
        var action: String
        /// The action's index among the log's action names (numbered in order of first use):
        /// the same index, the same name, for every entry of the log.
        var actionIndex: Int
        var position: SourcePosition
        /// The bytes of its packed attributes (``EventModel/PackedAttributes/withPackedBytes(_:)``).
        var attributes: UnsafeRawBufferPointer

        /// The record, of `instrument`.
        func record(instrument: String) -> AVTRecord {
            AVTRecord(
                timestamp: timestamp, instrument: instrument, tracker: tracker, action: action,
                packedAttributes: PackedAttributes(packedBytes: attributes))
        }
    }

    /// Calls `body` with each record, in replay order: by time, ties by position.
    /// `inReplayOrder` says the records were appended in that order (as most sessions' are),
    /// so that they need no sorting.
    func forEach(inReplayOrder: Bool, _ body: (Entry) -> Void) {
        bytes.withUnsafeBytes { buffer in
            /// The entry at `offset`; moves `offset` to the next.
            func entry(at offset: inout Int) -> Entry {
                let header = EntryHeader(buffer, at: &offset)
                let start = offset
                offset += header.attributesByteCount
                return Entry(
                    timestamp: Timestamp(milliseconds: header.timestamp), tracker: header.tracker,
                    action: actions[header.action], actionIndex: header.action,
                    position: SourcePosition(fileRank: header.fileRank, line: header.line),
                    attributes: UnsafeRawBufferPointer(rebasing: buffer[start..<offset]))
            }
            guard inReplayOrder else {
                for var offset in Self.sortedOffsets(buffer) { body(entry(at: &offset)) }
                return
            }
            var offset = 0
            while offset < buffer.count { body(entry(at: &offset)) }
        }
    }

    /// The offsets of the entries, sorted by time, ties by position.
    private static func sortedOffsets(_ buffer: UnsafeRawBufferPointer) -> [Int] {
        var keys: [(timestamp: Int64, fileRank: Int, line: Int, offset: Int)] = []
        var offset = 0
        while offset < buffer.count {
            var end = offset
            let header = EntryHeader(buffer, at: &end)
            keys.append((header.timestamp, header.fileRank, header.line, offset))
            offset = end + header.attributesByteCount
        }
        keys.sort { ($0.timestamp, $0.fileRank, $0.line) < ($1.timestamp, $1.fileRank, $1.line) }
        return keys.map(\.offset)
    }
}

extension AVTRecordLog.EntryHeader {
    /// Reads the header at `offset` and moves `offset` past it.
    init(_ buffer: UnsafeRawBufferPointer, at offset: inout Int) {
        timestamp = Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: Int64.self))
        offset += 8
        fileRank = Int(bitPattern: LEB128.read(buffer, at: &offset))
        line = Int(bitPattern: LEB128.read(buffer, at: &offset))
        tracker = Int(bitPattern: LEB128.read(buffer, at: &offset))
        action = Int(bitPattern: LEB128.read(buffer, at: &offset))
        attributesByteCount = Int(bitPattern: LEB128.read(buffer, at: &offset))
    }
}
