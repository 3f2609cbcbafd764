import CMemoryHints
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
    /// The time of the last record appended, from which the next one's is stored.
    private var lastTimestamp: Int64 = 0
    /// How many records it holds.
    private(set) var count = 0

    /// The part of an entry before the attributes: the milliseconds since the entry before
    /// (since 0 for the first; zigzag-encoded, as a late record goes back), the file rank,
    /// line, tracker, action index and the attributes' byte count, all LEB128 varints of
    /// their bit patterns (measured: 10 bytes or so a record, where fixed-width fields took 40
    /// and the time in 8 bytes 15).
    fileprivate struct EntryHeader {
        /// The record's time less the time of the entry before.
        var timeStep: Int64
        var fileRank: Int
        var line: Int
        var tracker: Int
        var action: Int
        var attributesByteCount: Int

        /// The most bytes a header takes.
        static let maxSize = 6 * LEB128.maxSize

        /// Writes the header at the start of `buffer`; returns its size.
        func write(into buffer: UnsafeMutableRawBufferPointer) -> Int {
            var offset = 0
            let zigzag = UInt64(bitPattern: (timeStep << 1) ^ (timeStep >> 63))
            LEB128.write(UInt(zigzag), into: buffer, at: &offset)
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
            let timestamp = record.timestamp.milliseconds
            let header = EntryHeader(
                timeStep: timestamp &- lastTimestamp, fileRank: position.fileRank, line: position.line,
                tracker: record.tracker, action: action, attributesByteCount: attributes.count)
            lastTimestamp = timestamp
            // The entry is put together aside and appended at once: each append to the array
            // checks it is uniquely referenced and has room (measured: 100 instructions).
            withUnsafeTemporaryAllocation(byteCount: EntryHeader.maxSize + attributes.count, alignment: 8) {
                scratch in
                let size = header.write(into: scratch)
                if let source = attributes.baseAddress, let target = scratch.baseAddress {
                    (target + size).copyMemory(from: source, byteCount: attributes.count)
                }
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[..<(size + attributes.count)]))
            }
        }
        count += 1
        prefetchEnd()
    }

    /// Asks for the two cache lines after the last entry, where the session's next record
    /// goes, to be brought in for writing meanwhile. The thread that routes records appends
    /// to thousands of sessions in turn, and each append found the end of its session's log
    /// out of the cache: the stores waited, and so did the atomic release that came after
    /// them (measured: `swift_release` 10.3% -> 3.0% of that thread's samples; side by side,
    /// 1M records 1.23 s -> 1.20 s and 5M 6.98 s -> 6.75 s).
    private func prefetchEnd() {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let (end, limit) = (base + buffer.count, base + bytes.capacity)
            if end < limit { avt_prefetch_for_write(end) }
            if end + Self.cacheLineSize < limit { avt_prefetch_for_write(end + Self.cacheLineSize) }
        }
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

    /// The processor's cache line, in bytes.
    private static let cacheLineSize = 64

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
            /// The entry at `offset`, whose time is `previous` plus its step; moves `offset`
            /// to the next entry and `previous` to this one's time.
            func entry(at offset: inout Int, after previous: inout Int64) -> Entry {
                let header = EntryHeader(buffer, at: &offset)
                previous &+= header.timeStep
                let start = offset
                offset += header.attributesByteCount
                return Entry(
                    timestamp: Timestamp(milliseconds: previous), tracker: header.tracker,
                    action: actions[header.action], actionIndex: header.action,
                    position: SourcePosition(fileRank: header.fileRank, line: header.line),
                    attributes: UnsafeRawBufferPointer(rebasing: buffer[start..<offset]))
            }
            guard inReplayOrder else {
                for (timestamp, offset) in Self.sortedEntries(buffer) {
                    // The time of the entry before, so that the entry's step gives its own.
                    var (offset, previous) = (offset, timestamp)
                    body(entry(at: &offset, after: &previous))
                }
                return
            }
            var (offset, previous): (Int, Int64) = (0, 0)
            while offset < buffer.count { body(entry(at: &offset, after: &previous)) }
        }
    }

    /// The offset of each entry and the time of the entry before it (0 for the first), sorted
    /// by the entry's time, ties by position.
    private static func sortedEntries(_ buffer: UnsafeRawBufferPointer) -> [(previous: Int64, offset: Int)] {
        var keys: [(timestamp: Int64, fileRank: Int, line: Int, previous: Int64, offset: Int)] = []
        var (offset, previous): (Int, Int64) = (0, 0)
        while offset < buffer.count {
            var end = offset
            let header = EntryHeader(buffer, at: &end)
            let timestamp = previous &+ header.timeStep
            keys.append((timestamp, header.fileRank, header.line, previous, offset))
            previous = timestamp
            offset = end + header.attributesByteCount
        }
        keys.sort { ($0.timestamp, $0.fileRank, $0.line) < ($1.timestamp, $1.fileRank, $1.line) }
        return keys.map { ($0.previous, $0.offset) }
    }
}

extension AVTRecordLog.EntryHeader {
    /// Reads the header at `offset` and moves `offset` past it.
    init(_ buffer: UnsafeRawBufferPointer, at offset: inout Int) {
        let zigzag = UInt64(LEB128.read(buffer, at: &offset))
        timeStep = Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
        fileRank = Int(bitPattern: LEB128.read(buffer, at: &offset))
        line = Int(bitPattern: LEB128.read(buffer, at: &offset))
        tracker = Int(bitPattern: LEB128.read(buffer, at: &offset))
        action = Int(bitPattern: LEB128.read(buffer, at: &offset))
        attributesByteCount = Int(bitPattern: LEB128.read(buffer, at: &offset))
    }
}
