import Foundation
import Testing

@testable import MetricsPush

/// A sink that answers from a script and records what it was sent.
final class ScriptedSink: MetricsSink, @unchecked Sendable {
    let name = "fake"
    var answers: [Delivery]
    private(set) var sent: [String] = []

    init(_ answers: [Delivery]) {
        self.answers = answers
    }

    func send(_ batch: [UInt8]) -> Delivery {
        sent.append(String(decoding: batch, as: UTF8.self))
        return answers.isEmpty ? .delivered : answers.removeFirst()
    }
}

struct PusherTests {
    private func makeSpool() throws -> Spool {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
        return Spool(directory: directory.path)
    }

    @Test func anUnreachableServerIsTriedWithBackoffThenEverythingIsSpooled() throws {
        let spool = try makeSpool()
        defer { try? FileManager.default.removeItem(atPath: spool.directory) }
        let sink = ScriptedSink([.unreachable("down"), .unreachable("down"), .unreachable("down")])
        var waits: [Duration] = []
        let pusher = Pusher(sink: sink, spool: spool) { waits.append($0) }
        let outcome = pusher.push([Array("a\n".utf8), Array("b\n".utf8)])
        #expect(sink.sent == ["a\n", "a\n", "a\n"])
        #expect(waits == [.milliseconds(200), .milliseconds(400)])
        #expect(outcome.spooled == 2)
        #expect(outcome.delivered == 0)
        let kept = spool.pending(for: "fake").map { (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "" }
        #expect(kept == ["a\n", "b\n"])
    }

    @Test func theSpoolGoesFirstAndLeavesOnlyWhenDelivered() throws {
        let spool = try makeSpool()
        defer { try? FileManager.default.removeItem(atPath: spool.directory) }
        _ = try spool.keep(Array("old1\n".utf8), for: "fake")
        _ = try spool.keep(Array("old2\n".utf8), for: "fake")
        let sink = ScriptedSink([.delivered, .unreachable("down"), .unreachable("down"), .unreachable("down")])
        let pusher = Pusher(sink: sink, spool: spool) { _ in }
        let outcome = pusher.push([Array("new\n".utf8)])
        #expect(sink.sent == ["old1\n", "old2\n", "old2\n", "old2\n"])
        #expect(outcome.flushed == 1)
        #expect(outcome.spooled == 1)
        let kept = spool.pending(for: "fake").map { (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "" }
        #expect(kept == ["old2\n", "new\n"])
        // Back up: everything goes, in order, once.
        let later = ScriptedSink([])
        let flushed = Pusher(sink: later, spool: spool) { _ in }.push([[UInt8]]())
        #expect(later.sent == ["old2\n", "new\n"])
        #expect(flushed.flushed == 2)
        #expect(spool.pending(for: "fake").isEmpty)
    }

    /// A refused batch (a database not created yet) is reported with the server's answer and
    /// kept, not retried in a loop: a later push delivers it once the server takes it.
    @Test func aRefusedBatchIsReportedAndKeptForALaterPush() throws {
        let spool = try makeSpool()
        defer { try? FileManager.default.removeItem(atPath: spool.directory) }
        let sink = ScriptedSink([.refused("HTTP 404: database not found: \"telemetry\""), .delivered])
        let outcome = Pusher(sink: sink, spool: spool) { _ in }.push([Array("x\n".utf8), Array("y\n".utf8)])
        #expect(outcome.refused.count == 1)
        #expect(outcome.refused.first?.hasSuffix("(kept): HTTP 404: database not found: \"telemetry\"") == true)
        #expect(outcome.delivered == 1)
        #expect(!outcome.deliveredEverything)
        #expect(sink.sent == ["x\n", "y\n"])
        #expect(spool.pending(for: "fake").count == 1)
        let later = ScriptedSink([])
        let flushed = Pusher(sink: later, spool: spool) { _ in }.push([[UInt8]]())
        #expect(later.sent == ["x\n"])
        #expect(flushed.flushed == 1)
        #expect(spool.pending(for: "fake").isEmpty)
    }

    /// Batches the spool cannot keep (its folder cannot be made) are lost, and said so, each
    /// named by its place in the push and its lines, with why.
    @Test func batchesTheSpoolCannotKeepAreLostEachNamedWithWhy() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spool-file-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("x".utf8).write(to: file)
        let spool = Spool(directory: file.appendingPathComponent("spool").path)
        let sink = ScriptedSink([.unreachable("Connection refused"), .unreachable("Connection refused")])
        var pusher = Pusher(sink: sink, spool: spool) { _ in }
        pusher.attempts = 2
        let outcome = pusher.push([Array("x\ny\n".utf8), Array("z\n".utf8), Array("w".utf8)], from: "metrics.influx")
        #expect(outcome.delivered == 0)
        #expect(outcome.spooled == 0)
        #expect(outcome.unreachable == "Connection refused")
        let reason = "cannot keep a batch in \(spool.directory): "
        #expect(outcome.lost.count == 3)
        #expect(
            outcome.lost.map { $0.components(separatedBy: reason).first ?? "" } == [
                "batch 1 of this push (lines 1–2 of metrics.influx): ",
                "batch 2 of this push (lines 3–3 of metrics.influx): ",
                "batch 3 of this push (lines 4–4 of metrics.influx): ",
            ])
        #expect(outcome.lost.allSatisfy { $0.contains(reason) })
    }

    @Test(arguments: [1, 2, 3, 5_000])
    func linesAreBatchedWholeAndEndInALineFeed(size: Int) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("one\ntwo\nthree\nfour\nfive".utf8).write(to: file)
        let batches = Array(LineBatches(path: file.path, lines: size)).map { String(decoding: $0, as: UTF8.self) }
        #expect(batches.joined() == "one\ntwo\nthree\nfour\nfive\n")
        #expect(batches.allSatisfy { $0.hasSuffix("\n") })
        #expect(batches.dropLast().allSatisfy { $0.split(separator: "\n").count == size })
    }

    @Test func sinksCheckTheirAddresses() throws {
        #expect(
            try InfluxSink(url: "http://127.0.0.1:8086/write?db=t").url.absoluteString
                == "http://127.0.0.1:8086/write?db=t&precision=ns")
        #expect(try InfluxSink(url: "http://h:1?db=t").url.path == "/write")
        #expect(throws: InfluxSink.AddressError.self) { try InfluxSink(url: "ftp://h/write") }
        #expect(GraphiteSink(address: "127.0.0.1:2003")?.port == 2003)
        #expect(GraphiteSink(address: "nohost") == nil)
        #expect(GraphiteSink(address: "h:99999") == nil)
    }

    /// A 1.x URL needs its database; a 2.x/3.x one its org, bucket and token; a password or a
    /// token in the URL is refused, so that it stays out of shell histories and process lists.
    @Test func influxURLsOfBothAPIs() throws {
        let v2 = try InfluxSink(url: "http://h:8086/api/v2/write?org=acme&bucket=telemetry", secret: "t0k3n")
        #expect(v2.api == .v2)
        #expect(v2.url.absoluteString == "http://h:8086/api/v2/write?org=acme&bucket=telemetry&precision=ns")
        #expect(try InfluxSink(url: "http://avt@h:8086/write?db=t&rp=week", secret: "pw").api == .v1)
        #expect(try InfluxSink(url: "http://avt@h:8086/write?db=t", secret: "pw").url.user == nil)
        for (url, secret) in [
            ("http://h:8086/write", nil), ("http://h:8086/api/v2/write?org=acme", "t"),
            ("http://h:8086/api/v2/write?org=acme&bucket=b", nil), ("http://avt:pw@h:8086/write?db=t", nil),
            ("http://h:8086/write?db=t&u=avt&p=pw", nil), ("http://h:8086/write?db=t", "pw"),
            ("http://avt@h:8086/write?db=t", nil),
        ] as [(String, String?)] {
            #expect(throws: InfluxSink.AddressError.self, "\(url)") { try InfluxSink(url: url, secret: secret) }
        }
    }

    /// Bodies go gzip-compressed: `gzip -d` gives the batch back.
    @Test func bodiesAreGzipMembers() throws {
        let batch = Array(String(repeating: "avt_openavt,instrument=a,tracker=0 StartTime=1i 1\n", count: 2_000).utf8)
        let compressed = try #require(GzipBody.compress(batch))
        #expect(compressed.count < batch.count / 10)
        #expect(try gunzip(compressed) == batch)
        #expect(GzipBody.compress([]).map { $0.count > 0 } == true)
    }

    @Test func anUnusedPortIsUnreachable() {
        // Port 1 on loopback has no listener here: connect is refused at once.
        #expect(GraphiteSink(address: "127.0.0.1:1", timeout: 2)?.send(Array("a 1 1\n".utf8)) != .delivered)
    }
}

struct InfluxRefusalTests {
    private let batch = Array(
        """
        avt_openavt,instrument=a,tracker=0 StartTime=1.5 1
        avt_openavt,instrument=a,tracker=0 NumPlays=1i 2
        other,x=1 StartTime=2i 3
        avt_openavt,instrument=b,tracker=0 StartTime=2.5,playback_id="p" 4

        """.utf8)

    @Test func aFieldTypeConflictNamesTheLinesWithThatField() {
        let message =
            #"HTTP 400: partial write: field type conflict: input field "StartTime" on measurement "avt_openavt" is type float, already exists as type integer dropped=2"#
        let refusals = ScriptedSink([.refused(message)])
        let spool = Spool(directory: FileManager.default.temporaryDirectory.appendingPathComponent("s-\(UUID())").path)
        defer { try? FileManager.default.removeItem(atPath: spool.directory) }
        let outcome = Pusher(sink: InfluxNamed(refusals), spool: spool) { _ in }.push([batch])
        #expect(
            outcome.refused.map { $0.components(separatedBy: " (kept): ").last ?? "" } == [
                message + "\n  avt_openavt,instrument=a,tracker=0 StartTime=1.5 1"
                    + "\n  avt_openavt,instrument=b,tracker=0 StartTime=2.5,playback_id=\"p\" 4"
            ])
    }

    @Test func aParseErrorQuotesItsLine() {
        let message = "HTTP 400: partial write: unable to parse 'bad line': invalid field format dropped=0"
        let spool = Spool(directory: FileManager.default.temporaryDirectory.appendingPathComponent("s-\(UUID())").path)
        defer { try? FileManager.default.removeItem(atPath: spool.directory) }
        let outcome = Pusher(sink: InfluxNamed(ScriptedSink([.refused(message)])), spool: spool) { _ in }.push([batch])
        #expect(
            outcome.refused.map { $0.components(separatedBy: " (kept): ").last ?? "" } == [message + "\n  bad line"])
    }
}

/// A scripted sink that calls itself `influx`.
struct InfluxNamed: MetricsSink {
    let inner: ScriptedSink
    init(_ inner: ScriptedSink) { self.inner = inner }
    var name: String { "influx" }
    func send(_ batch: [UInt8]) -> Delivery { inner.send(batch) }
}
