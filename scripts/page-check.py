#!/usr/bin/env python3
"""Checks report.html against the CSV files beside it, and that it needs nothing from elsewhere.

    page-check.py REPORT_HTML [--dom DUMPED_DOM] [--sorted DUMPED_DOM]

1. Every number the page marks with `data-csv` (docs/reports.md, "report.html") equals what
   its CSV file in the same folder gives, formatted as the CSV files write numbers (two
   decimals, rounded half away from zero; `–` for an empty cell): a column of `summary.csv`'s
   row (`data-row`, and `data-key` = `data-value`), or, for `playbacks.csv`, `vp_sessions.csv`
   and `marconi_items.csv`, an aggregate of the rows whose `data-key` column holds `data-value`
   (`count`, `count:COL`, `sum:E`, `mean:COL`, `pct:COL=VALUE`, `pct:E/E`, `seconds:E`,
   `hours:E`, with E columns joined by `+`). When `--group-by` splits `summary.csv` into rows
   the number does not name, counts are added up and rates computed from the sums; the columns
   that cannot be (percentiles, peaks, bitrate) are counted as not checkable.
2. Every histogram count (`data-bin="startup:i"`, `"rebuffer:i"`) equals the count recomputed
   from `playbacks.csv` (`startup_ms`; `rebuffer_time_ms` / (`play_time_ms` + `rebuffer_time_ms`)).
3. Every table cell with a number, but a row's first, says where it comes from.
4. The page refers to no resource: no `src`, `srcset` or `data` attribute, no `href` but
   `rejects.jsonl` and `#…` anchors, no `url()` but `url(#…)`, no `@import`, no refresh.
5. With `--dom`, Chromium's DOM of the loaded page has every section.
6. With `--sorted`, the DOM of the page after a test script clicked headings (render-test.sh):
   the worst playbacks by watch time, ascending, and the value propositions by mean time to
   start, descending (undefined values last).

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


def fixed2(numerator, denominator):
    """numerator / denominator with two decimals, rounded half away from zero; `–` when undefined."""
    if denominator == 0:
        return UNDEFINED
    negative = (numerator < 0) != (denominator < 0)
    hundredths, remainder = divmod(abs(numerator) * 100, abs(denominator))
    if 2 * remainder >= abs(denominator):
        hundredths += 1
    sign = "-" if negative and hundredths else ""
    return f"{sign}{hundredths // 100}.{hundredths % 100:02d}"


class Page(HTMLParser):
    """The marked numbers, table cells, resource references and section ids of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.marked = []  # (attributes, text)
        self.cells = []  # (attributes, text, index in row, section id)
        self.references = []
        self.ids = set()
        self.tables = {}  # section id -> [[cell text]]
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
        if tag == "tr":
            self._row_index = 0
            self.tables.setdefault(self._section, []).append([])
        if tag == "td":
            self._cell = [attributes, "", self._row_index, self._section]
            self._row_index += 1
        if "data-csv" in attributes or "data-bin" in attributes:
            self._capture = [attributes, ""]

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
                rows[-1].append(self._cell[1])
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
        return str(len(rows) if not argument else sum(1 for row in rows if row[argument] != ""))
    if name == "sum":
        value = total(rows, argument)
        return UNDEFINED if value is None else str(value)
    if name == "mean":
        values = [int(row[argument]) for row in rows if row[argument] != ""]
        return fixed2(sum(values), len(values))
    if name == "pct" and "=" in argument:
        column, _, value = argument.partition("=")
        return fixed2(100 * sum(1 for row in rows if row[column] == value), len(rows))
    if name == "pct":
        part, _, whole = argument.partition("/")
        return fixed2(100 * (total(rows, part) or 0), total(rows, whole) or 0)
    if name in ("seconds", "hours"):
        value = total(rows, argument)
        return UNDEFINED if value is None else fixed2(value, 1000 if name == "seconds" else 3_600_000)
    raise ValueError(f"unknown operation {operation!r}")


def summary_value(rows, column):
    """A summary.csv column over the rows: the cell of one row, or the rows added up; None when not checkable."""
    if len(rows) == 1:
        return rows[0][column] or UNDEFINED
    if column in SUMMABLE:
        return str(sum(int(row[column]) for row in rows))
    if column in DERIVED:
        part, multiplier, whole = DERIVED[column]
        return fixed2(multiplier * sum(int(row[part]) for row in rows), sum(int(row[whole]) for row in rows))
    return None


def check_numbers(page, folder):
    problems, checked, uncheckable = [], 0, 0
    for attributes, text in page.marked:
        text = text.strip()
        if "data-bin" in attributes:
            continue
        file, column = attributes["data-csv"], attributes.get("data-col", "")
        where = f"{file} {attributes.get('data-row', '')} {attributes.get('data-key', '')}={attributes.get('data-value', '')!r} {column}"
        rows = read_csv(folder, file)
        if "data-row" in attributes:
            rows = [row for row in rows if row["bucket"] == attributes["data-row"]]
        if "data-key" in attributes:
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
        elif text.strip() != str(counts[int(index)]):
            problems.append(
                f"bin {attributes['data-bin']}: the page shows {text.strip()!r}, playbacks.csv gives {counts[int(index)]}"
            )
    for name, counts in expected.items():
        for index in range(len(counts)):
            if f"{name}:{index}" not in seen:
                problems.append(f"bin {name}:{index} is not on the page")
    return problems, len(seen)


def check_cells(page):
    """Every table cell with a number, but a row's first, marked with its source (the provenance left out)."""
    problems = []
    number = re.compile(r"^(-?\d+(\.\d+)?|–)$")
    for attributes, text, index, section in page.cells:
        if section != "provenance" and index > 0 and number.match(text.strip()) and "data-csv" not in attributes:
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
