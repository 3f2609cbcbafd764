#!/usr/bin/env bash
# Peak memory must grow with the sessions open at once, not with the size of the input:
# replays a generated log and one ten times larger (ten times as many hours at the same
# rate), and fails if the larger one's peak memory (max RSS) is more than 20% above the
# smaller one's. Measures memory, not time; uses a release build. With --bucket 1d: summary.csv
# keeps a row (and a startup-time sketch) per bucket, so its memory grows with the time span,
# as its size does, by design.
set -euo pipefail
cd "$(dirname "$0")/.."
records=${MEMORY_TEST_RECORDS:-40000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product avt-replay >/dev/null
bin=$(swift build -c release --show-bin-path)
loggen=$(scripts/loggen.sh)
"$loggen" --records "$records" --files 24 --out "$work/small" 2>/dev/null
"$loggen" --records $((records * 10)) --files 240 --out "$work/large" 2>/dev/null
peak() {
    /usr/bin/time -f "%M" -o "$work/rss" "$bin/avt-replay" --quiet --bucket 1d --out "$work/out-$1" "$work/$1"/*.jsonl
    cat "$work/rss"
}
small=$(peak small)
large=$(peak large)
limit=$((small * 120 / 100))
echo "memory: $records records peaked at $small KB, $((records * 10)) records at $large KB (limit $limit KB)"
if ((large <= limit)); then
    echo "memory: 1 passed, 0 failed"
else
    echo "memory: 0 passed, 1 failed"
    exit 1
fi
