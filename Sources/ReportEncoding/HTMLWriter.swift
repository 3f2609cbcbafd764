import TextFormat

/// Appends HTML (and inline SVG) to a byte buffer: markup as given, text escaped, numbers
/// without locale (``DecimalFormatting``).
struct HTMLWriter {
    /// What was written.
    private(set) var bytes: [UInt8] = []

    /// Appends markup the caller wrote, unescaped: never text from the logs.
    mutating func markup(_ markup: String) {
        bytes.append(contentsOf: markup.utf8)
    }

    /// Appends text, escaped for element content and quoted attribute values.
    mutating func text(_ text: String) {
        MarkupText.appendEscaped(text, into: &bytes)
    }

    /// Appends an integer.
    mutating func int(_ value: Int64) {
        DecimalFormatting.appendInt64(value, into: &bytes)
    }

    /// Appends a finite number with two decimals (a non-finite one as `0.00`, which callers avoid).
    mutating func fixed2(_ value: Double) {
        if !DecimalFormatting.appendFixed2(value, into: &bytes) { markup("0.00") }
    }

    /// Appends `numerator × multiplier / denominator` with two decimals and then `unit`, or only `–`
    /// when the denominator is zero.
    mutating func ratio(_ numerator: Int64, over denominator: Int64, times multiplier: Int64 = 1, unit: String = "") {
        ratio(Int128(numerator) * Int128(multiplier), over: Int128(denominator), unit: unit)
    }

    /// Appends `numerator / denominator` with two decimals and then `unit`, or only `–` when the
    /// denominator is zero.
    mutating func ratio(_ numerator: Int128, over denominator: Int128, unit: String = "") {
        let defined = DecimalFormatting.appendFixed2(numerator: numerator, denominator: denominator, into: &bytes)
        markup(defined ? unit : "–")
    }

    /// Appends a count, thousands separated (``PageFormat/grouped(_:)``).
    mutating func count(_ value: Int64) {
        markup(PageFormat.grouped(value))
    }

    /// Appends `numerator × multiplier / denominator` with two decimals, thousands separated, or `–`
    /// when the denominator is zero (``PageFormat/fixed2(_:over:)``).
    mutating func rate(_ numerator: Int64, over denominator: Int64, times multiplier: Int64 = 1) {
        markup(PageFormat.fixed2(Int128(numerator) * Int128(multiplier), over: Int128(denominator)) ?? "–")
    }

    /// Appends milliseconds as seconds with two decimals (``PageFormat/seconds(_:)``), or `–`.
    mutating func seconds(_ milliseconds: Int64?) {
        markup(milliseconds.map(PageFormat.seconds) ?? "–")
    }

    /// Appends a time spent as people say it (``PageFormat/duration(_:)``).
    mutating func duration(_ milliseconds: Int64) {
        markup(PageFormat.duration(milliseconds))
    }
}
