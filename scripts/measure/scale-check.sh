#!/usr/bin/env bash
# Peak memory at scale, for docs/time.md: idle live instruments, a day with a million
# distinct instruments, and a thousand files open at once. Measures memory, not time (one run
# each, /usr/bin/time's max RSS); uses a release build. Not part of the tests (a few minutes,
# some 2 GB of temporary files).
#
#   scripts/measure/scale-check.sh [WORK_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${1:-$(mktemp -d)}
mkdir -p "$work"
swift build -c release --product avt-replay >/dev/null
bin=$(swift build -c release --show-bin-path)
loggen=$(scripts/generate/loggen.sh release)

peak() { # label, report folder, then avt-replay's arguments
    local label=$1 out=$2
    shift 2
    /usr/bin/time -f "%M" -o "$work/rss" "$bin/avt-replay" --quiet --out "$work/$out" "$@" || true
    printf '| %s | %s MB |\n' "$label" "$(($(cat "$work/rss") / 1000))"
}

echo "| input | peak memory |"
echo "|---|---|"
for count in 10000 100000; do
    [ -f "$work/idle-$count.jsonl" ] || scripts/generate/many-instruments.py "$count" >"$work/idle-$count.jsonl"
    peak "$count instruments, each idle with a paused playback, all live at the end (--idle-gap 1000d)" out \
        --idle-gap 1000d "$work/idle-$count.jsonl"
done
[ -f "$work/idle-1000000.jsonl" ] || scripts/generate/many-instruments.py 1000000 >"$work/idle-1000000.jsonl"
peak "a day with 1,000,000 distinct instruments (5 M records, --idle-gap 12h)" out "$work/idle-1000000.jsonl"

# A generated day split over 1,000 files that all cover it (per-host collectors): every
# file is open at once. Two lines at a time go to the next file, so one device's records
# are spread over every file.
if [ ! -d "$work/hosts-1000" ]; then
    "$loggen" --records 400000 --files 24 --layout single --out "$work/single" 2>/dev/null
    mkdir -p "$work/hosts-1000"
    python3 - "$work/single/all.jsonl" "$work/hosts-1000" <<'PY'
import sys
source, folder = sys.argv[1], sys.argv[2]
files = [open(f"{folder}/host-{k:04d}.jsonl", "w") for k in range(1000)]
with open(source) as lines:
    for index, line in enumerate(lines):
        files[(index // 2) % 1000].write(line)
for f in files:
    f.close()
PY
fi
ulimit -n 4096
peak "a generated day (400,000 records) in 1 file" one "$work/single/all.jsonl"
peak "the same day in 1,000 files open at once" thousand "$work/hosts-1000"/*.jsonl
for report in playbacks.csv vp_sessions.csv marconi_items.csv metrics.influx summary.csv; do
    cmp -s "$work/one/$report" "$work/thousand/$report" || echo "scale-check: $report differs between 1 and 1,000 files" >&2
done
