import Foundation

/// Writes Graphite plaintext to carbon over TCP: connect, send the whole batch, close.
///
/// A batch is delivered when every byte was written and the connection closed cleanly;
/// anything else is `unreachable` (carbon never answers, so nothing is ever `refused`).
package struct GraphiteSink: MetricsSink {
    package let name = "graphite"
    package let host: String
    package let port: UInt16
    package let timeout: TimeInterval

    /// - Parameters:
    ///   - address: `HOST:PORT`, e.g. `127.0.0.1:2003`.
    ///   - timeout: how long a connection or a write may take, in seconds.
    package init?(address: String, timeout: TimeInterval = 30) {
        guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...]),
            colon > address.startIndex
        else { return nil }
        self.host = String(address[..<colon])
        self.port = port
        self.timeout = timeout
    }

    package func send(_ batch: [UInt8]) -> Delivery {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let address = found else {
            return .unreachable("cannot resolve \(host)")
        }
        defer { freeaddrinfo(found) }
        let socket = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
        guard socket >= 0 else { return .unreachable(Self.lastError("socket")) }
        defer { close(socket) }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
            return .unreachable(Self.lastError("connect to \(host):\(port)"))
        }
        var written = 0
        while written < batch.count {
            let count = batch.withUnsafeBytes { raw in
                Glibc.send(socket, raw.baseAddress.map { $0 + written }, raw.count - written, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EINTR { continue }
                return .unreachable(Self.lastError("send"))
            }
            written += count
        }
        guard shutdown(socket, Int32(SHUT_WR)) == 0 else { return .unreachable(Self.lastError("shutdown")) }
        // Wait for carbon to close its side, so that the bytes were read before we report them sent.
        var byte: UInt8 = 0
        while true {
            let count = recv(socket, &byte, 1, 0)
            if count == 0 { return .delivered }
            if count < 0 && errno != EINTR { return .unreachable(Self.lastError("waiting for carbon to close")) }
        }
    }

    private static func lastError(_ what: String) -> String {
        "\(what): \(String(cString: strerror(errno)))"
    }
}
