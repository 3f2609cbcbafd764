import Foundation

/// Sends batches to a sink: first what the spool kept from earlier runs, then the new ones.
///
/// A batch that finds the server unreachable is tried `attempts` times, waiting `backoff`,
/// then twice as long, between tries; if it still fails, it and every batch after it go to
/// the spool (a server that is down is not hammered). A batch the server refuses is reported
/// with the lines InfluxDB names (partial writes keep the other lines) and not kept: sending it
/// again would be refused again.
public struct Pusher {
    public let sink: any MetricsSink
    public let spool: Spool
    public var attempts = 3
    public var backoff: Duration = .milliseconds(200)
    /// How to wait between tries: the command passes a real sleep, tests record the waits.
    public var wait: (Duration) -> Void

    public init(sink: any MetricsSink, spool: Spool, wait: @escaping (Duration) -> Void) {
        self.sink = sink
        self.spool = spool
        self.wait = wait
    }

    /// What happened to the batches of one push.
    public struct Outcome: Hashable, Sendable {
        public var delivered = 0
        public var spooled = 0
        public var refused: [String] = []
        /// Batches from the spool that were delivered and removed.
        public var flushed = 0
        public init() {}
    }

    /// Sends the spooled batches, then `batches`.
    public func push(_ batches: some Sequence<[UInt8]>) -> Outcome {
        var outcome = Outcome()
        var reachable = true
        for path in spool.pending(for: sink.name) {
            guard reachable, let data = FileManager.default.contents(atPath: path) else { break }
            switch deliver(Array(data)) {
            case .delivered:
                spool.remove(path)
                outcome.flushed += 1
            case .refused(let message):
                spool.remove(path)
                outcome.refused.append("\(path): \(message)")
            case .unreachable:
                reachable = false
            }
        }
        for batch in batches {
            let delivery = reachable ? deliver(batch) : .unreachable("not tried: the server was unreachable")
            switch delivery {
            case .delivered:
                outcome.delivered += 1
            case .refused(let message):
                let lines = sink.name == "influx" ? InfluxRefusal.offendingLines(in: batch, message: message) : []
                outcome.refused.append(([message] + lines.map { "  " + $0 }).joined(separator: "\n"))
            case .unreachable:
                reachable = false
                if (try? spool.keep(batch, for: sink.name)) != nil { outcome.spooled += 1 }
            }
        }
        return outcome
    }

    private func deliver(_ batch: [UInt8]) -> Delivery {
        var pause = backoff
        var last = Delivery.unreachable("not sent")
        for attempt in 1...max(1, attempts) {
            last = sink.send(batch)
            guard case .unreachable = last, attempt < attempts else { return last }
            wait(pause)
            pause = pause * 2
        }
        return last
    }
}

/// Splits a file's lines into batches of at most `lines` lines, each ending in a line feed.
public struct LineBatches: Sequence, IteratorProtocol {
    private let handle: FileHandle?
    private let lines: Int
    private var pending: [UInt8] = []
    private var finished = false

    public init(path: String, lines: Int = 5_000) {
        handle = FileHandle(forReadingAtPath: path)
        self.lines = lines
    }

    public mutating func next() -> [UInt8]? {
        guard let handle else { return nil }
        while !finished {
            var count = 0
            var end = 0
            for (index, byte) in pending.enumerated() where byte == 10 {
                count += 1
                end = index + 1
                if count == lines { break }
            }
            if count == lines {
                let batch = Array(pending[..<end])
                pending.removeFirst(end)
                return batch
            }
            let chunk = (try? handle.read(upToCount: 1 << 20)) ?? nil
            if let chunk, !chunk.isEmpty {
                pending.append(contentsOf: chunk)
            } else {
                finished = true
            }
        }
        guard !pending.isEmpty else { return nil }
        defer { pending = [] }
        return pending.last == 10 ? pending : pending + [10]
    }
}
