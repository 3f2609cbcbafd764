#!/usr/bin/env bash
# Counts the Swift reference-count operations (swift_retain / swift_release) of one replay,
# by calling function and object type: atomic reference counting is about a quarter of the
# CPU samples of a replay, and this says where it comes from.
#
#   scripts/measure/rc-census.sh [--records N] FILE.jsonl.gz...
#   scripts/measure/rc-census.sh --shared FILE.jsonl.gz...
#
# Builds the release binary, runs `avt-replay --quiet` on FILEs with scripts/measure/rc-census/census.c
# preloaded (it wraps the runtime's entry points; calls the runtime makes to itself are not
# seen), and prints the counts named (scripts/measure/rc-census/census.py), per record with
# --records N. With --shared, scripts/measure/rc-census/shared.c counts them by object instead, and
# the objects whose counts more than one thread changed are printed, most operations first:
# each such operation moves the object's cache line between cores. A profiling aid, not a test.
set -euo pipefail
cd "$(dirname "$0")/../.."
records=()
shared=false
if [[ ${1:-} == --records ]]; then records=("${2:?}"); shift 2; fi
if [[ ${1:-} == --shared ]]; then shared=true; shift; fi
(($#)) || { echo "usage: scripts/measure/rc-census.sh [--records N | --shared] FILE.jsonl.gz..." >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product avt-replay >&2
binary=$(realpath "$(swift build -c release --show-bin-path)/avt-replay")
if $shared; then
    gcc -O2 -Wall -shared -fPIC -o "$work/shared.so" scripts/measure/rc-census/shared.c -ldl
    RC_SHARED_OUT="$work/objects.txt" LD_PRELOAD="$work/shared.so" "$binary" --quiet --out "$work/out" "$@"
    echo "operations  threads (bits)  type  latest caller"
    # Several threads' bits set: more than one bit in the mask.
    sort -rn "$work/objects.txt" | while read -r count threads type file offset; do
        ((0x$threads & (0x$threads - 1))) || continue
        # The empty collections' singletons are immortal: their counts never change.
        [[ $type == *Empty*Storage* || $type == *Empty*Singleton* ]] && continue
        caller=$(addr2line -f -e "$file" "0x$offset" 2>/dev/null | head -1 | swift demangle --simplified)
        echo "$count  $threads  $(echo "$type" | swift demangle --simplified)  $caller"
    done | head -20
    exit 0
fi
gcc -O2 -Wall -shared -fPIC -o "$work/census.so" scripts/measure/rc-census/census.c -ldl
RC_CENSUS_OUT="$work/counts.txt" LD_PRELOAD="$work/census.so" "$binary" --quiet --out "$work/out" "$@"
python3 scripts/measure/rc-census/census.py "$work/counts.txt" "${records[@]}"
