#!/usr/bin/env bash
# Runs examples/spark/replay_shards.py in Spark's local mode with several worker threads, on a
# generated day in per-host files with late records and rejected lines, and
# for two nights with a state file per shard; checks that the merged reports are byte for byte
# those of one avt-replay run (or nightly series) on one machine.
# Part of scripts/test.sh, which installs what it needs (scripts/install-deps.sh: a Java
# runtime and pyspark). Uses the debug build of `swift build` (`--release`: the release one).
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v java >/dev/null; then
    echo "examples/spark/test.sh: Spark needs Java (17 or later) on the PATH" >&2
    exit 1
fi
python3 -c 'import pyspark' 2>/dev/null || python3 -m pip install --quiet pyspark
export PYSPARK_PYTHON="${PYSPARK_PYTHON:-$(command -v python3)}"

configuration=debug
[ "${1:-}" = --release ] && configuration=release
swift build -c "$configuration" --product avt-replay
bin="$(swift build -c "$configuration" --show-bin-path)"
loggen="$(scripts/generate/loggen.sh "$configuration")"
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
    "$bin/avt-replay" -qq --out "$single" "$@" || status=$?
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
    # run.json tells what each process did: the rest is the reports.
    if diff -r -x run.json "$single" "$spark" >/dev/null; then
        echo "$name: $shards shards on $master give the single run's $(ls "$single" | wc -l) files byte for byte"
        passed=$((passed + 1))
    else
        echo "$name: the merged reports differ from the single run's:" >&2
        diff -r -x run.json "$single" "$spark" | head -20 >&2 || true
        failed=$((failed + 1))
    fi
}


"$loggen" --records 20000 --files 6 --seed 9 --late 20 --layout hosts:4 --out "$work/logs" >/dev/null
gzip -n "$work"/logs/*.jsonl
# A line no key owns: shard 1 reports it, the merge writes it once.
printf '{"ts": \n' | gzip -n >>"$work/logs/host-2.jsonl.gz"
# A reorder window of 2 s: records come late, some are rejected.
check generated 'local[4]' 5 --trace --aggregate --group-by title --bucket 15m --idle-gap 1m --max-lateness 2s \
    "$work"/logs/*.jsonl.gz

# Two nights with a state file per shard (--state-dir), the second given the first's merge
# (--previous-merge), against the unsharded nightly series: every report, every night.
"$loggen" --records 8000 --files 4 --seed 5 --late 20 --out "$work/nights" >/dev/null
nights=("$work"/nights/*.jsonl)
previous=()
for night in 1 2; do
    inputs=("${nights[@]:$(((night - 1) * 2)):2}")
    single="$work/night$night-single" spark="$work/night$night-spark"
    options=(--trace --group-by title --aggregate)
    status=0
    "$bin/avt-replay" -qq --state "$work/single.state" --out "$single" "${options[@]}" "${inputs[@]}" || status=$?
    spark_status=0
    python3 examples/spark/replay_shards.py --master 'local[2]' --binary "$bin/avt-replay" --shards 3 \
        --state-dir "$work/states" "${previous[@]}" --out "$spark" -- "${options[@]}" "${inputs[@]}" \
        2>"$work/night$night.log" || spark_status=$?
    # merge.state is what the next night's shards are given.
    compared=(-x run.json -x merge.state)
    if [ "$spark_status" -eq "$status" ] && [ -s "$spark/merge.state" ] &&
        diff -r "${compared[@]}" "$single" "$spark" >/dev/null; then
        echo "night $night: 3 shards with a state each give the unsharded night's reports"
        passed=$((passed + 1))
    else
        echo "night $night: the Spark job (exit $spark_status) differs from the unsharded night (exit $status):" >&2
        diff -r "${compared[@]}" "$single" "$spark" | head -20 >&2 || tail -20 "$work/night$night.log" >&2
        failed=$((failed + 1))
    fi
    previous=(--previous-merge "$spark")
done

echo "examples/spark/test.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
