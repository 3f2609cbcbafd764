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
/// instrument is the session's, and each action name is stored once.
struct AVTRecordLog {
    private var bytes: [UInt8] = []
    /// The action names met, in order of first use; entries refer to them by index.
    private var actions: [String] = []
    /// The index of the last action appended: most records repeat their instrument's last
    /// action.
    private var lastAction = 0
    /// How many records it holds.
    private(set) var count = 0

    /// The fixed part of an entry.
    private struct EntryHeader {
        var timestamp: Int64
        var fileRank: Int64
        var line: Int64
        var tracker: Int64
        var action: UInt32
        var attributesByteCount: UInt32
    }

    /// Room for a session's first records, made with its first: most sessions have a few
    /// dozen records of a hundred-odd bytes.
    private static let initialCapacity = 4096

    /// Appends a record read at `position`.
    mutating func append(_ record: borrowing AVTRecord, at position: SourcePosition) {
        if bytes.isEmpty { bytes.reserveCapacity(Self.initialCapacity) }
        record.packedAttributes.withPackedBytes { attributes in
            let header = EntryHeader(
                timestamp: record.timestamp.milliseconds, fileRank: Int64(position.fileRank),
                line: Int64(position.line), tracker: Int64(record.tracker), action: actionIndex(of: record.action),
                attributesByteCount: UInt32(attributes.count))
            withUnsafeBytes(of: header) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: attributes)
        }
        count += 1
    }

    /// The index in `actions` of an action name, added on first use.
    private mutating func actionIndex(of name: String) -> UInt32 {
        if lastAction < actions.count && actions[lastAction] == name { return UInt32(lastAction) }
        if let index = actions.firstIndex(of: name) {
            lastAction = index
        } else {
            lastAction = actions.count
            actions.append(name)
        }
        return UInt32(lastAction)
    }

    /// One record as the log holds it, valid during the call that gives it.
    struct Entry {
        var timestamp: Timestamp
        var tracker: Int
        var action: String
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
            func entry(at offset: Int) -> Entry {
                let header = buffer.loadUnaligned(fromByteOffset: offset, as: EntryHeader.self)
                let start = offset + MemoryLayout<EntryHeader>.size
                return Entry(
                    timestamp: Timestamp(milliseconds: header.timestamp), tracker: Int(header.tracker),
                    action: actions[Int(header.action)],
                    position: SourcePosition(fileRank: Int(header.fileRank), line: Int(header.line)),
                    attributes: UnsafeRawBufferPointer(
                        rebasing: buffer[start..<start + Int(header.attributesByteCount)]))
            }
            guard inReplayOrder else {
                for offset in Self.sortedOffsets(buffer) { body(entry(at: offset)) }
                return
            }
            var offset = 0
            while offset < buffer.count {
                body(entry(at: offset))
                offset = Self.next(after: offset, in: buffer)
            }
        }
    }

    /// The offset of the entry after the one at `offset`.
    private static func next(after offset: Int, in buffer: UnsafeRawBufferPointer) -> Int {
        let header = buffer.loadUnaligned(fromByteOffset: offset, as: EntryHeader.self)
        return offset + MemoryLayout<EntryHeader>.size + Int(header.attributesByteCount)
    }

    /// The offsets of the entries, sorted by time, ties by position.
    private static func sortedOffsets(_ buffer: UnsafeRawBufferPointer) -> [Int] {
        var keys: [(timestamp: Int64, fileRank: Int64, line: Int64, offset: Int)] = []
        var offset = 0
        while offset < buffer.count {
            let header = buffer.loadUnaligned(fromByteOffset: offset, as: EntryHeader.self)
            keys.append((header.timestamp, header.fileRank, header.line, offset))
            offset = next(after: offset, in: buffer)
        }
        keys.sort { ($0.timestamp, $0.fileRank, $0.line) < ($1.timestamp, $1.fileRank, $1.line) }
        return keys.map(\.offset)
    }
}
