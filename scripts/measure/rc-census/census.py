#!/usr/bin/env python3
"""Names and sums the counts census.c wrote: scripts/measure/rc-census.sh's report.

usage: census.py COUNTS [RECORDS]

Prints reference-count operations by calling function, by type, and by both, largest
first; with RECORDS, also per record. Operations on the standard library's empty array
and dictionary are counted apart: they are immortal objects, so their counts are a check,
not an atomic write.
"""
import bisect
import collections
import signal
import subprocess
import sys

IMMORTAL = ("__EmptyArrayStorage", "__EmptyDictionarySingleton")


def symbols(path):
    """The defined symbols of a binary or library, sorted by address."""
    table = []
    for flags in (["--defined-only"], ["-D", "--defined-only"]):
        out = subprocess.run(["nm", *flags, path], capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3:
                table.append((int(parts[0], 16), parts[2]))
        if table:
            break
    return sorted(table)


tables, names = {}, {}


def name(path, offset):
    if path == "?":
        return "?"
    if path not in tables:
        tables[path] = symbols(path)
    table = tables[path]
    index = bisect.bisect_right(table, (offset, "\uffff")) - 1
    symbol = table[index][1] if index >= 0 else "?"
    if symbol not in names:
        demangled = subprocess.run(
            ["swift", "demangle", "-compact", "-simplified", symbol], capture_output=True, text=True
        ).stdout.strip()
        names[symbol] = demangled or symbol
    return names[symbol]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    records = int(sys.argv[2]) if len(sys.argv) == 3 else None
    rows = []
    for line in open(sys.argv[1]):
        count, kind, type_path, type_offset, caller_path, caller_offset = line.split()
        type_name = name(type_path, int(type_offset, 16))
        caller = name(caller_path, int(caller_offset, 16))
        rows.append((int(count), kind, type_name[:80], caller[:110]))
    immortal = sum(r[0] for r in rows if any(i in r[2] for i in IMMORTAL))
    atomic = [r for r in rows if not any(i in r[2] for i in IMMORTAL)]
    total = sum(r[0] for r in atomic)
    per = f" ({total / records:.1f} a record)" if records else ""
    print(f"{total:,} atomic operations{per}; {immortal:,} more on immortal empty collections")

    def show(title, key, limit):
        sums = collections.Counter()
        for row in atomic:
            sums[key(row)] += row[0]
        print(f"\n== {title}")
        for what, count in sums.most_common(limit):
            share = f"{count / records:6.2f}/rec " if records else ""
            print(f"{count:9,} {100 * count / total:5.1f}% {share}{what}")

    show("by calling function", lambda r: r[3], 30)
    show("by type", lambda r: r[2], 20)
    show("by type and caller", lambda r: f"{r[1]:7} {r[2][:50]} <- {r[3]}", 40)


signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quietly, when piped into head
main()
