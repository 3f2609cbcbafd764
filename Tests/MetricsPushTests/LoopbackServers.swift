import Foundation
import Synchronization
import Testing

/// A TCP port on loopback that listens and never accepts by itself: the kernel completes the
/// connections (up to `backlog` of them), which then wait, never answered.
final class SilentListener: Sendable {
    let descriptor: Int32
    let port: UInt16

    /// With `backlog` 0 and one connection made (``connectOne()``), further connections are not
    /// even completed: their `SYN`s are dropped, as by a server too busy to take them. Not
    /// `listening`, the port refuses every connection.
    init(backlog: Int32 = 16, listening: Bool = true) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && (!listening || listen(descriptor, backlog) == 0)
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        try #require(descriptor >= 0 && bound)
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit {
        close(descriptor)
    }

    /// A connection from this process, completed; nil if it could not be made.
    func connectOne() -> Int32? {
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(client)
            return nil
        }
        return client
    }

    /// The connections others made so far. A connection of its own is made last and the
    /// waiting ones accepted up to it: the kernel queues them in the order they were made.
    func connectionsSoFar() -> Int {
        guard let marker = connectOne() else { return -1 }
        defer { close(marker) }
        var own = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &own) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(marker, $0, &length) }
        }
        var count = 0
        while true {
            var peer = sockaddr_in()
            var size = socklen_t(MemoryLayout<sockaddr_in>.size)
            let accepted = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(descriptor, $0, &size) }
            }
            guard accepted >= 0 else { return -1 }
            close(accepted)
            if peer.sin_port == own.sin_port { return count }
            count += 1
        }
    }
}

/// A loopback HTTP server that answers each request from a script (the last answer repeats)
/// and records the requests, one connection each.
final class FakeInflux: Sendable {
    struct Request: Sendable {
        var head: String
        var body: [UInt8]

        func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    /// An answer: its status, body and extra header lines.
    struct Answer: Sendable {
        var status: Int
        var body = ""
        var headers: [String] = []
    }

    let listener: SilentListener
    private let answers: [Answer]
    private let recorded = Mutex<[Request]>([])
    private let stopped = DispatchSemaphore(value: 0)

    init(answers: [Answer]) throws {
        listener = try SilentListener()
        self.answers = answers
        Thread.detachNewThread { [self] in
            serve()
            stopped.signal()
        }
    }

    var port: UInt16 { listener.port }
    var requests: [Request] { recorded.withLock { $0 } }

    /// Stops serving (waking the thread blocked in `accept`) and waits for the thread.
    func stop() {
        shutdown(listener.descriptor, Int32(SHUT_RDWR))
        stopped.wait()
    }

    private func serve() {
        while true {
            let connection = accept(listener.descriptor, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            guard let request = Self.read(connection) else { continue }
            let index = recorded.withLock {
                $0.append(request)
                return $0.count - 1
            }
            let answer = answers.isEmpty ? Answer(status: 204) : answers[min(index, answers.count - 1)]
            let head =
                ["HTTP/1.1 \(answer.status) X", "Content-Type: application/json"] + answer.headers + [
                    "Content-Length: \(answer.body.utf8.count)", "Connection: close",
                ]
            let text = head.joined(separator: "\r\n") + "\r\n\r\n" + answer.body
            let bytes = Array(text.utf8)
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { raw in
                    raw.baseAddress.map { write(connection, $0 + written, raw.count - written) } ?? 0
                }
                guard count > 0 else { break }
                written += count
            }
        }
    }

    /// A request's head and its `Content-Length` bytes of body.
    private static func read(_ connection: Int32) -> Request? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var headEnd: Int?
        var length = 0
        while headEnd.map({ bytes.count < $0 + length }) ?? true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(connection, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            bytes += chunk[..<count]
            if headEnd == nil, let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) {
                headEnd = end.upperBound
                let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
                length = Request(head: head, body: []).header("Content-Length").flatMap { Int($0) } ?? 0
            }
        }
        guard let headEnd else { return nil }
        return Request(
            head: String(decoding: bytes[..<(headEnd - 4)], as: UTF8.self),
            body: Array(bytes[headEnd..<(headEnd + length)]))
    }
}

/// Runs the built `avt-replay` binary, as an operator would: the one in `AVT_REPLAY_BINARIES`
/// when set (the test command's release build), else the one beside the test bundle.
struct AvtReplay {
    static let binary =
        (ProcessInfo.processInfo.environment["AVT_REPLAY_BINARIES"].map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
        .appendingPathComponent("avt-replay")

    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The bundled sample logs.
    static var samples: [String] {
        let folder = packageRoot.appendingPathComponent("samples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl.gz") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    let process = Process()
    let standardError = Pipe()
    private var errorText: [UInt8] = []

    /// Starts it with `arguments`.
    init(_ arguments: [String]) throws {
        process.executableURL = Self.binary
        process.arguments = arguments
        process.currentDirectoryURL = Self.packageRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = standardError
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Reads its standard error until it holds `text` (true) or ends (false).
    mutating func waitForError(containing text: String) -> Bool {
        while !String(decoding: errorText, as: UTF8.self).contains(text) {
            let data = standardError.fileHandleForReading.availableData
            if data.isEmpty { return false }
            errorText += data
        }
        return true
    }

    /// Waits for it to end; its exit status and standard error.
    mutating func finish() -> (status: Int32, standardError: String) {
        errorText += standardError.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errorText, as: UTF8.self))
    }
}
