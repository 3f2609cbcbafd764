/// The memory packed attributes lie in (``PackedAttributes``): one value's own, or a block of
/// decoded records' (``PackedAttributesArena``); its header is how many bytes it holds.
///
/// Invariant: a byte a ``PackedAttributes`` refers to is never written again while any value
/// refers to the storage. An arena writes only past the bytes it has handed out, from the one
/// thread that owns it, so values on other threads read theirs without a lock (each value
/// reaches another thread through a lock or a queue, after its bytes were written); a value
/// writes into its storage only when it is the storage's one reference
/// (``PackedAttributes/replace(withPackedBytes:)``). `PackedAttributes`' `@unchecked Sendable`
/// rests on it (a `ManagedBuffer` cannot be `Sendable` itself).
@usableFromInline package final class PackedByteStorage: ManagedBuffer<Int, UInt8> {
    /// Storage for `capacity` bytes, none written yet.
    package static func make(capacity: Int) -> PackedByteStorage {
        unsafeDowncast(create(minimumCapacity: capacity) { _ in capacity }, to: PackedByteStorage.self)
    }

    /// Storage of `bytes.count` bytes holding a copy of `bytes`.
    package static func copying(_ bytes: UnsafeRawBufferPointer) -> PackedByteStorage {
        let made = make(capacity: bytes.count)
        made.write(bytes, at: 0)
        return made
    }

    /// Copies `bytes` to `offset` on: bytes no value refers to yet, or any as the storage's one
    /// reference (the invariant above).
    package func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        precondition(offset >= 0 && offset + bytes.count <= byteCapacity, "packed bytes past their storage")
        (base + offset).copyMemory(from: source, byteCount: bytes.count)
    }

    /// The bytes it holds (its header; the allocation may be larger).
    @inlinable package var byteCapacity: Int { header }

    /// The address of its first byte.
    @inlinable package var base: UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(withUnsafeMutablePointerToElements { $0 })
    }

    /// How far after the object's address its bytes start: the object's header (two words),
    /// then this one's (a word). `ManagedBuffer` lays its elements out so, and a test checks
    /// it against ``base``.
    @inlinable package static var bytesOffset: Int { 3 * MemoryLayout<Int>.size }

    /// The address of the first byte of `storage`, computed from the reference alone: no
    /// call, no reference counted, no memory read. Valid while `storage` lives.
    @inlinable @inline(__always)
    package static func bytes(of storage: borrowing PackedByteStorage?) -> UnsafeMutableRawPointer? {
        unsafeBitCast(storage, to: UnsafeMutableRawPointer?.self).map { $0 + bytesOffset }
    }
}

/// Packs the attributes of many records into shared storage: a few allocations for a block of
/// decoded lines, not one for each record (the decoding threads' largest share of allocations,
/// docs/performance.md).
///
/// Each value it gives refers to the storage it was written into, which lives as long as the
/// longest of them: a record kept apart from its block for long (one that waits in the merge
/// far ahead of its input, ``Record/keepAttributesApart()``) takes a copy of its own, so
/// that it does not keep the others' bytes. One arena per thread; storage is written as
/// ``PackedByteStorage`` says.
package struct PackedAttributesArena {
    private var storage: PackedByteStorage?
    /// Bytes of `storage` handed out, or reserved past them for an integer's store.
    private var used = 0
    /// The capacity of each storage made, or the entry's size when larger.
    private let chunkCapacity: Int

    /// An arena that makes storage of `chunkCapacity` bytes (at least 256) as it needs it.
    package init(chunkCapacity: Int) {
        self.chunkCapacity = max(256, chunkCapacity)
    }

    /// Attributes from bytes ``PackedAttributes/withPackedBytes(_:)`` gave, copied into the
    /// arena.
    package mutating func copy(_ bytes: UnsafeRawBufferPointer) -> PackedAttributes {
        guard bytes.count > 0 else { return PackedAttributes() }
        let (storage, start) = room(for: bytes.count)
        storage.write(bytes, at: start)
        used = start + bytes.count
        return PackedAttributes(storage: storage, start: start, count: bytes.count)
    }

    /// Packs entries that take `byteCount` bytes as ``PackedAttributes/pack(byteCount:_:)``
    /// does, written straight into the arena.
    package mutating func pack(
        byteCount: Int, _ body: (inout PackedAttributes.Writer) -> Void
    ) -> PackedAttributes {
        guard byteCount > 0 else { return PackedAttributes() }
        let size = PackedAttributes.headerSize + byteCount
        let (storage, start) = room(for: size + PackedAttributes.Writer.slack)
        PackedAttributes.write(
            into: UnsafeMutableRawBufferPointer(
                start: storage.base + start, count: size + PackedAttributes.Writer.slack),
            size: size, body)
        used = start + size
        return PackedAttributes(storage: storage, start: start, count: size)
    }

    /// Storage with `size` bytes free after the ones handed out, and where they start: new
    /// storage when the current one has no room.
    private mutating func room(for size: Int) -> (PackedByteStorage, Int) {
        if let storage, used + size <= storage.byteCapacity { return (storage, used) }
        let made = PackedByteStorage.make(capacity: max(chunkCapacity, size))
        storage = made
        used = 0
        return (made, 0)
    }
}
