#!/usr/bin/env python3
"""Checks a screenshot of report.html: every chart the page declares is drawn, with each series
visible; and that every character of its text has a glyph (no box, "tofu").

    render-check.py REPORT_HTML SCREENSHOT_PNG [--min-charts N]
    render-check.py --glyph-page REPORT_HTML GLYPHS_HTML      (prints the window size to render it at)
    render-check.py --glyphs REPORT_HTML GLYPHS_PNG

From the HTML it reads each chart (`<svg class="chart">`): the fill of its plot area
(`<rect class="plot">`) and the colours of its legend (`<rect class="swatch">`). In the PNG (decoded here with zlib, 8-bit RGB or RGBA) it finds each plot
area by its fill (every chart has its own) and counts, inside it, the pixels of each series
colour (the legend lies outside the plot area, so it does not count). It fails, saying why, when
there are fewer than N charts (default 7), a plot area is missing or too small, or a series has
fewer than 20 pixels in its plot area. Exit status 0 when every check passes, 1 otherwise.

Glyphs: `--glyph-page` writes a page with every character of the report's text that is not
ASCII (marks, format characters and spaces, which draw nothing alone, left out), each in a cell
of its own, in the report's own font stack, after two reference cells with unassigned code
points (U+0378, U+0379), which no font has: Chromium draws those with the primary font's
missing-glyph box. `--glyphs` then reads the screenshot of that page: a character whose cell is
pixel for pixel the references' box, or blank, fell back to no font, and is reported with its
code point. The two references must be alike and not blank, or the method itself is in doubt
(another renderer, a font that covers them), which fails too. Comparing pixels of one
rendering, not font tables, asks the question that matters: what Chromium drew.
"""

import unicodedata

import re
import struct
import sys
import zlib

MIN_SERIES_PIXELS = 20
MIN_PLOT_SIZE = (200, 60)
# Series colours are drawn exactly inside shapes; edges blend with the background.
TOLERANCE = 6


def read_png(path):
    """Returns (width, height, rows), rows a list of bytes objects of RGB triples."""
    with open(path, "rb") as file:
        data = file.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG")
    position, compressed, header = 8, [], None
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            compressed.append(body)
        position += 12 + length
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in (2, 6) or interlace:
        raise ValueError(f"{path}: unsupported PNG (depth {depth}, colour type {colour_type}, interlace {interlace})")
    channels = 3 if colour_type == 2 else 4
    raw = zlib.decompress(b"".join(compressed))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, row = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        unfilter(kind, row, previous, channels)
        rows.append(bytes(row) if channels == 3 else bytes(b for i, b in enumerate(row) if i % 4 != 3))
        previous = row
    return width, height, rows


def unfilter(kind, row, previous, bpp):
    """Undoes one row's PNG filter in place."""
    if kind == 1:
        for i in range(bpp, len(row)):
            row[i] = (row[i] + row[i - bpp]) & 0xFF
    elif kind == 2:
        row[:] = bytes((a + b) & 0xFF for a, b in zip(row, previous))
    elif kind == 3:
        for i in range(len(row)):
            left = row[i - bpp] if i >= bpp else 0
            row[i] = (row[i] + ((left + previous[i]) >> 1)) & 0xFF
    elif kind == 4:
        for i in range(len(row)):
            a = row[i - bpp] if i >= bpp else 0
            b = previous[i]
            c = previous[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            predictor = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            row[i] = (row[i] + predictor) & 0xFF
    elif kind != 0:
        raise ValueError(f"unknown PNG filter {kind}")


def charts_of(html):
    """[(plot fill, [(series name, colour)])] for each chart of the page."""
    charts = []
    for svg in re.findall(r'<svg class="chart".*?</svg>', html, re.S):
        plot = re.search(r'<rect class="plot"[^>]* fill="(#[0-9a-f]{6})"/>', svg)
        legend = re.findall(
            r'<rect class="swatch"[^>]* fill="(#[0-9a-f]{6})"/><text class="legend"[^>]*>([^<]*)</text>', svg
        )
        charts.append((plot.group(1) if plot else None, [(name, colour) for colour, name in legend]))
    return charts


def rgb(colour):
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def check(html_path, png_path, min_charts):
    with open(html_path, encoding="utf-8") as file:
        charts = charts_of(file.read())
    problems = []
    if len(charts) < min_charts:
        problems.append(f"{html_path} declares {len(charts)} charts, expected at least {min_charts}")
    width, height, rows = read_png(png_path)
    fills = {rgb(fill): fill for fill, _ in charts if fill}
    boxes = {}
    for y, row in enumerate(rows):
        for fill in fills:
            index = row.find(bytes(fill))
            # A match must start on a pixel boundary.
            while index != -1 and index % 3:
                index = row.find(bytes(fill), index + 1)
            if index == -1:
                continue
            last = row.rfind(bytes(fill))
            while last % 3:
                last = row.rfind(bytes(fill), 0, last + 2)
            x0, x1 = index // 3, last // 3
            box = boxes.get(fill)
            boxes[fill] = (x0, y, x1, y) if box is None else (min(box[0], x0), box[1], max(box[2], x1), y)
    for number, (fill, series) in enumerate(charts, 1):
        if not fill:
            problems.append(f"chart {number} has no plot area in the HTML")
            continue
        if not series:
            problems.append(f"chart {number} has no series in the HTML")
        box = boxes.get(rgb(fill))
        if box is None:
            problems.append(f"chart {number}: no pixel of its plot area ({fill}) in the screenshot")
            continue
        x0, y0, x1, y1 = box
        if x1 - x0 + 1 < MIN_PLOT_SIZE[0] or y1 - y0 + 1 < MIN_PLOT_SIZE[1]:
            problems.append(f"chart {number}: plot area {fill} is only {x1 - x0 + 1}x{y1 - y0 + 1} pixels")
            continue
        for name, colour in series:
            target = rgb(colour)
            count = 0
            for row in rows[y0 : y1 + 1]:
                for x in range(x0, x1 + 1):
                    r, g, b = row[3 * x], row[3 * x + 1], row[3 * x + 2]
                    if abs(r - target[0]) <= TOLERANCE and abs(g - target[1]) <= TOLERANCE and abs(b - target[2]) <= TOLERANCE:
                        count += 1
            if count < MIN_SERIES_PIXELS:
                problems.append(
                    f"chart {number}: series {name!r} ({colour}) has {count} pixels in the plot area "
                    f"at {x0},{y0}-{x1},{y1}, expected at least {MIN_SERIES_PIXELS}"
                )
    return problems


REFERENCES = ["\u0378", "\u0379"]
CELL, COLUMNS = 40, 20
SILENT = {"Mn", "Me", "Cf", "Cc", "Zs", "Zl", "Zp", "Co", "Cn", "Cs"}


def characters_of(html):
    """The distinct characters of the page's text (not markup, not its style or script) that are
    not ASCII and draw something alone, in code-point order."""
    from html.parser import HTMLParser

    class Text(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.text, self.skip = [], 0

        def handle_starttag(self, tag, attrs):
            self.skip += tag in ("style", "script")

        def handle_endtag(self, tag):
            self.skip -= tag in ("style", "script")

        def handle_data(self, data):
            if not self.skip:
                self.text.append(data)

    parser = Text()
    parser.feed(html)
    found = {c for c in "".join(parser.text) if ord(c) > 0x7E}
    return sorted(c for c in found if unicodedata.category(c) not in SILENT or c in REFERENCES)


def font_family(html):
    match = re.search(r"body \{[^}]*font-family: ([^;]+);", html)
    return match.group(1) if match else "sans-serif"


def glyph_page(html_path, out_path):
    """Writes the page of glyph cells; returns the window size (width,height) to render it at."""
    with open(html_path, encoding="utf-8") as file:
        html = file.read()
    cells = REFERENCES + characters_of(html)
    rows = (len(cells) + COLUMNS - 1) // COLUMNS
    parts = [
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><style>',
        f"body {{ margin: 0; background: #fff; color: #000; font-family: {font_family(html)}; }}",
        f"span {{ position: absolute; width: {CELL}px; height: {CELL}px; line-height: {CELL}px; font-size: 28px; "
        "text-align: center; overflow: hidden; }",
        "</style></head><body>",
    ]
    for index, character in enumerate(cells):
        x, y = CELL * (index % COLUMNS), CELL * (index // COLUMNS)
        parts.append(f'<span style="left: {x}px; top: {y}px">&#{ord(character)};</span>')
    parts.append("</body></html>\n")
    with open(out_path, "w", encoding="utf-8") as file:
        file.write("\n".join(parts))
    return CELL * COLUMNS, CELL * rows + CELL


def check_glyphs(html_path, png_path):
    with open(html_path, encoding="utf-8") as file:
        cells = REFERENCES + characters_of(file.read())
    _, _, rows = read_png(png_path)

    def pixels(index):
        x, y = CELL * (index % COLUMNS), CELL * (index // COLUMNS)
        return b"".join(row[3 * x : 3 * (x + CELL)] for row in rows[y : y + CELL])

    blank = b"\xff" * (3 * CELL * CELL)
    box = pixels(0)
    problems = []
    if box == blank or pixels(1) != box:
        problems.append(
            "the reference cells (U+0378, U+0379, which no font has) are blank or differ: "
            "the missing-glyph box cannot be told apart, so the check cannot be made"
        )
        return problems, 0
    for index, character in enumerate(cells[2:], 2):
        drawn = pixels(index)
        if drawn == box or drawn == blank:
            name = unicodedata.name(character, "unassigned")
            what = "the missing-glyph box" if drawn == box else "nothing"
            problems.append(f"U+{ord(character):04X} {character!r} ({name}) is drawn as {what}: no font has it")
    return problems, len(cells) - 2


def main():
    args = sys.argv[1:]
    if args[:1] == ["--glyph-page"] and len(args) == 3:
        width, height = glyph_page(args[1], args[2])
        print(f"{width},{height}")
        return
    if args[:1] == ["--glyphs"] and len(args) == 3:
        problems, checked = check_glyphs(args[1], args[2])
        for problem in problems:
            print(f"render-check: {problem}", file=sys.stderr)
        if not problems:
            print(f"render-check: every one of {checked} characters beyond ASCII has a glyph", file=sys.stderr)
        sys.exit(1 if problems else 0)
    min_charts = 7
    if "--min-charts" in args:
        index = args.index("--min-charts")
        min_charts = int(args[index + 1])
        del args[index : index + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    problems = check(args[0], args[1], min_charts)
    for problem in problems:
        print(f"render-check: {problem}", file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
