#!/usr/bin/env python3
"""Nightly runs of the custom-hub sample's commands (scripts/checks/custom-hub-test.sh).

CUSTOM LEGACY ONE_RUN WORK: custom-replay and legacy-replay, custom-replay's reports of
samples/*.jsonl.gz in one run (with OPTIONS below), and a folder to work in.

- custom-replay over three nights with --state (samples/avt-2025112007 cut between
  android-42d1's two quality changes, then samples/avt-2025112008), then --finish with no input:
  its hub and metricalc keep their state across the nights, so the second change is counted 2
  and TimeBetweenQualityChanges is 52400 ms on the second night, and the nights' rows put
  together are the one run's.
- legacy-replay, whose metricalc cannot keep its state: a night with OpenAVT records fails with
  exit status 4, naming the metricalc, and leaves the previous reports and state as they were.
Prints what failed and exits 1.
"""
import gzip
import json
import pathlib
import subprocess
import sys

OPTIONS = ["--quiet", "--trace", "--trace-rejected", "--vp-duration", "open:complete", "--metrics", "events"]
CUT = 1763622380000  # between android-42d1's QualityChangeDown (…352600) and QualityChangeUp (…405000)
ROW_FILES = ["playbacks.csv", "vp_sessions.csv", "marconi_items.csv"]

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def run(command, *arguments):
    return subprocess.run([str(command), *map(str, arguments)], capture_output=True, text=True)


def lines(path):
    return path.read_text(encoding="utf-8").splitlines()


def main(custom, legacy, one_run, work):
    samples = sorted(pathlib.Path("samples").glob("*.jsonl.gz"))
    with gzip.open(samples[0], "rt", encoding="utf-8") as first:
        records = first.read().splitlines()
    night_a, night_b = work / "night-a.jsonl", work / "night-b.jsonl"
    night_a.write_text("".join(line + "\n" for line in records if json.loads(line)["ts"] < CUT), encoding="utf-8")
    night_b.write_text("".join(line + "\n" for line in records if json.loads(line)["ts"] >= CUT), encoding="utf-8")

    state = work / "custom.state"
    nights = []
    for name, inputs in [("a", [night_a]), ("b", [night_b]), ("c", [samples[1]]), ("finish", [])]:
        out = work / f"custom-{name}"
        finish = ["--finish"] if not inputs else []
        result = run(custom, *OPTIONS, "--out", out, "--state", state, *finish, *inputs)
        check(result.returncode == 0, f"custom-replay night {name}: exit {result.returncode}: {result.stderr}")
        nights.append(out)
    if failures:
        return
    for name in ROW_FILES:
        joined = lines(nights[0] / name) + [row for night in nights[1:] for row in lines(night / name)[1:]]
        check(joined == lines(one_run / name), f"{name}: the nights' rows are not the one run's")
    changes = [json.loads(line) for line in lines(nights[1] / "events.jsonl")]
    second = [event for event in changes if event.get("ts") == 1763622405000 and event.get("action") == "QualityChangeUp"]
    check(
        [event["attrs"].get("countQualityChanges") for event in second] == [2],
        f"night b: the second quality change is counted {[e['attrs'].get('countQualityChanges') for e in second]}, "
        "expected [2] (the hub's state from night a)")
    check(
        any("TimeBetweenQualityChanges=52400i" in line for line in lines(nights[1] / "metrics.influx")),
        "night b: no TimeBetweenQualityChanges=52400 (the metricalc's state from night a)")

    # legacy-replay: a night without OpenAVT records keeps a state; the next, with some, fails.
    night_0 = work / "night-0.jsonl"
    night_0.write_text(
        "".join(line + "\n" for line in records if json.loads(line).get("type", "avt") != "avt"), encoding="utf-8")
    legacy_state, legacy_out = work / "legacy.state", work / "legacy"
    result = run(legacy, "--quiet", "--out", legacy_out, "--state", legacy_state, night_0)
    check(result.returncode == 0, f"legacy-replay night 0: exit {result.returncode}: {result.stderr}")
    # run.json is every run's own account, a failed one's too (docs/run-json.md).
    kept = lambda: {path.name: path.read_bytes() for path in [legacy_state, *sorted(legacy_out.iterdir())]
                    if path.name != "run.json"}
    before = kept()
    result = run(legacy, "--quiet", "--out", legacy_out, "--state", legacy_state, night_a)
    check(result.returncode == 4, f"legacy-replay night a: exit {result.returncode}, expected 4")
    check(
        "the metricalc EventCountingMetricalc cannot keep its state for --state" in result.stderr,
        f"legacy-replay night a: the message does not name the metricalc: {result.stderr}")
    check(kept() == before, "legacy-replay night a: the previous reports or state changed")
    check('"exitStatus":4' in (legacy_out / "run.json").read_text(encoding="utf-8"), "legacy-replay night a: run.json")


if __name__ == "__main__":
    main(*(pathlib.Path(argument) for argument in sys.argv[1:5]))
    if failures:
        for failure in failures:
            print(f"custom-hub: FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
    print("custom-hub: custom-replay keeps its hub's and metricalc's state across nights; "
          "legacy-replay's metricalc is refused by --state, with exit 4")
