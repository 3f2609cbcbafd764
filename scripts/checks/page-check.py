#!/usr/bin/env python3
"""Checks report.html against the CSV files beside it, and that it needs nothing from elsewhere.

    page-check.py REPORT_HTML [--dom DUMPED_DOM] [--sorted DUMPED_DOM]

1. Every number the page marks with `data-csv` (docs/reports.md, "report.html") equals what
   its CSV file in the same folder gives, written in the page's units and formats
   (docs/reports.md, "Units and formats", implemented again here: counts thousands separated,
   rates with two decimals rounded half away from zero, startup times in seconds, times spent
   as durations such as `1 h 23 min`, bit rates in bit/s, kbit/s or Mbit/s; `–` for an empty
   cell): a column of `summary.csv`'s row (`data-row`, and `data-key` = `data-value`, or with
   `data-rest` the rows whose `data-key` column holds none of the values the same table
   shows), or, for `playbacks.csv`, `vp_sessions.csv` and `marconi_items.csv`, an aggregate of
   the rows whose `data-key` column holds `data-value` (`count`, `count:COL`, `sum:E`,
   `mean-seconds:COL`, `pct:COL=VALUE`, `pct:E/E`, `seconds:E`, `duration:E`, with E columns
   joined by `+`). When `--group-by` splits `summary.csv` into rows the number does not name,
   counts are added up and rates computed from the sums; the columns that cannot be
   (percentiles, peaks, bitrate) are counted as not checkable.
2. Every histogram count (`data-bin="startup:i"`, `"rebuffer:i"`) equals the count recomputed
   from `playbacks.csv` (`startup_ms`; `rebuffer_time_ms` / (`play_time_ms` + `rebuffer_time_ms`)).
3. Every table cell with a number (a digit or `–`), but a row's first and the text and time
   columns, says where it comes from.
4. The page refers to no resource: no `src`, `srcset` or `data` attribute, no `href` but
   `rejects.jsonl` and `#…` anchors, no `url()` but `url(#…)`, no `@import`, no refresh.
5. With `--dom`, Chromium's DOM of the loaded page has every section.
6. With `--sorted`, the DOM of the page after a test script clicked headings (render-test.sh):
   the worst playbacks by watch time, ascending, and the value propositions by mean time to
   start, descending (undefined values last), by the cells' `data-sort`.

It checks a run without `--state` (whose page also counts the sessions of open buckets an
earlier run carried, which are not in this run's CSV files). Exit status 0 when every check
passes, 1 otherwise; the problems go to standard error.
"""

import csv
import os
import re
import sys
from html.parser import HTMLParser

STARTUP_EDGES = [250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000]
REBUFFER_EDGES = [1, 50, 100, 200, 500, 1_000, 2_000]
SECTIONS = ["headline", "trends", "distributions", "breakdown", "worst", "value-propositions", "radio", "provenance"]
UNDEFINED = "–"
# Columns of summary.csv that add up across rows, and those computed from them.
SUMMABLE = {
    "views", "plays", "exits_before_start", "start_failures", "watch_ms", "rebuffers", "rebuffer_ms",
    "playback_failures", "vp_sessions", "vp_completed", "quality_changes", "vp_started", "buffers", "buffer_ms",
}
DERIVED = {
    "vsf_pct": ("start_failures", 100, "views"),
    "ebvs_pct": ("exits_before_start", 100, "views"),
    "vpf_pct": ("playback_failures", 100, "plays"),
    "rebuffer_pct": ("rebuffer_ms", 100, "watch_ms"),
    "rebuffers_per_hour": ("rebuffers", 3_600_000, "watch_ms"),
    "quality_changes_per_hour": ("quality_changes", 3_600_000, "watch_ms"),
    "vp_completion_pct": ("vp_completed", 100, "vp_sessions"),
}


def rounded(numerator, denominator):
    """numerator / denominator rounded to an integer, half away from zero (denominator > 0)."""
    quotient, remainder = divmod(abs(numerator), denominator)
    if 2 * remainder >= denominator:
        quotient += 1
    return -quotient if numerator < 0 else quotient


def grouped(value):
    """An integer with commas between groups of three digits: 1,234,567."""
    return f"{value:,}"


def decimal2(hundredths):
    sign = "-" if hundredths < 0 else ""
    whole, fraction = divmod(abs(hundredths), 100)
    return f"{sign}{whole:,}.{fraction:02d}"


def fixed2(numerator, denominator):
    """numerator / denominator with two decimals, rounded half away from zero, thousands
    separated; `–` when undefined."""
    if denominator == 0:
        return UNDEFINED
    if denominator < 0:
        numerator, denominator = -numerator, -denominator
    return decimal2(rounded(100 * numerator, denominator))


def hundredths_of(cell):
    """A CSV cell with two decimals ("3552358.11") as an integer of hundredths."""
    whole, _, fraction = cell.partition(".")
    negative = whole.startswith("-")
    value = abs(int(whole)) * 100 + int((fraction + "00")[:2])
    return -value if negative else value


def bitrate(hundredths):
    """bit/s under 1 kbit/s, whole kbit/s under 1 Mbit/s, else Mbit/s with two decimals; the
    unit chosen after rounding."""
    sign = "-" if hundredths < 0 else ""
    value = abs(hundredths)
    if rounded(value, 100) < 1000:
        return f"{sign}{rounded(value, 100)} bit/s"
    if rounded(value, 100_000) < 1000:
        return f"{sign}{rounded(value, 100_000)} kbit/s"
    return sign + decimal2(rounded(value, 1_000_000)) + " Mbit/s"


def duration(milliseconds):
    """850 ms, 4.5 s, 2 s, 45 s, 12 min 5 s, 12 min, 1 h 23 min, 12 h, 2 d 3 h: rounded half up
    in the smallest unit shown, the form chosen after rounding."""
    if milliseconds < 0:
        return "-" + duration(-milliseconds)

    def pair(count, per, big, small):
        whole, rest = divmod(count, per)
        return f"{whole} {big}" if rest == 0 else f"{whole} {big} {rest} {small}"

    if milliseconds < 1000:
        return f"{milliseconds} ms"
    tenths = rounded(milliseconds, 100)
    if tenths < 100:
        return f"{tenths // 10} s" if tenths % 10 == 0 else f"{tenths // 10}.{tenths % 10} s"
    seconds = rounded(milliseconds, 1000)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return pair(seconds, 60, "min", "s")
    minutes = rounded(milliseconds, 60_000)
    if minutes < 1440:
        return pair(minutes, 60, "h", "min")
    return pair(rounded(milliseconds, 3_600_000), 24, "d", "h")


def presented(column, cell):
    """A summary.csv cell (as the CSV writes it) as the page writes it."""
    if cell in ("", UNDEFINED):
        return UNDEFINED
    if column.startswith("startup_ms_"):
        return fixed2(int(cell), 1000)
    if column == "avg_bitrate_bps":
        return bitrate(hundredths_of(cell))
    if "." in cell:
        return decimal2(hundredths_of(cell))
    return grouped(int(cell))


class Page(HTMLParser):
    """The marked numbers, table cells, resource references and section ids of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.marked = []  # (attributes, text)
        self.cells = []  # (attributes, text, index in row, section id)
        self.references = []
        self.ids = set()
        self.tables = {}  # section id -> [[cell data-sort, or text]]
        self.table = 0  # the number of the table being read
        self._capture = None
        self._cell = None
        self._row_index = 0
        self._section = None
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if "id" in attributes:
            self.ids.add(attributes["id"])
        if tag in ("section", "footer") and "id" in attributes:
            self._section = attributes["id"]
        for name, value in attrs:
            value = value or ""
            if name in ("src", "srcset", "data", "action", "formaction", "poster", "background", "ping", "manifest"):
                self.references.append(f"<{tag} {name}={value!r}>")
            elif name in ("href", "xlink:href") and not (value.startswith("#") or value == "rejects.jsonl"):
                self.references.append(f"<{tag} {name}={value!r}>")
            elif "url(" in value and re.search(r"url\(\s*(?!#)", value):
                self.references.append(f"<{tag} {name}={value!r}>")
        if tag == "meta" and (attributes.get("http-equiv") or "").lower() == "refresh":
            self.references.append("<meta http-equiv=refresh>")
        if tag in ("link", "iframe", "img", "object", "embed", "base", "audio", "video", "source"):
            self.references.append(f"<{tag}>")
        if tag == "style":
            self._in_style = True
        if tag == "table":
            self.table += 1
        if tag == "tr":
            self._row_index = 0
            self.tables.setdefault(self._section, []).append([])
        if tag == "td":
            self._cell = [attributes, "", self._row_index, self._section]
            self._row_index += 1
        if "data-csv" in attributes or "data-bin" in attributes:
            self._capture = [dict(attributes, table=self.table), ""]

    def handle_endtag(self, tag):
        if tag == "style":
            self._in_style = False
        if self._capture is not None:
            self.marked.append(tuple(self._capture))
            self._capture = None
        if tag == "td" and self._cell is not None:
            self.cells.append(tuple(self._cell))
            rows = self.tables.get(self._section)
            if rows:
                rows[-1].append(self._cell[0].get("data-sort", self._cell[1]))
            self._cell = None
        if tag in ("section", "footer"):
            self._section = None

    def handle_data(self, data):
        if self._in_style and (re.search(r"url\(\s*(?!#)", data) or "@import" in data):
            self.references.append("a stylesheet url() or @import")
        if self._capture is not None:
            self._capture[1] += data
        if self._cell is not None:
            self._cell[1] += data


def read_csv(folder, name, cache={}):
    path = os.path.join(folder, name)
    if path not in cache:
        with open(path, newline="", encoding="utf-8") as file:
            cache[path] = list(csv.DictReader(file))
    return cache[path]


def columns_of(expression):
    return expression.split("+")


def total(rows, expression):
    """The sum of the expression's columns over the rows, or None when every cell is empty."""
    values = [int(row[column]) for row in rows for column in columns_of(expression) if row[column] != ""]
    return sum(values) if values else None


def aggregate(rows, operation):
    """What `operation` makes of the rows of playbacks.csv, vp_sessions.csv or marconi_items.csv."""
    name, _, argument = operation.partition(":")
    if name == "count":
        return grouped(len(rows) if not argument else sum(1 for row in rows if row[argument] != ""))
    if name == "sum":
        value = total(rows, argument)
        return UNDEFINED if value is None else grouped(value)
    if name == "mean-seconds":
        values = [int(row[argument]) for row in rows if row[argument] != ""]
        return fixed2(sum(values), 1000 * len(values))
    if name == "pct" and "=" in argument:
        column, _, value = argument.partition("=")
        return fixed2(100 * sum(1 for row in rows if row[column] == value), len(rows))
    if name == "pct":
        part, _, whole = argument.partition("/")
        return fixed2(100 * (total(rows, part) or 0), total(rows, whole) or 0)
    if name == "seconds":
        value = total(rows, argument)
        return UNDEFINED if value is None else fixed2(value, 1000)
    if name == "duration":
        value = total(rows, argument)
        return UNDEFINED if value is None else duration(value)
    raise ValueError(f"unknown operation {operation!r}")


def summary_value(rows, column):
    """A summary.csv column over the rows, as the page writes it: the cell of one row, or the rows
    added up; None when not checkable."""
    if len(rows) == 1:
        return presented(column, rows[0][column])
    if column in SUMMABLE:
        return grouped(sum(int(row[column]) for row in rows))
    if column in DERIVED:
        part, multiplier, whole = DERIVED[column]
        return fixed2(multiplier * sum(int(row[part]) for row in rows), sum(int(row[whole]) for row in rows))
    return None


def check_numbers(page, folder):
    problems, checked, uncheckable = [], 0, 0
    shown = {}  # (table, key) -> the values its rows show
    for attributes, _ in page.marked:
        if "data-key" in attributes and "data-value" in attributes:
            shown.setdefault((attributes["table"], attributes["data-key"]), set()).add(attributes["data-value"])
    for attributes, text in page.marked:
        text = text.strip()
        if "data-bin" in attributes:
            continue
        file, column = attributes["data-csv"], attributes.get("data-col", "")
        where = f"{file} {attributes.get('data-row', '')} {attributes.get('data-key', '')}={attributes.get('data-value', '')!r} {column}"
        rows = read_csv(folder, file)
        if "data-row" in attributes:
            rows = [row for row in rows if row["bucket"] == attributes["data-row"]]
        if "data-rest" in attributes:
            others = shown.get((attributes["table"], attributes["data-key"]), set())
            rows = [row for row in rows if row[attributes["data-key"]] not in others]
        elif "data-key" in attributes:
            rows = [row for row in rows if row[attributes["data-key"]] == attributes["data-value"]]
        if not rows:
            problems.append(f"{where}: no such row, the page shows {text!r}")
            continue
        expected = summary_value(rows, column) if file == "summary.csv" else aggregate(rows, column)
        if expected is None:
            uncheckable += 1
        elif expected != text:
            problems.append(f"{where}: the page shows {text!r}, the CSV gives {expected!r}")
        else:
            checked += 1
    return problems, checked, uncheckable


def check_bins(page, folder):
    plays = [row for row in read_csv(folder, "playbacks.csv") if row["started"] == "true"]
    startup = [0] * (len(STARTUP_EDGES) + 1)
    rebuffer = [0] * (len(REBUFFER_EDGES) + 1)
    for row in plays:
        if row["startup_ms"] != "":
            value = int(row["startup_ms"])
            startup[sum(1 for edge in STARTUP_EDGES if value >= edge)] += 1
        rebuffered = int(row["rebuffer_time_ms"])
        watched = int(row["play_time_ms"]) + rebuffered
        if watched > 0:
            rebuffer[sum(1 for edge in REBUFFER_EDGES if 10_000 * rebuffered >= edge * watched)] += 1
    expected = {"startup": startup, "rebuffer": rebuffer}
    problems, seen = [], set()
    for attributes, text in page.marked:
        if "data-bin" not in attributes:
            continue
        name, _, index = attributes["data-bin"].partition(":")
        seen.add(attributes["data-bin"])
        counts = expected.get(name)
        if counts is None or not index.isdigit() or int(index) >= len(counts):
            problems.append(f"bin {attributes['data-bin']!r} is no bin of the histograms")
        elif text.strip() != grouped(counts[int(index)]):
            problems.append(
                f"bin {attributes['data-bin']}: the page shows {text.strip()!r}, "
                f"playbacks.csv gives {grouped(counts[int(index)])}"
            )
    for name, counts in expected.items():
        for index in range(len(counts)):
            if f"{name}:{index}" not in seen:
                problems.append(f"bin {name}:{index} is not on the page")
    return problems, len(seen)


def check_cells(page):
    """Every table cell with a number (a digit or `–`), but a row's first and the text and time
    columns, marked with its source (the provenance left out)."""
    problems = []
    number = re.compile(r"[0-9–]")
    for attributes, text, index, section in page.cells:
        free = attributes.get("class") in ("text", "when")
        if section != "provenance" and index > 0 and not free and number.search(text) and "data-csv" not in attributes:
            problems.append(f"a table cell shows {text.strip()!r} without saying where it comes from")
    return problems


def sorted_problems(path):
    """The tables render-test.sh's script sorted: the worst playbacks by Watch (s) (ascending,
    clicked twice), the value propositions by Mean time to start (descending, clicked once)."""
    with open(path, encoding="utf-8") as file:
        dom = Page()
        dom.feed(file.read())
    problems = []

    def numbers(section, column):
        rows = [row for row in dom.tables.get(section, []) if len(row) > column]
        return [row[column].strip() for row in rows]

    for section, column, descending in (("worst", 5, False), ("value-propositions", 4, True)):
        values = numbers(section, column)
        defined = [float(value) for value in values if value != UNDEFINED]
        expected = sorted(defined, reverse=descending)
        undefined_last = all(value == UNDEFINED for value in values[len(defined) :])
        if len(values) < 2 or defined != expected or not undefined_last:
            problems.append(f"the sorted DOM's {section} column {column + 1} is not in order: {values}")
    return problems


def main():
    args = sys.argv[1:]
    options = {}
    for flag in ("--dom", "--sorted"):
        if flag in args:
            index = args.index(flag)
            options[flag] = args[index + 1]
            del args[index : index + 2]
    if len(args) != 1:
        sys.exit(__doc__)
    path = args[0]
    folder = os.path.dirname(os.path.abspath(path))
    with open(path, encoding="utf-8") as file:
        page = Page()
        page.feed(file.read())
    problems = [f"the page refers to a resource: {reference}" for reference in page.references]
    number_problems, checked, uncheckable = check_numbers(page, folder)
    problems += number_problems
    bin_problems, bins = check_bins(page, folder)
    problems += bin_problems + check_cells(page)
    if checked == 0:
        problems.append("no number of the page was checked against a CSV file")
    if "--dom" in options:
        with open(options["--dom"], encoding="utf-8") as file:
            dom = Page()
            dom.feed(file.read())
        problems += [f"the rendered page has no section {section!r}" for section in SECTIONS if section not in dom.ids]
    if "--sorted" in options:
        problems += sorted_problems(options["--sorted"])
    for problem in problems:
        print(f"page-check: {problem}", file=sys.stderr)
    print(
        f"page-check: {checked} numbers equal their CSV's, {uncheckable} not checkable from summary.csv's split rows, "
        f"{bins} histogram counts recomputed from playbacks.csv",
        file=sys.stderr,
    )
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
