import EventModel
import Foundation
import HeapModule

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lines of `rejects.jsonl` as a run notes them, kept on disk as they come and written in
/// their order (``RejectsOrder``) when the set is staged: by file, then line; lines at one
/// place (a file's problems with the whole file) in the order noted.
///
/// Its memory does not grow with the lines: at most ``memoryLimit`` bytes of them wait in
/// memory, by file. Past that, each file's waiting lines go to disk, into a folder of the
/// run's own (`folder`, made when first needed), as a *run*: lines in order, appended to the
/// file's last run when they come after its last line (as a file's rejected lines do), a run
/// of their own otherwise (as records rejected late by the replay often do). Runs are merged
/// ``fanIn`` at a time, so that a file has a few dozen at most; writing merges each file's
/// runs into `rejects.jsonl`. What is kept of a line is its encoded bytes, its line number
/// and its number among the lines noted: nothing else per line stays in memory.
///
/// A run's entry is a header of 20 bytes (the line, `Int.max` for a whole file's problem,
/// and the entry's number, both 64-bit, then the line's length, 32-bit, all little-endian)
/// and the line's bytes. The folder is removed when the lines are written or discarded; one a
/// killed run left is inside the report folder's staging folder, which the next run removes.
final class RejectsSpool {
    /// The bytes of lines kept in memory by default before they go to disk.
    static let defaultMemoryLimit = 1 << 20
    /// How many runs of one file of one size are merged into one.
    static let fanIn = 8
    /// The bytes read from a run at a time.
    static let readSize = 64 << 10
    private static let headerSize = 20

    /// Where the runs are kept.
    let folder: String
    let memoryLimit: Int
    /// The lines noted.
    private(set) var count = 0
    private var streams: [Stream] = []
    private var streamOfFile: [String: Int] = [:]
    /// The stream of the last line noted: lines of one file mostly come one after another.
    private var lastStream: Int?
    private var waitingBytes = 0
    private var runsMade = 0
    private var folderMade = false
    /// Why the lines could not be kept, if they could not: said when they are written.
    private var failure: String?

    /// The lines of one file.
    private struct Stream {
        let file: String
        let order: RejectsOrder
        /// Entries waiting in memory, header and bytes, in the order noted.
        var waiting: [UInt8] = []
        var entries: [Entry] = []
        /// Whether `entries` are in order.
        var inOrder = true
        /// The file's runs on disk, oldest first.
        var runs: [Run] = []

        /// Adds an entry; returns the bytes it takes.
        mutating func add(_ place: Place, _ encode: (inout [UInt8]) -> Void) -> Int {
            let offset = waiting.count
            RejectsSpool.appendHeader(place, length: 0, to: &waiting)
            encode(&waiting)
            let length = waiting.count - offset - RejectsSpool.headerSize
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: length).littleEndian) { header in
                for (index, byte) in header.enumerated() { waiting[offset + 16 + index] = byte }
            }
            if let previous = entries.last, place < previous.place { inOrder = false }
            entries.append(Entry(place: place, offset: offset))
            return waiting.count - offset
        }

        /// The waiting entries in order.
        func sortedEntries() -> [Entry] {
            inOrder ? entries : entries.sorted { $0.place < $1.place }
        }

        /// Appends the entry at `offset` of `waiting`, header and bytes, to `bytes`.
        func appendEntry(at offset: Int, to bytes: inout [UInt8]) {
            let length = waiting.withUnsafeBytes { raw in
                Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt32.self)))
            }
            bytes.append(contentsOf: waiting[offset..<offset + RejectsSpool.headerSize + length])
        }

        /// Calls `body` with each waiting entry's place and bytes (without its header), in order.
        func forEachWaiting(_ body: (Place, UnsafeRawBufferPointer) -> Void) {
            waiting.withUnsafeBytes { raw in
                for entry in sortedEntries() {
                    let length = Int(
                        UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: entry.offset + 16, as: UInt32.self)))
                    body(
                        entry.place,
                        UnsafeRawBufferPointer(
                            rebasing: raw[
                                entry.offset + RejectsSpool.headerSize..<entry.offset + RejectsSpool.headerSize + length
                            ]))
                }
            }
        }
    }

    private struct Entry {
        var place: Place
        var offset: Int
    }

    /// Where an entry goes: by line, then by number (the order noted).
    private struct Place: Comparable {
        var line: Int
        var number: Int

        static func < (lhs: Place, rhs: Place) -> Bool {
            lhs.line != rhs.line ? lhs.line < rhs.line : lhs.number < rhs.number
        }
    }

    private struct Run {
        var path: String
        /// How many merges made it: runs of one level are of about one size.
        var level: Int
        var last: Place
    }

    /// A spool whose runs go into `folder` (which must not exist yet), keeping up to
    /// `memoryLimit` bytes of lines in memory.
    init(folder: String, memoryLimit: Int = RejectsSpool.defaultMemoryLimit) {
        self.folder = folder
        self.memoryLimit = max(1, memoryLimit)
    }

    deinit {
        removeRuns()
    }

    /// Notes a line of `file` (`nil`: a problem with the whole file), which `encode` appends.
    func add(file: String, line: Int?, _ encode: (inout [UInt8]) -> Void) {
        let index = stream(of: file)
        let place = Place(line: line ?? .max, number: count)
        count += 1
        let added = streams[index].add(place, encode)
        waitingBytes += added
        if waitingBytes > memoryLimit { spill() }
    }

    private func stream(of file: String) -> Int {
        if let lastStream, streams[lastStream].file == file { return lastStream }
        let index: Int
        if let known = streamOfFile[file] {
            index = known
        } else {
            index = streams.count
            streams.append(Stream(file: file, order: RejectsOrder(file: file, line: nil)))
            streamOfFile[file] = index
        }
        lastStream = index
        return index
    }

    /// Writes every line noted into `writer`, in order, and forgets them: the spool is empty
    /// after, its folder removed.
    func write(into writer: ReportWriter) throws(AtomicFile.WriteError) {
        defer { reset() }
        if let failure { throw AtomicFile.WriteError(path: folder, reason: failure) }
        let order = streams.indices.sorted { lhs, rhs in
            let (left, right) = (streams[lhs], streams[rhs])
            if left.order < right.order { return true }
            if right.order < left.order { return false }
            return left.file.precedesInUTF8Order(right.file)
        }
        for index in order {
            if streams[index].runs.isEmpty {
                streams[index].forEachWaiting { _, bytes in writer.append(bytes) }
                continue
            }
            spill(index)
            if let failure { throw AtomicFile.WriteError(path: folder, reason: failure) }
            let runs = streams[index].runs.map(\.path)
            do throws(RunFailure) {
                try Self.merge(runs) { _, bytes in writer.append(bytes) }
            } catch {
                throw AtomicFile.WriteError(path: folder, reason: error.reason)
            }
        }
    }

    /// Forgets every line noted and removes the folder.
    func reset() {
        removeRuns()
        streams = []
        streamOfFile = [:]
        lastStream = nil
        waitingBytes = 0
        count = 0
        failure = nil
    }

    private func removeRuns() {
        guard folderMade else { return }
        folderMade = false
        DiskStep.reach("remove \(folder), the rejects spooled")
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Puts every file's waiting lines on disk.
    private func spill() {
        for index in streams.indices { spill(index) }
        waitingBytes = 0
    }

    /// Puts the file's waiting lines on disk: at the end of its last run when they come after
    /// it, as a run of their own otherwise (then merging its newest runs while ``fanIn`` of
    /// them are of one level).
    private func spill(_ index: Int) {
        guard !streams[index].entries.isEmpty else { return }
        let size = streams[index].waiting.count
        defer {
            waitingBytes -= size
            streams[index].waiting = []
            streams[index].entries = []
            streams[index].inOrder = true
        }
        guard failure == nil else { return }
        if !folderMade {
            DiskStep.reach("create \(folder)")
            guard mkdir(folder, 0o755) == 0 || errno == EEXIST else {
                failure = "cannot create \(folder): \(String(cString: strerror(errno)))"
                return
            }
            folderMade = true
        }
        let entries = streams[index].sortedEntries()
        guard let first = entries.first, let last = entries.last else { return }
        var bytes: [UInt8] = []
        if streams[index].inOrder {
            swap(&bytes, &streams[index].waiting)
        } else {
            bytes.reserveCapacity(streams[index].waiting.count)
            for entry in entries { streams[index].appendEntry(at: entry.offset, to: &bytes) }
        }
        if let top = streams[index].runs.last, top.last < first.place {
            streams[index].runs[streams[index].runs.count - 1].last = last.place
            if let reason = Self.append(bytes, to: top.path, creating: false) { failure = reason }
            return
        }
        let path = nextRunPath()
        if let reason = Self.append(bytes, to: path, creating: true) {
            failure = reason
            return
        }
        streams[index].runs.append(Run(path: path, level: 0, last: last.place))
        mergeNewestRuns(of: index)
    }

    /// Merges the file's newest ``fanIn`` runs into one while they are of one level.
    private func mergeNewestRuns(of index: Int) {
        while failure == nil, streams[index].runs.count >= Self.fanIn {
            let newest = streams[index].runs.suffix(Self.fanIn)
            guard let level = newest.first?.level, newest.allSatisfy({ $0.level == level }) else { return }
            let path = nextRunPath()
            let merged: RunWriter
            do throws(RunFailure) {
                merged = try RunWriter(path: path)
                try Self.merge(newest.map(\.path)) { place, bytes throws(RunFailure) in
                    try merged.append(place, bytes)
                }
                try merged.finish()
            } catch {
                failure = error.reason
                return
            }
            for run in newest { unlink(run.path) }
            let last = newest.map(\.last).max() ?? Place(line: 0, number: 0)
            streams[index].runs.removeLast(Self.fanIn)
            streams[index].runs.append(Run(path: path, level: level + 1, last: last))
        }
    }

    private func nextRunPath() -> String {
        runsMade += 1
        return (folder as NSString).appendingPathComponent("run-\(runsMade)")
    }

    /// Appends `bytes` to the file at `path`; returns why it could not.
    private static func append(_ bytes: [UInt8], to path: String, creating: Bool) -> String? {
        if creating { DiskStep.reach("create \(path)") }
        let flags = O_WRONLY | O_APPEND | O_CLOEXEC | (creating ? O_CREAT | O_TRUNC : 0)
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else { return "cannot open \(path): \(String(cString: strerror(errno)))" }
        defer { close(descriptor) }
        return bytes.withUnsafeBytes { writeAll($0, to: descriptor, path: path) }
    }

    /// Writes all of `bytes` to `descriptor`; returns why it could not.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) -> String? {
        var written = 0
        while written < bytes.count, let base = bytes.baseAddress {
            let count = systemWrite(descriptor, base + written, bytes.count - written)
            if count < 0 {
                if errno == EINTR { continue }
                return "cannot write \(path): \(String(cString: strerror(errno)))"
            }
            written += count
        }
        return nil
    }

    /// Why a run could not be written or read.
    private struct RunFailure: Error {
        var reason: String
    }

    /// Hands the entries of the runs at `paths` to `body` in order (by place: the order noted
    /// breaks ties, whatever run an entry is in).
    private static func merge(
        _ paths: [String], _ body: (Place, UnsafeRawBufferPointer) throws(RunFailure) -> Void
    ) throws(RunFailure) {
        var readers: [RunReader] = []
        for path in paths { readers.append(try RunReader(path: path)) }
        if readers.count == 1 {
            let reader = readers[0]
            while let place = try reader.next() {
                try reader.withBytes { bytes throws(RunFailure) in try body(place, bytes) }
            }
            return
        }
        struct Head: Comparable {
            var place: Place
            var reader: Int
            static func < (lhs: Head, rhs: Head) -> Bool { lhs.place < rhs.place }
        }
        var heads = Heap<Head>()
        for (number, reader) in readers.enumerated() {
            if let place = try reader.next() { heads.insert(Head(place: place, reader: number)) }
        }
        while let head = heads.popMin() {
            let reader = readers[head.reader]
            try reader.withBytes { bytes throws(RunFailure) in try body(head.place, bytes) }
            if let place = try reader.next() { heads.insert(Head(place: place, reader: head.reader)) }
        }
    }

    /// Writes a run's entries through a buffer.
    private final class RunWriter {
        let path: String
        private let descriptor: Int32
        private var buffer: [UInt8] = []

        init(path: String) throws(RunFailure) {
            self.path = path
            DiskStep.reach("create \(path)")
            descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw RunFailure(reason: "cannot create \(path): \(String(cString: strerror(errno)))")
            }
            buffer.reserveCapacity(RejectsSpool.readSize)
        }

        deinit {
            systemClose(descriptor)
        }

        func append(_ place: Place, _ bytes: UnsafeRawBufferPointer) throws(RunFailure) {
            RejectsSpool.appendHeader(place, length: bytes.count, to: &buffer)
            buffer.append(contentsOf: bytes)
            if buffer.count >= RejectsSpool.readSize { try flush() }
        }

        /// Writes what is buffered.
        func finish() throws(RunFailure) {
            try flush()
        }

        private func flush() throws(RunFailure) {
            let failure = buffer.withUnsafeBytes { RejectsSpool.writeAll($0, to: descriptor, path: path) }
            buffer.removeAll(keepingCapacity: true)
            if let failure { throw RunFailure(reason: failure) }
        }
    }

    /// Reads a run's entries one after another through a buffer.
    private final class RunReader {
        let path: String
        private let descriptor: Int32
        private var buffer: [UInt8]
        /// The current entry's bytes (after its header) in `buffer`, and the end of the data
        /// read: `start + length <= end <= buffer.count` (``fill(_:)`` has the entry whole), so
        /// the header reads and ``withBytes(_:)`` stay inside the buffer.
        private var start = 0
        private var length = 0
        private var end = 0

        init(path: String) throws(RunFailure) {
            self.path = path
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw RunFailure(reason: "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            buffer = [UInt8](repeating: 0, count: RejectsSpool.readSize)
        }

        deinit {
            systemClose(descriptor)
        }

        /// Moves to the next entry; returns its place, or `nil` at the end of the run.
        func next() throws(RunFailure) -> Place? {
            start += length
            length = 0
            guard try fill(RejectsSpool.headerSize) else { return nil }
            let (place, count) = buffer.withUnsafeBytes { raw in
                (
                    Place(
                        line: Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: Int64.self))),
                        number: Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: start + 8, as: Int64.self)))
                    ),
                    Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start + 16, as: UInt32.self)))
                )
            }
            start += RejectsSpool.headerSize
            guard try fill(count) else { throw RunFailure(reason: "\(path): cut short") }
            length = count
            return place
        }

        /// Calls `body` with the current entry's bytes.
        func withBytes(_ body: (UnsafeRawBufferPointer) throws(RunFailure) -> Void) throws(RunFailure) {
            // `withUnsafeBytes` rethrows any error: the body's is handed out as a result.
            let result = buffer.withUnsafeBytes { raw -> Result<Void, RunFailure> in
                do throws(RunFailure) {
                    try body(UnsafeRawBufferPointer(rebasing: raw[start..<start + length]))
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            try result.get()
        }

        /// Has `count` bytes from `start` in the buffer; returns false when the run ends first.
        private func fill(_ count: Int) throws(RunFailure) -> Bool {
            guard end - start < count else { return true }
            if start > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    memmove(base, base + start, end - start)
                }
                end -= start
                start = 0
            }
            if buffer.count < count { buffer += [UInt8](repeating: 0, count: count - buffer.count) }
            while end < count {
                let read = buffer.withUnsafeMutableBytes { raw in
                    systemRead(descriptor, raw.baseAddress.map { $0 + end }, raw.count - end)
                }
                if read < 0 {
                    if errno == EINTR { continue }
                    throw RunFailure(reason: "cannot read \(path): \(String(cString: strerror(errno)))")
                }
                if read == 0 { return false }
                end += read
            }
            return true
        }
    }

    private static func appendHeader(_ place: Place, length: Int, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: Int64(place.line).littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: Int64(place.number).littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: length).littleEndian) { bytes.append(contentsOf: $0) }
    }
}

/// The system's calls, by names no method here hides.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, bytes, count)
}

private func systemClose(_ descriptor: Int32) {
    _ = close(descriptor)
}
