import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Writes line protocol to InfluxDB 1.x (`POST /write?db=...&precision=ns`).
///
/// A 204 is a delivery; a 5xx or no answer is `unreachable`; any other answer is `refused`,
/// with InfluxDB's error message (for a partial write it names the lines it dropped).
public struct InfluxSink: MetricsSink {
    public let name = "influx"
    /// The write URL, with `precision=ns` added when it has no precision.
    public let url: URL
    public let timeout: TimeInterval

    /// - Parameter url: InfluxDB's write URL, e.g. `http://127.0.0.1:8086/write?db=telemetry`.
    public init?(url: String, timeout: TimeInterval = 30) {
        guard var components = URLComponents(string: url), components.scheme == "http" || components.scheme == "https",
            components.host != nil
        else { return nil }
        if components.path.isEmpty || components.path == "/" { components.path = "/write" }
        var items = components.queryItems ?? []
        if !items.contains(where: { $0.name == "precision" }) {
            items.append(URLQueryItem(name: "precision", value: "ns"))
        }
        components.queryItems = items
        guard let resolved = components.url else { return nil }
        self.url = resolved
        self.timeout = timeout
    }

    public func send(_ batch: [UInt8]) -> Delivery {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.httpBody = Data(batch)
        request.setValue("text/plain; charset=utf-8", forHTTPHeaderField: "Content-Type")
        let answer = Answer()
        let done = DispatchSemaphore(value: 0)
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            answer.set(data: data, status: (response as? HTTPURLResponse)?.statusCode, error: error)
            done.signal()
        }
        task.resume()
        done.wait()
        let (data, status, error) = answer.get()
        guard let status else { return .unreachable(error.map { "\($0.localizedDescription)" } ?? "no answer") }
        switch status {
        case 200..<300: return .delivered
        case 500...: return .unreachable("HTTP \(status)\(Self.message(data))")
        default: return .refused("HTTP \(status)\(Self.message(data))")
        }
    }

    /// InfluxDB's `{"error":"..."}`, as `: ...`.
    private static func message(_ data: Data?) -> String {
        guard let data, !data.isEmpty else { return "" }
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let error = object["error"] as? String
        {
            return ": " + error
        }
        return ": " + String(decoding: data.prefix(500), as: UTF8.self)
    }
}

/// The completion handler's results, handed to the waiting thread.
private final class Answer: @unchecked Sendable {
    // Written once by the completion handler before the semaphore is signalled, read after.
    private var data: Data?
    private var status: Int?
    private var error: (any Error)?

    func set(data: Data?, status: Int?, error: (any Error)?) {
        self.data = data
        self.status = status
        self.error = error
    }

    func get() -> (Data?, Int?, (any Error)?) { (data, status, error) }
}
