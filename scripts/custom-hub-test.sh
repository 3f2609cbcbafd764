#!/usr/bin/env bash
# Builds samples/custom-hub, a package that depends on this one by path and makes its own replay
# command (custom-replay: a hub that counts quality changes, a metricalc that adds
# TimeBetweenQualityChanges), replays samples/ with it and with avt-replay, and checks the
# custom attribute and metric and that every other output is avt-replay's
# (scripts/custom-hub-check.py). The sample builds in its own samples/custom-hub/.build, which
# compiles this package a second time: about 2 minutes on 2 cores, once; then seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product avt-replay
swift build --package-path samples/custom-hub
standard="$(swift build --show-bin-path)/avt-replay"
custom="$(swift build --package-path samples/custom-hub --show-bin-path)/custom-replay"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
options=(--quiet --trace --trace-rejected --vp-duration open:complete --metrics events)
"$standard" "${options[@]}" --out "$work/standard" samples/*.jsonl.gz
"$custom" "${options[@]}" --out "$work/custom" samples/*.jsonl.gz
"$custom" --help > "$work/help.txt"
python3 scripts/custom-hub-check.py "$work/standard" "$work/custom" "$work/help.txt"
