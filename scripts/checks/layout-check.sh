#!/usr/bin/env bash
# avt-loggen's layouts must write the same lines, only split into files differently:
# generates 20,000 records with seed 7 over 3 hours in each layout (hourly, hosts:4, apps,
# single, hourly with --shuffle-names), then again with pauses (--pauses 30 --pause-length
# 45: hourly, hosts:3, single) and with sources always on (--always-on 30: the same three),
# and fails if the sorted lines of any layout differ from hourly's, or if a layout has not the
# files it should. `single` must also be the hourly files one after the other. With
# LAYOUT_CHECK_OLD=PATH (an avt-loggen built before the layouts), also checks that the hourly
# files are byte for byte what it writes.
set -euo pipefail
cd "$(dirname "$0")/../.."
records=20000
seed=7
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
loggen=$(scripts/generate/loggen.sh release)
failed=0

fail() {
    echo "layout-check: $*" >&2
    failed=$((failed + 1))
}

# generate NAME EXPECTED_FILES OPTIONS...: one layout into $work/NAME, then its sorted lines.
generate() {
    local name=$1 files=$2
    shift 2
    "$loggen" --records "$records" --seed "$seed" --files 3 --out "$work/$name" "$@" 2>"$work/$name.txt"
    sed 's/^/  /' "$work/$name.txt"
    local count
    count=$(find "$work/$name" -name '*.jsonl' | wc -l)
    ((count == files)) || fail "$name: $count files, expected $files"
    cat "$work/$name"/*.jsonl | LC_ALL=C sort >"$work/$name.sorted"
    local lines
    lines=$(wc -l <"$work/$name.sorted")
    ((lines == records)) || fail "$name: $lines lines, expected $records"
}

# same REFERENCE NAME...: the sorted lines of every NAME are REFERENCE's.
same() {
    local reference=$1
    shift
    for name in "$@"; do
        if cmp -s "$work/$reference.sorted" "$work/$name.sorted"; then
            echo "  $name: same lines as $reference"
        else
            fail "$name: its lines differ from $reference's"
        fi
    done
}

echo "layout-check: $records records, seed $seed, 3 hours"
generate hourly 3
generate hosts 4 --layout hosts:4
generate apps 8 --layout apps
generate single 1 --layout single
generate shuffled 3 --shuffle-names
same hourly hosts apps single shuffled
cat "$work"/hourly/avt-*.jsonl | cmp -s - "$work/single/all.jsonl" || fail "single: not the hourly files in order"
if [ "$(cd "$work/shuffled" && ls | sed 's/^x[0-9a-f]\{4\}-//')" = "$(cd "$work/shuffled" && ls | sed 's/^x[0-9a-f]\{4\}-//' | sort)" ]; then
    fail "shuffled: the names sort in time order"
fi

echo "layout-check: the same with --pauses 30 --pause-length 45"
pauses=(--pauses 30 --pause-length 45)
generate paused-hourly 3 "${pauses[@]}"
generate paused-hosts 3 "${pauses[@]}" --layout hosts:3
generate paused-single 1 "${pauses[@]}" --layout single
same paused-hourly paused-hosts paused-single

echo "layout-check: the same with --always-on 30"
generate always-on-hourly 3 --always-on 30
generate always-on-hosts 3 --always-on 30 --layout hosts:3
generate always-on-single 1 --always-on 30 --layout single
same always-on-hourly always-on-hosts always-on-single
if cmp -s "$work/hourly.sorted" "$work/always-on-hourly.sorted"; then
    fail "always-on: the same lines as without it"
fi

if [ -n "${LAYOUT_CHECK_OLD:-}" ]; then
    echo "layout-check: hourly against $LAYOUT_CHECK_OLD"
    "$LAYOUT_CHECK_OLD" --records "$records" --seed "$seed" --files 3 --out "$work/old" 2>/dev/null
    for file in "$work"/old/*.jsonl; do
        if cmp "$file" "$work/hourly/$(basename "$file")"; then
            echo "  $(basename "$file"): byte for byte the same"
        else
            fail "hourly: $(basename "$file") differs from the old generator's"
        fi
    done
fi

if ((failed > 0)); then
    echo "layout-check: $failed failed"
    exit 1
fi
echo "layout-check: passed"
