#!/usr/bin/env bash
# Runs examples/spark/replay_shards.py in Spark's local mode with several worker threads, on
# samples/ and on a generated corpus, and checks that the merged reports are byte for byte
# those of one avt-replay run on one machine. Installs pyspark with pip when it is missing;
# needs Java 17 or later (`java -version`). Not part of scripts/test.sh: see the README.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v java >/dev/null; then
    echo "examples/spark/test.sh: Spark needs Java (17 or later) on the PATH" >&2
    exit 1
fi
python3 -c 'import pyspark' 2>/dev/null || python3 -m pip install --quiet pyspark
export PYSPARK_PYTHON="${PYSPARK_PYTHON:-$(command -v python3)}"

swift build -c release --product avt-replay
swift build -c release --product avt-loggen
bin="$(swift build -c release --show-bin-path)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

passed=0
failed=0

# check NAME MASTER SHARDS ARGUMENTS...: one run, then the Spark job, then the comparison.
check() {
    local name="$1" master="$2" shards="$3"
    shift 3
    local single="$work/$name-single" spark="$work/$name-spark"
    local status=0
    "$bin/avt-replay" --quiet --out "$single" "$@" || status=$?
    if [ "$status" -gt 1 ]; then
        echo "$name: avt-replay exited $status" >&2
        failed=$((failed + 1))
        return
    fi
    local spark_status=0
    python3 examples/spark/replay_shards.py --master "$master" --binary "$bin/avt-replay" \
        --shards "$shards" --out "$spark" -- "$@" 2>"$work/$name-spark.log" || spark_status=$?
    if [ "$spark_status" -ne "$status" ]; then
        echo "$name: the Spark job exited $spark_status, avt-replay $status; its log:" >&2
        tail -20 "$work/$name-spark.log" >&2
        failed=$((failed + 1))
        return
    fi
    if diff -r "$single" "$spark" >/dev/null; then
        echo "$name: $shards shards on $master give the single run's $(ls "$single" | wc -l) files byte for byte"
        passed=$((passed + 1))
    else
        echo "$name: the merged reports differ from the single run's:" >&2
        diff -r "$single" "$spark" | head -20 >&2 || true
        failed=$((failed + 1))
    fi
}

check samples 'local[2]' 3 --trace --trace-rejected --vp-duration open:complete samples/*.jsonl.gz

"$bin/avt-loggen" --records 20000 --files 6 --seed 9 --late 20 --out "$work/logs" >/dev/null
gzip -n "$work"/logs/*.jsonl
# A line no shard can read: every shard reports it, the merge writes it once.
printf '{"ts": \n' | gzip -n >>"$work/logs/avt-2025112002.jsonl.gz"
check generated 'local[4]' 5 --trace --aggregate --group-by title --bucket 15m --idle-gap 1m \
    "$work"/logs/*.jsonl.gz

echo "examples/spark/test.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
