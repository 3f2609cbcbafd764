/// Sends already-encoded batches to one server.
///
/// ### Implementation requirements
/// `send` blocks until the server answered or its timeout passed, without using the processor
/// while it waits (a timeout, connecting included, is said as `timed out after N s ...`); it
/// never throws.
package protocol MetricsSink {
    /// Where it sends, for messages and spool file names (`influx`, `graphite`).
    var name: String { get }
    /// Sends one batch.
    func send(_ batch: [UInt8]) -> Delivery
}

/// A timeout in seconds as messages say it: `30`, `0.2`.
func timeoutText(_ seconds: Double) -> String {
    seconds == seconds.rounded() && abs(seconds) < 1e9 ? String(Int(seconds)) : String(seconds)
}
