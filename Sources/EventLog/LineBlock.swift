import Foundation
import Synchronization

/// Lines copied out of a ``LineReader``'s buffer, so that one thread can inflate and split
/// lines while another decodes them (``EventLogReader/forEachEntry(readingAheadOn:_:)``).
final class LineBlock: @unchecked Sendable {
    /// The bytes of lines a block takes before it is handed over; a longer line gets a block
    /// of its own.
    static let byteLimit = 128 * 1024
    /// The lines a block takes at most.
    static let lineLimit = 1_024

    private struct Item {
        var number: Int
        var offset: Int
        var count: Int
        var isTooLong: Bool
    }

    private var storage: UnsafeMutableRawPointer
    /// Bytes of `storage` for lines; ``LineReader/padding`` readable bytes follow them.
    private var capacity: Int
    private var used = 0
    private var items: [Item] = []
    /// The bytes read from the input when the block was handed over.
    var bytesRead: Int64 = 0

    init() {
        capacity = Self.byteLimit
        storage = Self.allocate(capacity)
        items.reserveCapacity(Self.lineLimit)
    }

    deinit {
        storage.deallocate()
    }

    private static func allocate(_ capacity: Int) -> UnsafeMutableRawPointer {
        let size = capacity + LineReader.padding
        let storage = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        return storage
    }

    var isEmpty: Bool { items.isEmpty }
    var isFull: Bool { used >= Self.byteLimit || items.count >= Self.lineLimit }

    /// Whether `event` fits beside the lines taken so far (an empty block takes any).
    func hasRoom(for event: LineEvent) -> Bool {
        items.isEmpty || used + Self.keptBytes(of: event) <= Self.byteLimit
    }

    private static func keptBytes(of event: LineEvent) -> Int {
        switch event {
        case .line(let line): line.bytes.count
        case .tooLong(_, let prefix): min(prefix.count, RejectedLine.excerptLimit)
        }
    }

    /// Copies a line in; of a line found too long, the bytes a rejection keeps.
    func append(_ event: LineEvent) {
        let bytes: UnsafeRawBufferPointer
        let number: Int
        let isTooLong: Bool
        switch event {
        case .line(let line): (bytes, number, isTooLong) = (line.bytes, line.number, false)
        case .tooLong(let lineNumber, let prefix):
            bytes = UnsafeRawBufferPointer(rebasing: prefix.prefix(RejectedLine.excerptLimit))
            (number, isTooLong) = (lineNumber, true)
        }
        if used + bytes.count > capacity {
            let grown = max(capacity * 2, used + bytes.count)
            let storage = Self.allocate(grown)
            storage.copyMemory(from: self.storage, byteCount: used)
            self.storage.deallocate()
            self.storage = storage
            capacity = grown
        }
        if let base = bytes.baseAddress {
            (storage + used).copyMemory(from: base, byteCount: bytes.count)
        }
        items.append(Item(number: number, offset: used, count: bytes.count, isTooLong: isTooLong))
        used += bytes.count
    }

    /// Calls `body` with each line as the ``LineReader`` reported it, in order.
    func forEachLine(_ body: (LineEvent) -> Void) {
        for item in items {
            let bytes = UnsafeRawBufferPointer(start: storage + item.offset, count: item.count)
            if item.isTooLong {
                body(.tooLong(lineNumber: item.number, prefix: bytes))
            } else {
                body(
                    .line(
                        Line(
                            number: item.number, bytes: bytes,
                            readableCount: capacity + LineReader.padding - item.offset)))
            }
        }
    }

    /// Empties the block for refilling.
    func reset() {
        used = 0
        items.removeAll(keepingCapacity: true)
    }

    /// Emptied blocks, kept for the next input, so that each input's blocks are not
    /// allocated and zeroed again (at most six: under 1 MB).
    private static let spares = Mutex<[LineBlock]>([])
    /// More than the blocks one input has at once (``LineBlockQueue/limit`` waiting, one
    /// being filled, one being decoded).
    private static let sparesKept = LineBlockQueue.limit + 2

    /// An empty block: a spare one, or a new one.
    static func spareOrNew() -> LineBlock {
        spares.withLock { $0.popLast() } ?? LineBlock()
    }

    /// Keeps an emptied block for reuse, unless it grew for a long line or enough are kept.
    static func recycle(_ block: LineBlock) {
        block.reset()
        guard block.capacity == byteLimit else { return }
        spares.withLock { spares in
            if spares.count < sparesKept { spares.append(block) }
        }
    }
}

/// Blocks of lines on their way from the thread that reads them to the thread that decodes
/// them, at most ``limit`` at once.
final class LineBlockQueue: @unchecked Sendable {
    /// What the reading thread hands over.
    enum Item {
        case block(LineBlock)
        /// The input ended, or reading it failed with `error` after the blocks before.
        case end(error: (any Error)?)
    }

    /// Blocks handed over and not yet taken, at most.
    static let limit = 4

    private let condition = NSCondition()
    private var items: [Item] = []

    /// Hands a block, or the end, over; waits while ``limit`` blocks are waiting.
    func put(_ item: Item) {
        condition.withLock {
            while items.count >= Self.limit { condition.wait() }
            items.append(item)
            condition.broadcast()
        }
    }

    /// Takes the oldest item handed over, waiting for one.
    func take() -> Item {
        condition.withLock {
            while items.isEmpty { condition.wait() }
            let item = items.removeFirst()
            condition.broadcast()
            return item
        }
    }
}
