import CMemoryHints
import EventModel

/// The OpenAVT records a life has taken and not replayed yet, back to back in one byte buffer.
///
/// Records come in time order from thousands of instruments at once, and a life replays the
/// ones that wait in a burst. Kept as `AVTRecord` values, each record's packed
/// attributes were a heap object of its own, which the burst's first touch found out of the
/// cache; here a life's waiting records lie together and the burst reads them in order.
///
/// An entry is a fixed ``Header`` followed by the packed attributes' bytes
/// (`PackedAttributes/withPackedBytes(_:)`). The action is a number: OpenAVT's own from the
/// engine's ``ActionCodes``, others numbered by the log once a burst.
///
/// The buffer is memory of the log's own, not an array: appending to an array checks that it
/// is uniquely referenced, a read of its header, which lies away from the end the record is
/// copied to and had left the cache since the life's last record. Invariant: `storage` holds
/// `capacity` bytes (none when it is `nil`), of which the first `byteCount` are entries; the
/// log, not copyable, is its only owner and frees it.
struct WaitingAVTRecords: ~Copyable {
    private var storage: UnsafeMutableRawPointer?
    private var capacity = 0
    private var byteCount = 0
    /// The actions met since the log was last emptied that are not OpenAVT's, in order of
    /// first use, numbered from `ActionCodes.count` on.
    private var customActions: [Action] = []
    /// How many records wait.
    private(set) var count = 0

    /// The part of an entry before the attributes.
    private struct Header {
        var timestamp: Int64
        var attributesByteCount: UInt32
        var tracker: UInt16
        var action: UInt32

        static let size = 18

        func write(to target: UnsafeMutableRawPointer) {
            target.storeBytes(of: timestamp, as: Int64.self)
            target.storeBytes(of: attributesByteCount, toByteOffset: 8, as: UInt32.self)
            target.storeBytes(of: tracker, toByteOffset: 12, as: UInt16.self)
            target.storeBytes(of: action, toByteOffset: 14, as: UInt32.self)
        }

        init(timestamp: Int64, attributesByteCount: UInt32, tracker: UInt16, action: UInt32) {
            self.timestamp = timestamp
            self.attributesByteCount = attributesByteCount
            self.tracker = tracker
            self.action = action
        }

        init(at source: UnsafeRawPointer) {
            timestamp = source.loadUnaligned(as: Int64.self)
            attributesByteCount = source.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
            tracker = source.loadUnaligned(fromByteOffset: 12, as: UInt16.self)
            action = source.loadUnaligned(fromByteOffset: 14, as: UInt32.self)
        }
    }

    /// Room made with a life's first waiting record: most bursts are a few dozen records of a
    /// hundred-odd bytes.
    private static let initialCapacity = 2048
    /// The cache lines after the last record prefetched for writing, a record's worth and more.
    private static let linesPrefetched = 4

    deinit {
        storage?.deallocate()
    }

    /// Appends a record (its tracker in `AVTRecord/trackerRange`).
    mutating func append(_ record: borrowing AVTRecord, codes: ActionCodes) {
        let action = codes.code(of: record.action) ?? customCode(of: record.action)
        record.packedAttributes.withPackedBytes { attributes in
            let header = Header(
                timestamp: record.timestamp.milliseconds, attributesByteCount: UInt32(attributes.count),
                tracker: UInt16(record.tracker), action: action)
            let target = room(for: Header.size + attributes.count)
            header.write(to: target)
            if let source = attributes.baseAddress {
                (target + Header.size).copyMemory(from: source, byteCount: attributes.count)
            }
            byteCount += Header.size + attributes.count
        }
        count += 1
        // The lines the life's next record will be copied to, asked for while the replay goes
        // on: without, that copy missed the cache and held up the atomic reference count that
        // followed it (the record's release) until the lines came (docs/performance.md).
        if let end = storage.map({ $0 + byteCount }) {
            for line in 0..<Self.linesPrefetched { avt_prefetch_for_writing(end + 64 * line) }
        }
    }

    /// Where an entry of `size` bytes goes, after the others: the buffer grows (to twice its
    /// size, or ``initialCapacity`` for the first record) when it has no room.
    private mutating func room(for size: Int) -> UnsafeMutableRawPointer {
        if let storage, byteCount + size <= capacity { return storage + byteCount }
        let grown = max(Self.initialCapacity, 2 * capacity, byteCount + size)
        let larger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
        if let storage {
            larger.copyMemory(from: storage, byteCount: byteCount)
            storage.deallocate()
        }
        storage = larger
        capacity = grown
        return larger + byteCount
    }

    /// The number of an action that is not OpenAVT's, added on first use.
    private mutating func customCode(of name: String) -> UInt32 {
        let index = customActions.firstIndex { $0.name == name } ?? customActions.count
        if index == customActions.count { customActions.append(Action(name: name)) }
        return ActionCodes.count + UInt32(index)
    }

    /// One waiting record, valid during the call that gives it.
    struct Entry {
        var timestamp: Timestamp
        var tracker: Int
        var action: Action
        /// The bytes of its packed attributes.
        var attributes: UnsafeRawBufferPointer
    }

    /// Calls `body` with each waiting record in the order they came, then empties the log;
    /// its memory is kept for the next records with `keepingCapacity`.
    mutating func drain(keepingCapacity: Bool, _ body: (Entry) -> Void) {
        if let base = storage {
            var offset = 0
            while offset < byteCount {
                let header = Header(at: base + offset)
                let start = offset + Header.size
                offset = start + Int(header.attributesByteCount)
                body(
                    Entry(
                        timestamp: Timestamp(milliseconds: header.timestamp), tracker: Int(header.tracker),
                        action: header.action < ActionCodes.count
                            ? ActionCodes.action(header.action)
                            : customActions[Int(header.action - ActionCodes.count)],
                        attributes: UnsafeRawBufferPointer(start: base + start, count: Int(header.attributesByteCount)))
                )
            }
        }
        byteCount = 0
        if !keepingCapacity {
            storage?.deallocate()
            storage = nil
            capacity = 0
        }
        customActions.removeAll()
        count = 0
    }
}
