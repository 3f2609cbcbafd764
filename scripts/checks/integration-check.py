#!/usr/bin/env python3
"""Compares what real servers hold with the files avt-replay wrote.

influx URL DB FILE: every point of the line-protocol FILE is in InfluxDB exactly once, with its
value (InfluxDB's /query, epoch=ns).
graphite WHISPER_DIR FILE: every line of the plaintext FILE is in carbon's whisper files, with
its value (run with Debian's /usr/bin/python3, which has the whisper module). Carbon writes to
disk a second or two after it received the lines, so this polls for at most 30 s.
Both print a summary and exit 1 on a difference.
"""
import json
import re
import sys
import urllib.parse
import urllib.request


def unescape(text):
    return re.sub(r'\\(.)', r'\1', text)


def parse_line(line):
    """measurement, (tag, value) pairs, {field: value text}, timestamp of one line of our encoder's output."""
    head, fields, ts = re.match(r'^(.*?(?<!\\)) (.*) (\d+)$', line).groups()
    parts = re.split(r'(?<!\\),', head)
    measurement = unescape(parts[0])
    tags = tuple(tuple(unescape(side) for side in re.split(r'(?<!\\)=', part, 1)) for part in parts[1:])
    values = {}
    for part in re.findall(r'((?:[^,"\\]|\\.)+=(?:"(?:[^"\\]|\\.)*"|[^,]+))', fields):
        key, value = part.split("=", 1)
        values[key] = value
    return measurement, tags, values, int(ts)


def influx(url, db, path):
    expected = {}
    tag_keys = {}
    for line in open(path, encoding="utf-8"):
        measurement, tags, values, ts = parse_line(line.rstrip("\n"))
        tag_keys.setdefault(measurement, set()).update(key for key, _ in tags)
        for field, value in values.items():
            if value.startswith('"'):
                continue
            if value in ("true", "false"):
                number = value == "true"
            else:
                number = int(value[:-1]) if value.endswith("i") else float(value)
            expected[(measurement, tuple(sorted(tags)), field, ts)] = number
    found = {}
    counts = {}
    for measurement in sorted({key[0] for key in expected}):
        query = urllib.parse.urlencode({"db": db, "epoch": "ns", "q": f'SELECT * FROM "{measurement}"'})
        with urllib.request.urlopen(f"{url}/query?{query}", timeout=30) as answer:
            body = json.load(answer)
        for series in body["results"][0].get("series", []):
            columns = series["columns"]
            for row in series["values"]:
                record = dict(zip(columns, row))
                counts[measurement] = counts.get(measurement, 0) + 1
                tags = tuple(sorted((key, record[key]) for key in tag_keys[measurement] if record.get(key) is not None))
                for field, value in record.items():
                    if field == "time" or field in tag_keys[measurement] or value is None or isinstance(value, str):
                        continue
                    found[(measurement, tags, field, record["time"])] = value
    missing = [key for key in expected if key not in found or found[key] != expected[key]]
    extra = [key for key in found if key not in expected]
    lines = sum(1 for _ in open(path, encoding="utf-8"))
    points = sum(counts.values())
    print(f"influx: {len(expected)} values in {lines} lines; {points} points stored; "
          f"{len(missing)} missing or different, {len(extra)} unexpected")
    for key in (missing + extra)[:5]:
        print(f"influx:   {key}: expected {expected.get(key)}, stored {found.get(key)}")
    return 0 if not missing and not extra and points == lines else 1


def graphite(directory, path):
    import os
    import struct
    import time
    import whisper

    expected = []
    for line in open(path, encoding="utf-8"):
        name, value, epoch = line.split()
        expected.append((name, float(value), int(epoch)))
    deadline = time.monotonic() + 30
    while True:
        wrong = []
        for name, value, epoch in expected:
            file = os.path.join(directory, *name.split(".")) + ".wsp"
            stored = None
            if os.path.exists(file):
                try:
                    (start, _, step), values = whisper.fetch(file, epoch - 1, epoch)
                except (whisper.CorruptWhisperFile, struct.error):
                    # Carbon is still writing the new file (its header, or its archive is shorter
                    # than the header says): not stored yet, look again.
                    values = None
                stored = values[(epoch - start) // step] if values and 0 <= (epoch - start) // step < len(values) else None
            if stored is None or abs(stored - value) > 1e-9 * max(1.0, abs(value)):
                wrong.append((name, epoch, value, stored))
        if not wrong or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    print(f"graphite: {len(expected)} lines; {len(expected) - len(wrong)} stored with their value, {len(wrong)} not")
    for name, epoch, value, stored in wrong[:5]:
        print(f"graphite:   {name} at {epoch}: expected {value}, stored {stored}")
    return 0 if not wrong else 1


if __name__ == "__main__":
    if sys.argv[1] == "influx":
        sys.exit(influx(sys.argv[2], sys.argv[3], sys.argv[4]))
    if sys.argv[1] == "graphite":
        sys.exit(graphite(sys.argv[2], sys.argv[3]))
    sys.exit(f"unknown check {sys.argv[1]}")
