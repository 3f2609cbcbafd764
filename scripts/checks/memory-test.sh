#!/usr/bin/env bash
# Peak memory must grow with the sessions open at once, not with the size of the input nor
# with how many of its lines are bad. Measures memory (max RSS), not time; uses a release
# build (MEMORY_TEST_SCRATCH: its scratch folder, default .build).
#
# 1. Replays a generated log and one ten times larger (ten times as many hours at the same
#    rate), and fails if the larger one's peak is more than 20% above the smaller one's. With
#    --bucket 1d: summary.csv keeps a row (and a startup-time sketch) per bucket, so its
#    memory grows with the time span, as its size does, by design.
# 2. Replays 10 million lines that are not records (a 20 MB file; some 1.8 GB of
#    rejects.jsonl, spooled to disk as the run goes) and MEMORY_TEST_RANDOM_MB (default 64)
#    MB of random bytes on standard input, and fails if either peak is more than 20 MB above
#    that of a run over 10 good lines.
set -euo pipefail
cd "$(dirname "$0")/../.."
records=${MEMORY_TEST_RECORDS:-40000}
bad_lines=${MEMORY_TEST_BAD_LINES:-10000000}
random_mb=${MEMORY_TEST_RANDOM_MB:-64}
scratch=(--scratch-path "${MEMORY_TEST_SCRATCH:-.build}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release "${scratch[@]}" --product avt-replay >/dev/null
bin=$(swift build -c release "${scratch[@]}" --show-bin-path)
loggen=$(scripts/generate/loggen.sh)
"$loggen" --records "$records" --files 24 --out "$work/small" 2>/dev/null
"$loggen" --records $((records * 10)) --files 240 --out "$work/large" 2>/dev/null
passed=0
failed=0
# The peak RSS in KB of avt-replay OUT ARGUMENTS... (exit 0 or 1: some lines may be rejected).
peak() {
    local out=$1
    shift
    local status=0
    /usr/bin/time -f "%M" -o "$work/rss" "$bin/avt-replay" --quiet "$@" --out "$work/out-$out" \
        2>"$work/stderr" || status=$?
    if ((status > 1)); then
        cat "$work/stderr" >&2
        echo "memory: avt-replay $* exited $status" >&2
        exit 1
    fi
    rm -rf "$work/out-$out"
    tail -n 1 "$work/rss"
}
check() {
    if (($2 <= $3)); then
        passed=$((passed + 1))
    else
        echo "memory: FAILED: $1" >&2
        failed=$((failed + 1))
    fi
}
small=$(peak small --bucket 1d "$work/small"/*.jsonl)
large=$(peak large --bucket 1d "$work/large"/*.jsonl)
limit=$((small * 120 / 100))
echo "memory: $records records peaked at $small KB, $((records * 10)) records at $large KB (limit $limit KB)"
check "$((records * 10)) records" "$large" "$limit"

first=("$work/small"/*.jsonl)
head -n 10 "${first[0]}" >"$work/good.jsonl"
{ yes x || true; } | head -n "$bad_lines" >"$work/bad.jsonl"
good=$(peak good "$work/good.jsonl")
bad=$(peak bad "$work/bad.jsonl")
random=$(head -c "${random_mb}M" /dev/urandom | peak random -)
limit=$((good + 20480))
echo "memory: 10 good lines peaked at $good KB, $bad_lines bad lines at $bad KB," \
    "$random_mb MB of random bytes on standard input at $random KB (limit $limit KB)"
check "$bad_lines bad lines" "$bad" "$limit"
check "$random_mb MB of random bytes" "$random" "$limit"
echo "memory: $passed passed, $failed failed"
((failed == 0))
