/// A field value of an InfluxDB line-protocol point.
///
/// The line protocol fixes a field's type at its first write per shard, so a metric
/// must use the same case every time: `int` is written `42i`, `double` always as a float
/// (`42.0`), never mixed.
package enum InfluxFieldValue: Hashable, Sendable {
    /// A signed 64-bit integer, written with the `i` suffix: `42i`.
    case int(Int64)
    /// A float, written in its shortest round-trip form (`0.1`, `100.0`, `1e-05`,
    /// `1e+21`, `-0.0`); NaN and infinities are dropped, since InfluxDB rejects them.
    case double(Double)
    /// A Boolean, written `true` or `false`.
    case bool(Bool)
    /// A string, written in double quotes with `"` and `\` escaped.
    case string(String)
}
