#!/usr/bin/env python3
"""Writes a day of avt records for N distinct instruments, in time order, to standard output.

Instrument k starts at k * (24 h / N) after 2025-11-20T00:00:00Z and emits MediaRequest,
StreamLoad, Start, Ping and PauseBegin over one minute, then nothing: a day of N short
viewings, each leaving an instrument with a paused playback. Deterministic.

    scripts/generate/many-instruments.py 1000000 > many.jsonl
"""
import heapq
import sys

BASE = 1763596800000
DAY = 86_400_000
ACTIONS = [("MediaRequest", 0), ("StreamLoad", 500), ("Start", 2000), ("Ping", 30000), ("PauseBegin", 60000)]


def main():
    count = int(sys.argv[1])
    step = DAY // max(count, 1)
    out = sys.stdout
    pending = []

    def flush(until):
        while pending and pending[0][0] <= until:
            time, k, action = heapq.heappop(pending)
            out.write('{"ts":%d,"instrument":"dev-%07d","tracker":0,"action":"%s","attrs":{"title":"T%d","duration":1800000}}\n'
                      % (time, k, action, k % 100))

    for k in range(count):
        start = BASE + k * step
        for action, offset in ACTIONS:
            heapq.heappush(pending, (start + offset, k, action))
        flush(start)
    flush(float("inf"))


main()
