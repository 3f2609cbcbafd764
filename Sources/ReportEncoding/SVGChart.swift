import EventModel
import Foundation

/// A chart of a few series over time buckets, as inline SVG for `report.html`.
///
/// The x axis is time: one slot per bucket from the first bucket with data to the last, so a
/// bucket without data is a gap; its labels are a round time step apart, far enough not to
/// overlap (``labelStep(slotWidth:)``). Up to ``maximumBarSlots`` slots the series are grouped
/// bars, beyond that lines (a point without a neighbour is a dot). The y axis runs from 0 to a
/// round value at or above the largest value; when a series' positive values span more than
/// two decades it is logarithmic instead, between powers of ten, and says so (zeros are then
/// not drawn). Absent and non-finite values are not drawn; values are clamped to [0, 10^15].
/// The partial buckets (``partialFrom``) are hatched, with a note in the legend. With no value
/// at all the plot is empty and says so.
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
    /// The index in ``bucketStarts`` of the first partial bucket, which a later run writes whole:
    /// it and the buckets after it are hatched. `nil` when every bucket is whole.
    var partialFrom: Int? = nil

    /// Up to this many slots, bars; beyond, lines.
    static let maximumBarSlots = 48
    static let width = 560.0
    static let height = 260.0
    static let plot = (left: 64.0, right: 500.0, top: 56.0, bottom: 226.0)
    /// The id of the hatching pattern the page defines once (``patternDefinitions``).
    static let hatchPattern = "partial-hatch"
    /// The least distance between the middles of two time labels, in SVG units: a label is at
    /// most 11 characters of 11 px.
    static let labelSpacing = 80.0

    /// An invisible `<svg>` with the hatching of partial buckets, which every chart refers to.
    static let patternDefinitions = """
        <svg class="defs" width="0" height="0" aria-hidden="true"><defs><pattern id="\(hatchPattern)" \
        width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">\
        <rect width="6" height="6" fill="#ffffff" fill-opacity="0.45"/>\
        <line x1="0" y1="0" x2="0" y2="6" stroke="#8a8a99" stroke-width="2"/></pattern></defs></svg>

        """

    /// Appends the `<svg>` element.
    func append(to html: inout HTMLWriter) {
        let slots = slotIndices()
        let slotCount = (slots.last ?? -1) + 1
        let values = series.map { $0.values.prefix(slots.count).map(Self.plottable) }
        let axis = Axis(values: values, isCount: isCount)
        let hasPartial = partialFrom.map { $0 < slots.count } ?? false
        html.markup("<svg class=\"chart\" viewBox=\"0 0 560 260\" role=\"img\" aria-label=\"")
        html.text(title)
        html.markup("\"><title>")
        html.text(title)
        html.markup("</title>\n<text class=\"title\" x=\"0\" y=\"18\">")
        html.text(title)
        html.markup("</text>\n")
        appendLegend(hasPartial: hasPartial, to: &html)
        html.markup("<rect class=\"plot\" x=\"64\" y=\"56\" width=\"436\" height=\"170\" fill=\"")
        html.text(plotBackground)
        html.markup("\"/>\n")
        appendYAxis(axis, to: &html)
        if axis.isEmpty {
            html.markup("<text class=\"empty\" x=\"282\" y=\"146\">no data</text>\n")
        } else {
            let slotWidth = (Self.plot.right - Self.plot.left) / Double(slotCount)
            if let partialFrom, hasPartial {
                let x = Self.plot.left + Double(slots[partialFrom]) * slotWidth
                html.markup("<rect class=\"partial\" x=\"")
                html.fixed2(x)
                html.markup("\" y=\"56\" width=\"")
                html.fixed2(Self.plot.right - x)
                html.markup("\" height=\"170\" fill=\"url(#\(Self.hatchPattern))\"/>\n")
            }
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

    private func appendLegend(hasPartial: Bool, to html: inout HTMLWriter) {
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
        if hasPartial {
            html.markup(
                "<rect class=\"swatch-partial\" x=\"400\" y=\"6\" width=\"12\" height=\"12\" "
                    + "fill=\"url(#\(Self.hatchPattern))\" stroke=\"#8a8a99\"/>"
                    + "<text class=\"legend\" x=\"416\" y=\"16\">partial bucket</text>\n")
        }
    }

    private func appendYAxis(_ axis: Axis, to html: inout HTMLWriter) {
        Self.appendGrid(axis, to: &html)
        if axis.isLogarithmic {
            html.markup("<text class=\"scale\" x=\"14\" y=\"141\" transform=\"rotate(-90 14 141)\">log scale</text>\n")
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
        let points = points.filter { axis.draws($0.value) }
        let colour = series[seriesIndex].colour
        // Each series a step wider than the next, so that where lines meet (percentiles of one
        // play) the earlier ones still show around the later ones.
        let widen = Double(series.count - 1 - seriesIndex) * 1.5
        var start = 0
        while start < points.count {
            var end = start + 1
            while end < points.count && points[end].slot == points[end - 1].slot + 1 { end += 1 }
            let run = points[start..<end]
            if run.count == 1 {
                html.markup("<circle r=\"")
                html.fixed2(2.5 + widen / 2)
                html.markup("\" cx=\"")
                html.fixed2(Self.plot.left + (Double(points[start].slot) + 0.5) * slotWidth)
                html.markup("\" cy=\"")
                html.fixed2(Self.y(points[start].value, axis))
                html.markup("\" fill=\"")
                html.text(colour)
            } else {
                html.markup("<polyline fill=\"none\" stroke-width=\"")
                html.fixed2(2 + widen)
                html.markup("\" stroke=\"")
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

    /// Round time steps for the labels, in milliseconds.
    private static let roundSteps: [Int64] = [
        60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 10_800_000, 21_600_000,
        43_200_000, 86_400_000, 172_800_000, 604_800_000, 1_209_600_000, 2_419_200_000,
    ]

    /// The time between two labels: the shortest round step (1, 2, 5, 10, 15 or 30 minutes, 1,
    /// 2, 3, 6 or 12 hours, 1 or 2 days, 1, 2 or 4 weeks) that is a whole number of buckets
    /// and puts labels at least ``labelSpacing`` apart, if it is at most four times the least
    /// such time (so that the chart gets labels); otherwise the fewest whole buckets that do.
    func labelStep(slotWidth: Double) -> Int64 {
        let buckets = max(1, Int64((Self.labelSpacing / slotWidth).rounded(.up)))
        let (least, overflow) = bucketLength.multipliedReportingOverflow(by: buckets)
        if overflow { return .max }
        let round = Self.roundSteps.first { $0 >= least && $0 % bucketLength == 0 }
        return round.flatMap { $0 / 4 <= least ? $0 : nil } ?? least
    }

    /// A label under the middle of each slot whose bucket starts at a multiple of the label step
    /// (UTC), or, for a step that is not round, every step from the first slot: `HH:MM`, with
    /// the date (`MM-DD HH:MM`) on the first label and at each midnight, or the date alone
    /// (`MM-DD`) for steps of whole days. The year is in the page's header.
    private func appendXAxis(slotCount: Int, slotWidth: Double, to html: inout HTMLWriter) {
        guard let first = bucketStarts.first else { return }
        let step = labelStep(slotWidth: slotWidth)
        let isRound = Self.roundSteps.contains(step)
        var isFirst = true
        for slot in 0..<slotCount {
            let (offset, overflow) = bucketLength.multipliedReportingOverflow(by: Int64(slot))
            if overflow { break }
            let start = first &+ offset
            let isLabelled =
                isRound ? start.remainderReportingOverflow(dividingBy: step).partialValue == 0 : offset % step == 0
            guard isLabelled else { continue }
            html.markup("<text class=\"time\" x=\"")
            html.fixed2(Self.plot.left + (Double(slot) + 0.5) * slotWidth)
            html.markup("\" y=\"244\">")
            html.text(Self.axisLabel(start, withDate: isFirst, dateOnly: step % 86_400_000 == 0))
            html.markup("</text>\n")
            isFirst = false
        }
    }

    /// `07:00`, `11-20 07:00` (with the date, or at midnight), or `11-20` (whole days).
    static func axisLabel(_ milliseconds: Int64, withDate: Bool, dateOnly: Bool) -> String {
        let rfc3339 = SummaryReport.rfc3339(Timestamp(milliseconds: milliseconds))
        let date = String(rfc3339.dropFirst(5).prefix(5))
        let time = String(rfc3339.dropFirst(11).prefix(5))
        if dateOnly { return date }
        return withDate || time == "00:00" ? date + " " + time : time
    }

    /// `2025-11-20 07:00` (UTC), or `2025-11-20` for buckets of whole days.
    static func timeLabel(_ milliseconds: Int64, bucketLength: Int64) -> String {
        let rfc3339 = Array(SummaryReport.rfc3339(Timestamp(milliseconds: milliseconds)))
        let date = String(rfc3339.prefix(10))
        return bucketLength % 86_400_000 == 0 ? date : date + " " + String(rfc3339.dropFirst(11).prefix(5))
    }

    /// The y coordinate of a value the axis draws.
    /// The y axis's grid lines across the plot and their tick labels, for every chart of the page.
    static func appendGrid(_ axis: Axis, to html: inout HTMLWriter) {
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

    static func y(_ value: Double, _ axis: Axis) -> Double {
        plot.bottom - (plot.bottom - plot.top) * axis.fraction(value)
    }
}

extension SVGChart {
    /// The y axis: from 0 to `top` in two to four steps of 1, 2 or 5 times a power of ten, or
    /// logarithmic, from one power of ten to another, a gridline at each.
    struct Axis: Equatable {
        /// The value at the top of the plot, above 0.
        var top: Double
        /// The gridlines, from the bottom up, with their labels.
        var ticks: [Tick]
        /// Whether the axis is logarithmic, from 10^``bottomExponent`` to 10^``topExponent``.
        private(set) var isLogarithmic = false
        private var bottomExponent = 0
        private var topExponent = 0
        /// Whether there was no value to draw.
        private(set) var isEmpty = false

        struct Tick: Equatable {
            var value: Double
            var label: String
        }

        /// The most decades a logarithmic axis shows: smaller values are drawn at its bottom.
        static let maximumDecades = 8

        /// The axis for a chart's series (values plottable: finite, 0 to 10^15): logarithmic when
        /// one series' positive values span more than two decades (its largest is over 100 times
        /// its smallest), or when the median of a series' positive values is under a tenth of the
        /// chart's largest value (drawn linearly, most of its bars would be under a tenth of the
        /// plot: the p50 beside the p99 of startup times); from a decade below the power of ten of the smallest positive value (so
        /// that its bar is at least a decade high) to the power at or above the largest; else
        /// linear from 0 (``init(maximum:isCount:)``).
        init(values: [[Double?]], isCount: Bool) {
            let all = values.joined().compactMap { $0 }
            let spans = values.compactMap { series -> (Double, Double, Double)? in
                let positive = series.compactMap { $0 }.filter { $0 > 0 }.sorted()
                guard let smallest = positive.first, let largest = positive.last else { return nil }
                return (smallest, largest, positive[(positive.count - 1) / 2])
            }
            let chartLargest = spans.map(\.1).max() ?? 0
            let hidesASeries = spans.count > 1 && spans.contains { $0.2 * 10 < chartLargest }
            guard spans.contains(where: { $0.1 > 100 * $0.0 }) || hidesASeries, let largest = all.max(),
                let smallest = spans.map(\.0).min()
            else {
                self.init(maximum: all.max() ?? 0, isCount: isCount)
                isEmpty = all.isEmpty
                return
            }
            let high = (-20...15).first { Self.power($0) >= largest } ?? 15
            let own = (-20...15).last { Self.power($0) <= smallest } ?? -19
            let low = max(own - 1, high - Self.maximumDecades)
            self.init(maximum: largest, isCount: isCount)
            top = Self.power(high)
            ticks = (low...high).map { Tick(value: Self.power($0), label: Self.label(1, $0)) }
            isLogarithmic = true
            bottomExponent = low
            topExponent = high
        }

        /// Whether a value has a place on the axis: any on a linear axis, a positive one on a
        /// logarithmic axis.
        func draws(_ value: Double) -> Bool {
            !isLogarithmic || value > 0
        }

        /// Where a value is on the axis, from 0 (bottom) to 1 (top).
        func fraction(_ value: Double) -> Double {
            guard isLogarithmic else { return min(value, top) / top }
            guard value > 0 else { return 0 }
            let position = (log10(value) - Double(bottomExponent)) / Double(topExponent - bottomExponent)
            return min(max(position, 0), 1)
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
        static func power(_ exponent: Int) -> Double {
            var result = 1.0
            for _ in 0..<abs(exponent) { result *= 10 }
            return exponent < 0 ? 1 / result : result
        }

        /// `units` × 10^exponent in decimal, from integers only: `0.5`, `150`, `0.002`.
        static func label(_ units: Int, _ exponent: Int) -> String {
            if exponent >= 0 { return String(units) + String(repeating: "0", count: units == 0 ? 0 : exponent) }
            let decimals = -exponent
            let digits = String(units)
            let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
            return String(padded.dropLast(decimals)) + "." + String(padded.suffix(decimals))
        }
    }
}
