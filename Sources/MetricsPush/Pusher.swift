import Foundation

/// Sends batches to a sink: first what the spool kept from earlier runs, then the new ones.
///
/// A batch that finds the server unreachable is tried `attempts` times, waiting `backoff`,
/// then twice as long, between tries; if it still fails, it and every batch after it go to
/// the spool (a server that is down is not hammered). A batch the server refuses (a 4xx: a
/// database that does not exist yet, a field type conflict) is reported with the server's
/// answer and the lines InfluxDB names, and kept in the spool too, so that a later run or
/// `flush` delivers it once the server takes it (InfluxDB keeps one point per series and time,
/// so the lines it took are not doubled). A spooled batch leaves the spool only when
/// delivered. A batch neither delivered nor kept (the spool could not be written) is lost, and
/// said so, named by its place in the push and its lines, with the reason.
///
/// The spool's lock (``SpoolLock``) is held for the whole push: taken at the start where the
/// spool's folder exists, else before the first batch is kept.
package struct Pusher {
    package let sink: any MetricsSink
    package let spool: Spool
    package var attempts = 3
    package var backoff: Duration = .milliseconds(200)
    /// How to wait between tries: the command passes a real sleep, tests record the waits.
    package var wait: (Duration) -> Void
    /// The lock to take, held by the caller over several pushes (one per server); when nil, each
    /// push takes the spool's lock and lets it go when it ends.
    package var lock: SpoolLock?

    package init(sink: any MetricsSink, spool: Spool, wait: @escaping (Duration) -> Void) {
        self.sink = sink
        self.spool = spool
        self.wait = wait
    }

    /// What happened to the batches of one push.
    package struct Outcome: Hashable, Sendable {
        package var delivered = 0
        /// New batches kept in the spool because the server was unreachable: as many as the
        /// files this push wrote for them.
        package var spooled = 0
        /// Why the server was unreachable, when it was.
        package var unreachable: String?
        /// The server's answer to each batch it refused (new or from the spool), with the lines it
        /// names; the batches stay in the spool.
        package var refused: [String] = []
        /// Batches from the spool that were delivered and removed.
        package var flushed = 0
        /// Batches neither delivered nor kept, each named (`batch 3 of this push (lines
        /// 10001–15000 of metrics.influx)`) with why it could not be kept.
        package var lost: [String] = []
        /// Why the spool's batches were not sent, when its lock could not be taken.
        package var spoolError: String?
        package init() {}

        /// Whether every batch, new or spooled, reached the server.
        package var deliveredEverything: Bool { spooled == 0 && refused.isEmpty && lost.isEmpty }
    }

    /// Sends the spooled batches, then `batches`, the lines of `source` (a file name, for the
    /// messages naming a lost batch).
    package func push(_ batches: some Sequence<[UInt8]>, from source: String? = nil) -> Outcome {
        let lock = self.lock ?? SpoolLock(spool: spool)
        defer { if self.lock == nil { lock.release() } }
        var outcome = Outcome()
        var spooled: [String] = []
        do {
            if try lock.take(creatingFolder: false) { spooled = spool.pending(for: sink.name) }
        } catch {
            outcome.spoolError = "the batches waiting in the spool were not sent: \(error.description)"
        }
        for path in spooled {
            guard outcome.unreachable == nil else { break }
            let data: [UInt8]
            switch spool.batch(at: path) {
            case .success(let bytes): data = bytes
            case .failure(let error):
                outcome.refused.append(error.description)
                continue
            }
            switch deliver(data) {
            case .delivered:
                spool.remove(path)
                outcome.flushed += 1
            case .refused(let message):
                outcome.refused.append("\(path) (kept): \(describe(refusal: message, of: data))")
            case .unreachable(let cause):
                outcome.unreachable = cause
            }
        }
        var number = 0
        var linesBefore = 0
        for batch in batches {
            number += 1
            let lines = Self.lineCount(batch)
            let firstLine = linesBefore + 1
            linesBefore += lines
            let delivery = outcome.unreachable == nil ? deliver(batch) : .unreachable(outcome.unreachable ?? "")
            let refusal: String
            switch delivery {
            case .delivered:
                outcome.delivered += 1
                continue
            case .refused(let message):
                refusal = describe(refusal: message, of: batch)
            case .unreachable(let cause):
                if outcome.unreachable == nil { outcome.unreachable = cause }
                refusal = ""
            }
            do {
                try lock.take(creatingFolder: true)
                let path = try spool.keep(batch, for: sink.name)
                if refusal.isEmpty {
                    outcome.spooled += 1
                } else {
                    outcome.refused.append("\(path) (kept): \(refusal)")
                }
            } catch {
                let range = lines == 0 ? "no lines" : "lines \(firstLine)–\(linesBefore)"
                let name = "batch \(number) of this push (\(range)\(source.map { " of " + $0 } ?? ""))"
                outcome.lost.append("\(name): " + (refusal.isEmpty ? "" : "\(refusal); ") + error.description)
            }
        }
        return outcome
    }

    /// The lines of a batch: its line feeds, and a last line without one.
    static func lineCount(_ batch: [UInt8]) -> Int {
        var count = 0
        for byte in batch where byte == 10 { count += 1 }
        return count + (batch.last.map { $0 == 10 ? 0 : 1 } ?? 0)
    }

    /// The server's answer, with the lines of the batch InfluxDB names in it.
    private func describe(refusal message: String, of batch: [UInt8]) -> String {
        let lines = sink.name == "influx" ? InfluxRefusal.offendingLines(in: batch, message: message) : []
        return ([message] + lines.map { "  " + $0 }).joined(separator: "\n")
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
package struct LineBatches: Sequence, IteratorProtocol {
    private let handle: FileHandle?
    private let lines: Int
    private var pending: [UInt8] = []
    private var finished = false

    package init(path: String, lines: Int = 5_000) {
        handle = FileHandle(forReadingAtPath: path)
        self.lines = lines
    }

    package mutating func next() -> [UInt8]? {
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
