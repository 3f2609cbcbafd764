import EventModel

/// A chart of a few series over time buckets, as inline SVG for `report.html`.
///
/// The x axis is time: one slot per bucket from the first bucket with data to the last, so a
/// bucket without data is a gap. Up to ``maximumBarSlots`` slots the series are grouped bars,
/// beyond that lines (a point without a neighbour is a dot). The y axis runs from 0 to a round
/// value at or above the largest value. Absent and non-finite values are not drawn; values are
/// clamped to [0, 10^15]. With no value at all the plot is empty and says so.
struct SVGChart {
    /// One line or set of bars.
    struct Series {
        var name: String
        /// A CSS colour, `#rrggbb`.
        var colour: String
        /// One value per bucket of the chart, in the same order; `nil` where there is none.
        var values: [Double?]
    }

    /// The chart's heading.
    var title: String
    /// The buckets' starts in epoch milliseconds, ascending.
    var bucketStarts: [Int64]
    /// The bucket length in milliseconds.
    var bucketLength: Int64
    var series: [Series]
    /// Whether the values are counts, so ticks are whole numbers.
    var isCount = false
    /// The fill of the plot area, `#rrggbb`: each chart of a page has its own, which the rendering test finds.
    var plotBackground = "#fbfbfd"

    /// Up to this many slots, bars; beyond, lines.
    static let maximumBarSlots = 48
    static let width = 560.0
    static let height = 260.0
    static let plot = (left: 64.0, right: 500.0, top: 56.0, bottom: 226.0)

    /// Appends the `<svg>` element.
    func append(to html: inout HTMLWriter) {
        let slots = slotIndices()
        let slotCount = (slots.last ?? -1) + 1
        let values = series.map { $0.values.prefix(slots.count).map(Self.plottable) }
        let largest = values.joined().compactMap { $0 }.max()
        let axis = Axis(maximum: largest ?? 0, isCount: isCount)
        html.markup("<svg class=\"chart\" viewBox=\"0 0 560 260\" role=\"img\" aria-label=\"")
        html.text(title)
        html.markup("\"><title>")
        html.text(title)
        html.markup("</title>\n<text class=\"title\" x=\"0\" y=\"18\">")
        html.text(title)
        html.markup("</text>\n")
        appendLegend(to: &html)
        html.markup("<rect class=\"plot\" x=\"64\" y=\"56\" width=\"436\" height=\"170\" fill=\"")
        html.text(plotBackground)
        html.markup("\"/>\n")
        appendYAxis(axis, to: &html)
        if largest == nil {
            html.markup("<text class=\"empty\" x=\"282\" y=\"146\">no data</text>\n")
        } else {
            let slotWidth = (Self.plot.right - Self.plot.left) / Double(slotCount)
            for (index, seriesValues) in values.enumerated() {
                let points = zip(slots, seriesValues).compactMap { slot, value in value.map { (slot, $0) } }
                if slotCount <= Self.maximumBarSlots {
                    appendBars(points, seriesIndex: index, slotWidth: slotWidth, axis: axis, to: &html)
                } else {
                    appendLine(points, seriesIndex: index, slotWidth: slotWidth, axis: axis, to: &html)
                }
            }
            appendXAxis(slotCount: slotCount, slotWidth: slotWidth, to: &html)
        }
        html.markup("</svg>\n")
    }

    /// The last slot drawn: buckets further from the first share it (never in practice: it is 95 years of minutes).
    static let maximumSlot = 50_000_000

    /// Each bucket's slot: buckets since the first.
    private func slotIndices() -> [Int] {
        guard let first = bucketStarts.first, bucketLength > 0 else { return [] }
        return bucketStarts.map {
            min(Int(clamping: (Int128($0) - Int128(first)) / Int128(bucketLength)), Self.maximumSlot)
        }
    }

    /// A value as drawn: `nil` when absent or not finite, else clamped to [0, 10^15].
    static func plottable(_ value: Double?) -> Double? {
        guard let value, value.isFinite else { return nil }
        return min(max(value, 0), 1e15)
    }

    private func appendLegend(to html: inout HTMLWriter) {
        for (index, item) in series.enumerated() {
            let x = Self.plot.left + Double(index) * 130
            html.markup("<rect class=\"swatch\" x=\"")
            html.fixed2(x)
            html.markup("\" y=\"28\" width=\"12\" height=\"12\" fill=\"")
            html.text(item.colour)
            html.markup("\"/><text class=\"legend\" x=\"")
            html.fixed2(x + 16)
            html.markup("\" y=\"38\">")
            html.text(item.name)
            html.markup("</text>\n")
        }
    }

    private func appendYAxis(_ axis: Axis, to html: inout HTMLWriter) {
        for tick in axis.ticks {
            let y = Self.y(tick.value, axis)
            html.markup("<line class=\"grid\" x1=\"64\" x2=\"500\" y1=\"")
            html.fixed2(y)
            html.markup("\" y2=\"")
            html.fixed2(y)
            html.markup("\"/><text class=\"tick\" x=\"58\" y=\"")
            html.fixed2(y + 4)
            html.markup("\">")
            html.text(tick.label)
            html.markup("</text>\n")
        }
    }

    private func appendBars(
        _ points: [(slot: Int, value: Double)], seriesIndex: Int, slotWidth: Double, axis: Axis,
        to html: inout HTMLWriter
    ) {
        let barWidth = slotWidth * 0.8 / Double(series.count)
        for (slot, value) in points where value > 0 {
            let top = Self.y(value, axis)
            html.markup("<rect x=\"")
            html.fixed2(Self.plot.left + (Double(slot) + 0.1) * slotWidth + Double(seriesIndex) * barWidth)
            html.markup("\" y=\"")
            html.fixed2(top)
            html.markup("\" width=\"")
            html.fixed2(barWidth)
            html.markup("\" height=\"")
            html.fixed2(Self.plot.bottom - top)
            html.markup("\" fill=\"")
            html.text(series[seriesIndex].colour)
            html.markup("\"/>\n")
        }
    }

    /// A polyline per run of neighbouring slots with values; a dot for a point alone.
    private func appendLine(
        _ points: [(slot: Int, value: Double)], seriesIndex: Int, slotWidth: Double, axis: Axis,
        to html: inout HTMLWriter
    ) {
        let colour = series[seriesIndex].colour
        var start = 0
        while start < points.count {
            var end = start + 1
            while end < points.count && points[end].slot == points[end - 1].slot + 1 { end += 1 }
            let run = points[start..<end]
            if run.count == 1 {
                html.markup("<circle r=\"2.5\" cx=\"")
                html.fixed2(Self.plot.left + (Double(points[start].slot) + 0.5) * slotWidth)
                html.markup("\" cy=\"")
                html.fixed2(Self.y(points[start].value, axis))
                html.markup("\" fill=\"")
                html.text(colour)
            } else {
                html.markup("<polyline fill=\"none\" stroke-width=\"2\" stroke=\"")
                html.text(colour)
                html.markup("\" points=\"")
                for (offset, point) in run.enumerated() {
                    if offset > 0 { html.markup(" ") }
                    html.fixed2(Self.plot.left + (Double(point.slot) + 0.5) * slotWidth)
                    html.markup(",")
                    html.fixed2(Self.y(point.value, axis))
                }
            }
            html.markup("\"/>\n")
            start = end
        }
    }

    /// Up to five labels, the first and last slots included, each under its slot's middle.
    private func appendXAxis(slotCount: Int, slotWidth: Double, to html: inout HTMLWriter) {
        guard let first = bucketStarts.first else { return }
        let labels = min(slotCount, 5)
        var previous = -1
        for label in 0..<labels {
            let slot = labels == 1 ? 0 : label * (slotCount - 1) / (labels - 1)
            if slot == previous { continue }
            previous = slot
            let (start, overflow) = bucketLength.multipliedReportingOverflow(by: Int64(slot))
            if overflow { break }
            html.markup("<text class=\"time\" x=\"")
            html.fixed2(Self.plot.left + (Double(slot) + 0.5) * slotWidth)
            html.markup("\" y=\"244\">")
            html.text(Self.timeLabel(first &+ start, bucketLength: bucketLength))
            html.markup("</text>\n")
        }
    }

    /// `2025-11-20 07:00` (UTC), or `2025-11-20` for buckets of whole days.
    static func timeLabel(_ milliseconds: Int64, bucketLength: Int64) -> String {
        let rfc3339 = Array(SummaryReport.rfc3339(Timestamp(milliseconds: milliseconds)))
        let date = String(rfc3339.prefix(10))
        return bucketLength % 86_400_000 == 0 ? date : date + " " + String(rfc3339.dropFirst(11).prefix(5))
    }

    /// The y coordinate of a value.
    private static func y(_ value: Double, _ axis: Axis) -> Double {
        plot.bottom - (plot.bottom - plot.top) * min(value, axis.top) / axis.top
    }
}

extension SVGChart {
    /// The y axis: from 0 to `top` in two to four steps of 1, 2 or 5 times a power of ten.
    struct Axis: Equatable {
        /// The value at the top of the plot, above 0.
        var top: Double
        /// The gridlines, from 0 up, with their labels.
        var ticks: [Tick]

        struct Tick: Equatable {
            var value: Double
            var label: String
        }

        /// An axis for values from 0 to `maximum` (finite, 0 to 10^15); with `isCount` the step is at least 1.
        init(maximum: Double, isCount: Bool) {
            let largest = maximum.isFinite ? min(max(maximum, 0), 1e15) : 0
            var (mantissa, exponent) = Self.step(atLeast: largest > 0 ? largest / 4 : 0.25)
            if isCount && exponent < 0 { (mantissa, exponent) = (1, 0) }
            let step = Double(mantissa) * Self.power(exponent)
            let steps = max(2, Int((largest / step).rounded(.up)))
            top = Double(steps * mantissa) * Self.power(exponent)
            ticks = (0...steps).map { index in
                let units = index * mantissa
                return Tick(value: Double(units) * Self.power(exponent), label: Self.label(units, exponent))
            }
        }

        /// The smallest 1, 2 or 5 × 10^e at or above `value`.
        private static func step(atLeast value: Double) -> (mantissa: Int, exponent: Int) {
            for exponent in -20...16 {
                for mantissa in [1, 2, 5] where Double(mantissa) * power(exponent) >= value {
                    return (mantissa, exponent)
                }
            }
            return (1, 16)
        }

        /// 10^exponent, exact for the exponents used here (division keeps negative powers correctly rounded).
        private static func power(_ exponent: Int) -> Double {
            var result = 1.0
            for _ in 0..<abs(exponent) { result *= 10 }
            return exponent < 0 ? 1 / result : result
        }

        /// `units` × 10^exponent in decimal, from integers only: `0.5`, `150`, `0.002`.
        private static func label(_ units: Int, _ exponent: Int) -> String {
            if exponent >= 0 { return String(units) + String(repeating: "0", count: units == 0 ? 0 : exponent) }
            let decimals = -exponent
            let digits = String(units)
            let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
            return String(padded.dropLast(decimals)) + "." + String(padded.suffix(decimals))
        }
    }
}
