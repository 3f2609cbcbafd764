import Foundation

/// Writes Graphite plaintext to carbon over TCP: connect, send the whole batch, close.
///
/// A batch is delivered when every byte was written and carbon closed the connection after
/// reading them; anything else is `unreachable` (carbon never answers, so nothing is ever
/// `refused`). The whole exchange, connecting included, has `timeout` seconds: the socket does
/// not block, and each wait is a `poll(2)` for the time left (no processor time is used while
/// waiting); past it the batch is `unreachable` with `timed out after 30 s connecting to carbon
/// at HOST:PORT` (or sending to, or waiting for it to close the connection).
package struct GraphiteSink: MetricsSink {
    package let name = "graphite"
    package let host: String
    package let port: UInt16
    package let timeout: TimeInterval

    /// - Parameters:
    ///   - address: `HOST:PORT`, e.g. `127.0.0.1:2003`.
    ///   - timeout: how long sending a batch may take, connecting included, in seconds.
    package init?(address: String, timeout: TimeInterval = 30) {
        guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...]),
            colon > address.startIndex
        else { return nil }
        self.host = String(address[..<colon])
        self.port = port
        self.timeout = timeout
    }

    package func send(_ batch: [UInt8]) -> Delivery {
        let deadline = ContinuousClock.now + .milliseconds(max(1, Int((timeout * 1000).rounded(.up))))
        let carbon = "carbon at \(host):\(port)"
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let address = found else {
            return .unreachable("cannot resolve \(host)")
        }
        defer { freeaddrinfo(found) }
        let socket = Glibc.socket(
            address.pointee.ai_family,
            address.pointee.ai_socktype | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue),
            address.pointee.ai_protocol)
        guard socket >= 0 else { return .unreachable(Self.lastError("socket")) }
        defer { close(socket) }
        /// Waits until the socket is ready for `events`; nil when it is, else why not.
        func wait(for events: Int32, _ what: String) -> String? {
            while true {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { return "timed out after \(timeoutText(timeout)) s \(what)" }
                var entry = pollfd(fd: socket, events: Int16(events), revents: 0)
                let ready = poll(&entry, 1, Self.milliseconds(left))
                if ready > 0 { return nil }
                if ready < 0 && errno != EINTR { return Self.lastError("poll") }
            }
        }
        if connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0 {
            guard errno == EINPROGRESS || errno == EINTR else {
                return .unreachable(Self.lastError("connect to \(host):\(port)"))
            }
            if let problem = wait(for: Int32(POLLOUT), "connecting to \(carbon)") { return .unreachable(problem) }
            var failure: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(socket, SOL_SOCKET, SO_ERROR, &failure, &size)
            guard failure == 0 else {
                return .unreachable("connect to \(host):\(port): \(String(cString: strerror(failure)))")
            }
        }
        var written = 0
        while written < batch.count {
            let count = batch.withUnsafeBytes { raw in
                Glibc.send(socket, raw.baseAddress.map { $0 + written }, raw.count - written, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EINTR { continue }
                guard errno == EAGAIN || errno == EWOULDBLOCK else { return .unreachable(Self.lastError("send")) }
                if let problem = wait(for: Int32(POLLOUT), "sending to \(carbon)") { return .unreachable(problem) }
                continue
            }
            written += count
        }
        guard shutdown(socket, Int32(SHUT_WR)) == 0 else { return .unreachable(Self.lastError("shutdown")) }
        // Wait for carbon to close its side, so that the bytes were read before we report them sent.
        var byte: UInt8 = 0
        while true {
            let count = recv(socket, &byte, 1, 0)
            if count == 0 { return .delivered }
            if count > 0 || errno == EINTR { continue }
            guard errno == EAGAIN || errno == EWOULDBLOCK else {
                return .unreachable(Self.lastError("waiting for carbon to close"))
            }
            if let problem = wait(for: Int32(POLLIN), "waiting for \(carbon) to close the connection") {
                return .unreachable(problem)
            }
        }
    }

    /// A time left, in whole milliseconds rounded up, for `poll(2)`.
    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let perMillisecond: Int64 = 1_000_000_000_000_000
        return Int32(clamping: seconds * 1000 + (attoseconds + perMillisecond - 1) / perMillisecond)
    }

    private static func lastError(_ what: String) -> String {
        "\(what): \(String(cString: strerror(errno)))"
    }
}
