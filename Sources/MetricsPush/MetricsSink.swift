/// Sends already-encoded batches to one server.
///
/// ### Implementation requirements
/// `send` blocks until the server answered or a timeout passed; it never throws.
package protocol MetricsSink {
    /// Where it sends, for messages and spool file names (`influx`, `graphite`).
    var name: String { get }
    /// Sends one batch.
    func send(_ batch: [UInt8]) -> Delivery
}
