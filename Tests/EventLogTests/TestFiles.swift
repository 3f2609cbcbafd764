import EventLog
import Foundation

/// A temporary directory for one test, removed when the value is deinitialized.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("EventLogTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `data` to `name` and returns its path.
    @discardableResult
    func write(_ data: Data, to name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file.path
    }

    /// Writes text to `name` and returns its path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        try write(Data(text.utf8), to: name)
    }

    /// The path of `name` in the directory (not created).
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }
}

enum GzipError: Error {
    case failed(Int32)
}

/// Compresses `data` with `/bin/gzip` into one gzip member.
func gzip(_ data: Data, level: Int = 6) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/gzip")
    process.arguments = ["-c", "-n", "-\(level)"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    // Write from another thread so that a full output pipe cannot block the writer.
    let writer = Thread {
        input.fileHandleForWriting.write(data)
        try? input.fileHandleForWriting.close()
    }
    writer.start()
    let compressed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw GzipError.failed(process.terminationStatus) }
    return compressed
}

func gzip(_ text: String) throws -> Data {
    try gzip(Data(text.utf8))
}

/// What a ``LineReader`` reported, in a comparable form.
enum ReadEvent: Equatable, CustomStringConvertible {
    case line(Int, String)
    case tooLong(Int, prefix: String)

    var description: String {
        switch self {
        case .line(let number, let text): return "\(number): \(text)"
        case .tooLong(let number, let prefix): return "\(number): too long (\(prefix.prefix(20))...)"
        }
    }
}

/// Reads a whole file; returns the events and the error that ended reading, if any.
func readEvents(
    _ path: String,
    configuration: LineReaderConfiguration = LineReaderConfiguration()
) throws -> (events: [ReadEvent], error: EventLogError?) {
    let reader = try LineReader(path: path, configuration: configuration)
    var events: [ReadEvent] = []
    do {
        try reader.forEachLine { event in
            switch event {
            case .line(let line):
                precondition(line.readableCount >= line.bytes.count + LineReader.padding)
                events.append(.line(line.number, String(decoding: line.bytes, as: UTF8.self)))
            case .tooLong(let number, let prefix):
                events.append(.tooLong(number, prefix: String(decoding: prefix, as: UTF8.self)))
            }
        }
        return (events, nil)
    } catch let error as EventLogError {
        return (events, error)
    }
}

/// A log of `count` records of varying lengths, with blank and CRLF lines mixed in.
func sampleLog(count: Int) -> (text: String, lines: [ReadEvent]) {
    var text = ""
    var lines: [ReadEvent] = []
    var number = 0
    for index in 0..<count {
        number += 1
        let record =
            #"{"ts":\#(1_763_622_902_125 + index),"instrument":"ios-\#(index % 7)","tracker":\#(index % 3),"action":"Ping","attrs":{"title":"\#(String(repeating: "é", count: index % 40))"}}"#
        lines.append(.line(number, record))
        text += record + (index % 5 == 0 ? "\r\n" : "\n")
        if index % 11 == 0 {
            number += 1
            text += index % 2 == 0 ? "\n" : "  \t\r\n"
        }
    }
    return (text, lines)
}
