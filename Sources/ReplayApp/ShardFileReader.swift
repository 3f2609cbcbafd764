import Foundation

/// Reads a file front to back in pieces of known length or in lines, with a buffer: how
/// `merge` walks a shard's reports and index without holding them in memory.
final class ShardFileReader {
    let path: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false

    private static let chunkSize = 1 << 20

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    init(path: String) throws(Failure) {
        self.path = path
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw Failure(description: "\(path): cannot be read")
        }
        self.handle = handle
    }

    deinit {
        try? handle.close()
    }

    /// The next `count` bytes; fails when the file ends first.
    func read(count: Int) throws(Failure) -> [UInt8] {
        while buffer.count - position < count && !atEnd { try fill() }
        guard buffer.count - position >= count else {
            throw Failure(description: "\(path): ends \(count - (buffer.count - position)) bytes early")
        }
        defer { position += count }
        return Array(buffer[position..<position + count])
    }

    /// The next line without its newline, or `nil` at the end of the file.
    func readLine() throws(Failure) -> [UInt8]? {
        var scanned = 0
        while true {
            if let newline = buffer[(position + scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
                defer { position = newline + 1 }
                return Array(buffer[position..<newline])
            }
            if atEnd {
                guard position < buffer.count else { return nil }
                defer { position = buffer.count }
                return Array(buffer[position...])
            }
            scanned = buffer.count - position
            try fill()
        }
    }

    /// Everything left.
    func readRest() throws(Failure) -> [UInt8] {
        while !atEnd { try fill() }
        defer { position = buffer.count }
        return Array(buffer[position...])
    }

    private func fill() throws(Failure) {
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        let data: Data?
        do {
            data = try handle.read(upToCount: Self.chunkSize)
        } catch {
            throw Failure(description: "\(path): \(error.localizedDescription)")
        }
        guard let data, !data.isEmpty else {
            atEnd = true
            return
        }
        buffer.append(contentsOf: data)
    }
}
