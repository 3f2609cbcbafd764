#!/usr/bin/env bash
# Counts the Swift reference-count operations (swift_retain / swift_release) of one replay,
# by calling function and object type: atomic reference counting is about a quarter of the
# CPU samples of a replay, and this says where it comes from.
#
#   scripts/rc-census.sh [--records N] FILE.jsonl.gz...
#
# Builds the release binary, runs `avt-replay --quiet` on FILEs with scripts/rc-census/census.c
# preloaded (it wraps the runtime's entry points; calls the runtime makes to itself are not
# seen), and prints the counts named (scripts/rc-census/census.py), per record with
# --records N. A profiling aid, not a test.
set -euo pipefail
cd "$(dirname "$0")/.."
records=()
if [[ ${1:-} == --records ]]; then records=("${2:?}"); shift 2; fi
(($#)) || { echo "usage: scripts/rc-census.sh [--records N] FILE.jsonl.gz..." >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product avt-replay >&2
binary=$(realpath "$(swift build -c release --show-bin-path)/avt-replay")
gcc -O2 -Wall -shared -fPIC -o "$work/census.so" scripts/rc-census/census.c -ldl
RC_CENSUS_OUT="$work/counts.txt" LD_PRELOAD="$work/census.so" "$binary" --quiet --out "$work/out" "$@"
python3 scripts/rc-census/census.py "$work/counts.txt" "${records[@]}"
