/// A stored summary or aggregates state (``KPISummary/State``, ``MetricAggregates/State``)
/// that no run could have written.
public struct StateError: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
