import EventModel

/// How `report.html` writes its numbers for people, one rule per kind of figure
/// (docs/reports.md, "Units and formats"), in integers and without locale, so that the same
/// logs give the same bytes on any machine:
///
/// - counts: whole, thousands separated by commas (`12,345`);
/// - rates (percentages, per hour): two decimals, rounded half away from zero, as the CSV
///   files write them, thousands separated (`12.50`, `1,234.57`);
/// - startup and time to start: seconds with two decimals (`0.85 s`, `40.96 s`);
/// - time spent (watch, rebuffer, listening time): a duration as people say it (``duration(_:)``:
///   `850 ms`, `4.5 s`, `45 s`, `12 min 5 s`, `1 h 23 min`, `12 h`, `2 d 3 h`);
/// - bit rates: `bit/s` under 1 kbit/s, whole `kbit/s` under 1 Mbit/s, else `Mbit/s` with two
///   decimals (``bitrate(hundredths:)``), from the CSV file's value (hundredths of bit/s).
enum PageFormat {
    /// `value` with a comma between each group of three digits: `1,234,567`, `-1,234`, `999`.
    static func grouped(_ value: Int64) -> String {
        grouped(digits: String(value.magnitude), negative: value < 0)
    }

    /// The digits of a whole number, grouped by three from the right.
    private static func grouped(digits: String, negative: Bool) -> String {
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return negative ? "-" + result : result
    }

    /// `numerator / denominator` with two decimals, rounded half away from zero and computed
    /// exactly (as the CSV files write it), thousands separated; `nil` when the denominator is 0.
    static func fixed2(_ numerator: Int128, over denominator: Int128) -> String? {
        guard let hundredths = roundedQuotient(numerator * 100, denominator) else { return nil }
        return decimal2(hundredths)
    }

    /// `hundredths / 100` with two decimals, thousands separated: `1,234.50`, `0.05`, `-2.00`.
    static func decimal2(_ hundredths: Int128) -> String {
        let magnitude = hundredths.magnitude
        let (whole, fraction) = magnitude.quotientAndRemainder(dividingBy: 100)
        let fractionDigits = fraction < 10 ? "0" + String(fraction) : String(fraction)
        return grouped(digits: String(whole), negative: hundredths < 0) + "." + fractionDigits
    }

    /// `numerator / denominator` rounded to the nearest integer, half away from zero; `nil` for a
    /// zero denominator.
    static func roundedQuotient(_ numerator: Int128, _ denominator: Int128) -> Int128? {
        guard denominator != 0 else { return nil }
        let negative = (numerator < 0) != (denominator < 0)
        let (quotient, remainder) = numerator.magnitude.quotientAndRemainder(dividingBy: denominator.magnitude)
        let rounded = remainder >= denominator.magnitude - remainder ? quotient + 1 : quotient
        return negative ? -Int128(rounded) : Int128(rounded)
    }

    /// Milliseconds as seconds with two decimals, without the unit: `40959` → `40.96`.
    static func seconds(_ milliseconds: Int64) -> String {
        fixed2(Int128(milliseconds), over: 1000) ?? "–"
    }

    /// A bit rate given in hundredths of bit/s (the CSV file's `avg_bitrate_bps`, two decimals):
    /// `850 bit/s` under 1 kbit/s, whole `kbit/s` under 1 Mbit/s (`850 kbit/s`), else `Mbit/s`
    /// with two decimals (`3.55 Mbit/s`, `1,234.56 Mbit/s`). Each is rounded half away from zero
    /// from the hundredths, and the unit is chosen after rounding, so `999,999 bit/s` is `1.00 Mbit/s`.
    static func bitrate(hundredths: Int128) -> String {
        let negative = hundredths < 0
        let value = Int128(hundredths.magnitude)
        let sign = negative ? "-" : ""
        if let bits = roundedQuotient(value, 100), bits < 1000 {
            return sign + String(bits) + " bit/s"
        }
        if let kilobits = roundedQuotient(value, 100_000), kilobits < 1000 {
            return sign + String(kilobits) + " kbit/s"
        }
        return sign + decimal2(roundedQuotient(value, 1_000_000) ?? 0) + " Mbit/s"
    }

    /// A time spent as people say it, to the precision that matters at its size (rounded half up
    /// in the smallest unit shown, the form chosen after rounding):
    /// under 1 s whole milliseconds (`850 ms`); under 10 s seconds to a tenth (`4.5 s`, `2 s`);
    /// under 1 min whole seconds (`45 s`); under 1 h minutes and seconds (`12 min 5 s`, `12 min`);
    /// under 1 d hours and minutes (`1 h 23 min`, `12 h`); then days and hours (`2 d 3 h`, `3 d`).
    static func duration(_ milliseconds: Int64) -> String {
        if milliseconds < 0 { return "-" + duration(Int64(clamping: milliseconds.magnitude)) }
        let value = Int128(milliseconds)
        func rounded(_ unit: Int128) -> Int128 { roundedQuotient(value, unit) ?? 0 }
        func pair(_ count: Int128, _ per: Int128, _ big: String, _ small: String) -> String {
            let (whole, rest) = count.quotientAndRemainder(dividingBy: per)
            return rest == 0 ? "\(whole) \(big)" : "\(whole) \(big) \(rest) \(small)"
        }
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        let tenths = rounded(100)
        if tenths < 100 { return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s" }
        let seconds = rounded(1000)
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return pair(seconds, 60, "min", "s") }
        let minutes = rounded(60_000)
        if minutes < 1440 { return pair(minutes, 60, "h", "min") }
        return pair(rounded(3_600_000), 24, "d", "h")
    }

    /// A duration option as a command line gives it (Go's form, the units `d`, `h`, `m`, `s`,
    /// `ms`, largest first): `12h`, `1h30m`, `30m`, `1d`, `1500ms` is `1s500ms`.
    static func durationArgument(_ milliseconds: Int64) -> String {
        guard milliseconds > 0 else { return String(milliseconds) + "ms" }
        var rest = milliseconds
        var result = ""
        for (unit, length) in [("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1)]
            as [(String, Int64)]
        where rest >= length {
            result += String(rest / length) + unit
            rest %= length
        }
        return result
    }

    /// An option of the provenance (`name=value`, as ``HTMLReport/Provenance/options`` holds it
    /// in milliseconds for `merge`) as a user writes it: the durations `bucket`, `idle-gap` and
    /// `max-lateness` in Go's form (`idle-gap=12h`), `since` and `until` as RFC 3339 times
    /// (`since=2025-11-20T00:00:00Z`; a time with milliseconds stays epoch milliseconds); any other option, or a value that is not a number, as it is.
    static func option(_ option: String) -> String {
        guard let equals = option.firstIndex(of: "=") else { return option }
        let name = option[..<equals]
        let value = option[option.index(after: equals)...]
        guard let number = Int64(value) else { return option }
        switch name {
        case "bucket", "idle-gap", "max-lateness":
            return name + "=" + durationArgument(number)
        case "since",
            "until" where number % 1000 == 0:
            return name + "=" + SummaryReport.rfc3339(Timestamp(milliseconds: number))
        default:
            return option
        }
    }
}
