/// What became of one batch sent to a server.
package enum Delivery: Hashable, Sendable {
    /// The server took it.
    case delivered
    /// It did not arrive (no connection, a timeout, a 5xx): worth sending again later.
    case unreachable(String)
    /// The server refused it (a 4xx, such as InfluxDB's field type conflict or partial write,
    /// after which InfluxDB keeps the lines it could take): sending it again would not help.
    case refused(String)
}
