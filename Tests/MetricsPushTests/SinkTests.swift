import Foundation
import Testing

@testable import MetricsPush

/// A sink that records what another one answered.
final class Recording: MetricsSink {
    let inner: any MetricsSink
    private(set) var answers: [Delivery] = []

    init(_ inner: any MetricsSink) {
        self.inner = inner
    }

    var name: String { inner.name }

    func send(_ batch: [UInt8]) -> Delivery {
        let answer = inner.send(batch)
        answers.append(answer)
        return answer
    }
}

/// `gzip -dc` of some bytes.
func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("body-\(UUID().uuidString).gz")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data(bytes).write(to: file)
    let gzip = Process()
    gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
    gzip.arguments = ["-dc", file.path]
    let out = Pipe()
    gzip.standardOutput = out
    try gzip.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    gzip.waitUntilExit()
    return Array(data)
}

/// The sinks against servers on loopback that answer, refuse, fail, never answer or never take
/// the connection. The timeouts are tiny (0.2 s); nothing here measures time.
struct SinkTests {
    private let batch = Array("avt_openavt,instrument=a StartTime=1i 1\navt_openavt,instrument=b StartTime=2i 2\n".utf8)

    /// Pushes one batch to a sink, three tries; returns each try's answer and the outcome.
    private func pushThrice(to sink: any MetricsSink) throws -> ([Delivery], Pusher.Outcome) {
        let directory = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recording = Recording(sink)
        var waits: [Duration] = []
        var pusher = Pusher(sink: recording, spool: Spool(directory: directory)) { waits.append($0) }
        pusher.attempts = 3
        let outcome = pusher.push([batch])
        #expect(waits.count == 2)
        return (recording.answers, outcome)
    }

    /// InfluxDB that takes the connection and never answers: every try ends after the timeout,
    /// saying so and naming the server, and the batch goes to the spool.
    @Test func anInfluxThatNeverAnswersTimesOutOnEveryTry() throws {
        let server = try SilentListener()
        let url = "http://127.0.0.1:\(server.port)/write?db=x"
        let (answers, outcome) = try pushThrice(to: try InfluxSink(url: url, timeout: 0.2))
        let timedOut = Delivery.unreachable("timed out after 0.2 s waiting for \(url)&precision=ns")
        #expect(answers == [timedOut, timedOut, timedOut])
        #expect(outcome.spooled == 1)
        #expect(server.connectionsSoFar() == 3)
    }

    /// Carbon that takes the connection and never closes it: the same.
    @Test func aCarbonThatNeverClosesTimesOutOnEveryTry() throws {
        let server = try SilentListener()
        let sink = try #require(GraphiteSink(address: "127.0.0.1:\(server.port)", timeout: 0.2))
        let (answers, outcome) = try pushThrice(to: sink)
        let timedOut = Delivery.unreachable(
            "timed out after 0.2 s waiting for carbon at 127.0.0.1:\(server.port) to close the connection")
        #expect(answers == [timedOut, timedOut, timedOut])
        #expect(outcome.spooled == 1)
        #expect(server.connectionsSoFar() == 3)
    }

    /// A server too busy to take a connection (its queue full, new ones dropped): connecting
    /// times out too.
    @Test func aServerThatNeverTakesTheConnectionTimesOut() throws {
        let server = try SilentListener(backlog: 0)
        let filler = try #require(server.connectOne())
        defer { close(filler) }
        let url = "http://127.0.0.1:\(server.port)/write?db=x"
        #expect(
            try InfluxSink(url: url, timeout: 0.2).send(batch)
                == .unreachable("timed out after 0.2 s waiting for \(url)&precision=ns"))
        #expect(
            GraphiteSink(address: "127.0.0.1:\(server.port)", timeout: 0.2)?.send(batch)
                == .unreachable("timed out after 0.2 s connecting to carbon at 127.0.0.1:\(server.port)"))
    }

    /// A port that refuses connections is unreachable at once, with the system's reason.
    @Test func aClosedPortIsUnreachableAndNamesTheServer() throws {
        let closed = try SilentListener(listening: false)
        let url = "http://127.0.0.1:\(closed.port)/write?db=x"
        #expect(
            try InfluxSink(url: url, timeout: 2).send(batch)
                == .unreachable("cannot connect to \(url)&precision=ns: Connection refused"))
        #expect(
            GraphiteSink(address: "127.0.0.1:\(closed.port)", timeout: 2)?.send(batch)
                == .unreachable("connect to 127.0.0.1:\(closed.port): Connection refused"))
    }

    /// InfluxDB's answers: a 2xx delivers, a 4xx refuses with InfluxDB's message, a 5xx is
    /// unreachable, a redirect is refused naming where it points. Requests are POSTs of the
    /// gzip-compressed batch with the token.
    @Test func influxAnswersAndRequests() throws {
        let server = try FakeInflux(answers: [
            .init(status: 204),
            .init(
                status: 400, body: #"{"error":"partial write: unable to parse 'x': invalid field format dropped=0"}"#),
            .init(status: 503, body: #"{"error":"shutting down"}"#),
            .init(status: 307, headers: ["Location: https://influx.example/write"]),
        ])
        defer { server.stop() }
        let sink = try InfluxSink(
            url: "http://127.0.0.1:\(server.port)/api/v2/write?org=acme&bucket=b", secret: "t0k3n", timeout: 5)
        #expect(sink.send(batch) == .delivered)
        #expect(
            sink.send(batch) == .refused("HTTP 400: partial write: unable to parse 'x': invalid field format dropped=0")
        )
        #expect(sink.send(batch) == .unreachable("HTTP 503: shutting down"))
        #expect(
            sink.send(batch)
                == .refused(
                    "HTTP 307: redirected to https://influx.example/write, which is not followed: give that URL"))
        let requests = server.requests
        try #require(requests.count == 4)
        let request = requests[0]
        #expect(request.head.hasPrefix("POST /api/v2/write?org=acme&bucket=b&precision=ns HTTP/1.1\r\n"))
        #expect(request.header("Authorization") == "Token t0k3n")
        #expect(request.header("Content-Encoding") == "gzip")
        #expect(request.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(request.header("Expect") == nil)
        #expect(try gunzip(request.body) == batch)
        // 1.x with a user: the password goes as Basic authorization, never in the URL.
        let v1 = try InfluxSink(url: "http://avt@127.0.0.1:\(server.port)/write?db=t", secret: "pw", timeout: 5)
        _ = v1.send(batch)
        let last = try #require(server.requests.last)
        #expect(last.head.hasPrefix("POST /write?db=t&precision=ns HTTP/1.1\r\n"))
        #expect(last.header("Authorization") == "Basic YXZ0OnB3")
    }

    /// A server that echoes the request's `Authorization` header (or the password it holds)
    /// in its error: what is shown has every form of the secret masked, no control
    /// character, and at most ``InfluxSink/shownAnswerLimit`` characters.
    @Test func aServerEchoingTheSecretHasItMasked() throws {
        let long = String(repeating: "x", count: 2_000)
        let server = try FakeInflux(answers: [
            .init(status: 401, body: #"{"error":"bad header Authorization: Token t0k3n-s3cr3t"}"#),
            .init(status: 400, body: "you sent Basic YXZ0OnB3LXNlY3JldA== for pw-secret\n\u{1B}[31mred\u{1B}[0m"),
            .init(status: 400, body: "t0k3n-s3cr3t " + long),
        ])
        defer { server.stop() }
        let v2 = try InfluxSink(
            url: "http://127.0.0.1:\(server.port)/api/v2/write?org=a&bucket=b", secret: "t0k3n-s3cr3t", timeout: 5)
        #expect(v2.send(batch) == .refused("HTTP 401: bad header Authorization: ***"))
        let v1 = try InfluxSink(url: "http://avt@127.0.0.1:\(server.port)/write?db=t", secret: "pw-secret", timeout: 5)
        #expect(v1.send(batch) == .refused("HTTP 400: you sent *** for ***  [31mred [0m"))
        guard case .refused(let cut) = v2.send(batch) else {
            Issue.record("a 400 is a refusal")
            return
        }
        #expect(cut.hasPrefix("HTTP 400: *** xxx"))
        #expect(!cut.contains("t0k3n"))
        #expect(cut.hasSuffix("x…"))
        #expect(cut.count == "HTTP 400: ".count + InfluxSink.shownAnswerLimit)
    }
}
