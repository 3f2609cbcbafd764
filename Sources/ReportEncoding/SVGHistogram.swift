/// A bar chart of counts by bin, as inline SVG for `report.html`: one bar per bin, equal widths
/// whatever the bins' ranges, each with its count above it and its lower edge under it.
///
/// Like ``SVGChart``: the y axis runs from 0 to a round count at or above the largest, and with
/// no count at all the plot says `no data`. Each count's `<text>` has a `data-bin` attribute,
/// `name:index`, which the rendering test checks against `playbacks.csv`.
struct SVGHistogram {
    /// The chart's heading.
    var title: String
    /// What is counted, under the bins' labels.
    var caption: String
    /// One label per bin (``binLabels(edges:)``).
    var binLabels: [String]
    var counts: [Int64]
    /// The histogram's name in the `data-bin` attributes.
    var name: String
    /// A CSS colour, `#rrggbb`.
    var colour: String
    /// The fill of the plot area, `#rrggbb`: each chart of a page has its own.
    var plotBackground: String

    /// The labels of the bins between `edges`: `<` the first edge, then each bin's lower edge,
    /// and `≥` the last edge.
    static func binLabels(edges: [String]) -> [String] {
        guard let first = edges.first, let last = edges.last else { return ["all"] }
        return ["<" + first] + edges.dropLast() + ["≥" + last]
    }

    /// Appends the `<svg>` element.
    func append(to html: inout HTMLWriter) {
        let plot = SVGChart.plot
        let axis = SVGChart.Axis(maximum: Double(counts.max() ?? 0), isCount: true)
        html.markup("<svg class=\"chart\" viewBox=\"0 0 560 260\" role=\"img\" aria-label=\"")
        html.text(title)
        html.markup("\"><title>")
        html.text(title)
        html.markup("</title>\n<text class=\"title\" x=\"0\" y=\"18\">")
        html.text(title)
        html.markup("</text>\n<rect class=\"swatch\" x=\"64.00\" y=\"28\" width=\"12\" height=\"12\" fill=\"")
        html.text(colour)
        html.markup("\"/><text class=\"legend\" x=\"80.00\" y=\"38\">plays</text>\n")
        html.markup("<rect class=\"plot\" x=\"64\" y=\"56\" width=\"436\" height=\"170\" fill=\"")
        html.text(plotBackground)
        html.markup("\"/>\n")
        SVGChart.appendGrid(axis, to: &html)
        if counts.allSatisfy({ $0 == 0 }) {
            html.markup("<text class=\"empty\" x=\"282\" y=\"146\">no data</text>\n")
        }
        let slotWidth = (plot.right - plot.left) / Double(max(1, binLabels.count))
        for (bin, label) in binLabels.enumerated() {
            let count = bin < counts.count ? counts[bin] : 0
            let middle = plot.left + (Double(bin) + 0.5) * slotWidth
            let top = SVGChart.y(Double(count), axis)
            if count > 0 {
                html.markup("<rect x=\"")
                html.fixed2(plot.left + (Double(bin) + 0.1) * slotWidth)
                html.markup("\" y=\"")
                html.fixed2(top)
                html.markup("\" width=\"")
                html.fixed2(slotWidth * 0.8)
                html.markup("\" height=\"")
                html.fixed2(plot.bottom - top)
                html.markup("\" fill=\"")
                html.text(colour)
                html.markup("\"/>\n")
            }
            html.markup("<text class=\"count\" x=\"")
            html.fixed2(middle)
            html.markup("\" y=\"")
            html.fixed2(top - 3)
            html.markup("\" data-bin=\"")
            html.text(name)
            html.markup(":")
            html.int(Int64(bin))
            html.markup("\">")
            html.count(count)
            html.markup("</text><text class=\"time\" x=\"")
            html.fixed2(middle)
            html.markup("\" y=\"240\">")
            html.text(label)
            html.markup("</text>\n")
        }
        html.markup("<text class=\"caption\" x=\"282\" y=\"256\">")
        html.text(caption)
        html.markup("</text>\n</svg>\n")
    }
}
