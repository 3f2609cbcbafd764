import CMemoryHints

/// The records a life has taken and not replayed yet, in the order they came (the value
/// propositions' and Marconi's; OpenAVT's are packed, ``WaitingAVTRecords``).
///
/// Memory of the queue's own, not an array: appending to an array checks that it is uniquely
/// referenced, a read of its header, which had left the cache since the life's last record.
/// Invariant: `storage` has room for `capacity` elements (none when it is `nil`), of which
/// the first `count` are initialised; the queue, not copyable, is its only owner, and
/// deinitialises and frees them.
struct WaitingRecords<Element>: ~Copyable {
    private var storage: UnsafeMutablePointer<Element>?
    private var capacity = 0
    /// How many records wait.
    private(set) var count = 0

    /// Room made with the first record: most bursts are a few dozen records.
    private static var initialCapacity: Int { 16 }

    init() {}

    deinit {
        storage?.deinitialize(count: count)
        storage?.deallocate()
    }

    /// Appends a record, and asks for the memory the next one goes to.
    mutating func append(_ element: consuming Element) {
        if count == capacity { grow() }
        guard let storage else { return }
        (storage + count).initialize(to: element)
        count += 1
        avt_prefetch_for_writing(storage + count)
    }

    /// Twice the room (``initialCapacity`` at first), the records moved there.
    private mutating func grow() {
        let grown = max(Self.initialCapacity, 2 * capacity)
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: grown)
        if let storage {
            larger.moveInitialize(from: storage, count: count)
            storage.deallocate()
        }
        storage = larger
        capacity = grown
    }

    /// Hands each waiting record to `body`, moved out, first to last, and empties the queue;
    /// its memory is kept for the next records with `keepingCapacity`.
    mutating func drain(keepingCapacity: Bool, _ body: (consuming Element) -> Void) {
        guard let storage else { return }
        let waiting = count
        count = 0
        for index in 0..<waiting { body((storage + index).move()) }
        if !keepingCapacity {
            storage.deallocate()
            self.storage = nil
            capacity = 0
        }
    }
}
