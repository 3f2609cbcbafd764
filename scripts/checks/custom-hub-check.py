#!/usr/bin/env python3
"""Checks custom-replay's reports of samples/ against avt-replay's (scripts/checks/custom-hub-test.sh).

STANDARD CUSTOM HELP: the report folders of avt-replay and custom-replay, run with the same
options (--trace --trace-rejected --vp-duration open:complete) on samples/*.jsonl.gz, and
custom-replay's --help. custom-replay's hub adds countQualityChanges to every accepted event and
its metricalc adds TimeBetweenQualityChanges; everything else must be avt-replay's, byte for byte.
Prints what differs and exits 1 on any difference.
"""
import json
import pathlib
import sys

# Worked out by hand from samples/: android-42d1's first playback changes quality down at
# 1763622352600 and up at 1763622405000, 52400 ms later; ios-7f3a9c's playback changes once (at
# 1763622352000), so has no time between changes. The metric follows the event's PlayTime
# (13700), so its InfluxDB timestamp is the event's millisecond plus the instrument's offset,
# FNV-1a 64("android-42d1") mod 10^6 = 24118, plus 1.
EXPECTED_METRIC_LINES = {
    "metrics.influx": [
        'avt_openavt,tracker=0 TimeBetweenQualityChanges=52400i,instrument="android-42d1",'
        'playback_id="android-42d1:1763622330000:p1" 1763622405000024119',
    ],
    "metrics.graphite": ["avt.openavt.android-42d1.TimeBetweenQualityChanges 52400 1763622405"],
    "aggregates.csv": [
        "2025-11-20T07:00:00Z,openavt,TimeBetweenQualityChanges,1,52400.00,52400.00,52400.00,"
        "2745760000.00,52400.00,0.00,false",
    ],
}
# The quality changes of each playback as the hub counts them, after each change.
EXPECTED_COUNTS = [
    ("ios-7f3a9c:1763622300000:p1", 1763622352000, "QualityChangeUp", 1),
    ("android-42d1:1763622330000:p1", 1763622352600, "QualityChangeDown", 1),
    ("android-42d1:1763622330000:p1", 1763622405000, "QualityChangeUp", 2),
]
UNCHANGED = ["playbacks.csv", "vp_sessions.csv", "marconi_items.csv", "summary.csv", "rejects.jsonl"]

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def lines(folder, name):
    return (folder / name).read_text(encoding="utf-8").splitlines()


def main(standard, custom, help_file):
    for name in UNCHANGED:
        check((standard / name).read_bytes() == (custom / name).read_bytes(), f"{name} differs from avt-replay's")

    for name, expected in EXPECTED_METRIC_LINES.items():
        custom_lines = lines(custom, name)
        added = [line for line in custom_lines if "TimeBetweenQualityChanges" in line]
        check(added == expected, f"{name}: TimeBetweenQualityChanges lines are {added}, expected {expected}")
        rest = [line for line in custom_lines if "TimeBetweenQualityChanges" not in line]
        check(rest == lines(standard, name), f"{name}: the other lines differ from avt-replay's")

    standard_trace = [json.loads(line) for line in lines(standard, "events.jsonl")]
    custom_trace = [json.loads(line) for line in lines(custom, "events.jsonl")]
    check(len(custom_trace) == len(standard_trace), "events.jsonl has a different number of lines")
    counts = []
    last_count = {}
    for number, (standard_line, custom_line) in enumerate(zip(standard_trace, custom_trace), start=1):
        attributes = custom_line.get("attrs", {})
        accepted = custom_line.get("type") == "avt" and "rejected" not in custom_line
        count = attributes.pop("countQualityChanges", None)
        check(accepted == (count is not None), f"events.jsonl:{number}: countQualityChanges is {count} "
              f"(every accepted OpenAVT event has it, no other line)")
        if count is not None:
            playback = attributes.get("playbackId")
            last_count[playback] = count
            if custom_line["action"].startswith("QualityChange"):
                counts.append((playback, custom_line["ts"], custom_line["action"], count))
        custom_line.get("metrics", {}).pop("TimeBetweenQualityChanges", None)
        check(custom_line == standard_line, f"events.jsonl:{number}: differs from avt-replay's beyond the custom "
              f"attribute and metric")
    check(counts == EXPECTED_COUNTS, f"countQualityChanges after each change: {counts}, expected {EXPECTED_COUNTS}")
    # The count at a playback's last event is its quality_changes in playbacks.csv.
    header, *rows = [line.split(",") for line in lines(custom, "playbacks.csv")]
    for row in rows:
        playback = row[header.index("playback_id")]
        quality_changes = int(row[header.index("quality_changes")])
        check(last_count.get(playback, 0) == quality_changes, f"{playback}: counted {last_count.get(playback)}, "
              f"playbacks.csv says {quality_changes}")

    check("custom-replay logs/*.jsonl.gz" in help_file.read_text(encoding="utf-8"), "--help does not say custom-replay")

    if failures:
        for failure in failures[:10]:
            print(f"custom-hub: FAILED: {failure}", file=sys.stderr)
        if len(failures) > 10:
            print(f"custom-hub: ... and {len(failures) - 10} more", file=sys.stderr)
        sys.exit(1)
    print(f"custom-hub: custom-replay matches avt-replay plus its attribute and metric ({len(rows)} playbacks)")


if __name__ == "__main__":
    main(*(pathlib.Path(argument) for argument in sys.argv[1:4]))
