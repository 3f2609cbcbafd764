#!/usr/bin/env bash
# What sharding costs: one run over a generated day against `avt-replay partition`, N shards
# each reading its own folder, and `merge`, for N = 2, 4, 8 (or those given). Prints the
# Markdown table of docs/sharding.md: the CPU seconds (user + system) of each step, the records
# each shard read, and the whole against one run.
#
#   scripts/measure/shard-cost.sh [--records R] [--files F] [--seed S] [N ...]
#
# The day is avt-loggen's (hourly gzipped files), generated once into .build-bench and reused;
# the binaries are the benchmark's (scripts/measure/benchmark.sh): release, static Swift runtime.
set -euo pipefail
cd "$(dirname "$0")/../.."

records=1000000
files=24
seed=42
counts=()
while (($#)); do
    case "$1" in
    --records) records=${2:?}; shift 2 ;;
    --files) files=${2:?}; shift 2 ;;
    --seed) seed=${2:?}; shift 2 ;;
    -h | --help) sed -n '2,10p' "$0" >&2; exit 2 ;;
    *) counts+=("$1"); shift ;;
    esac
done
((${#counts[@]})) || counts=(2 4 8)

log() { echo "shard-cost: $*" >&2; }
[[ -x /usr/bin/time ]] || { log "needs /usr/bin/time (apt-get install time)"; exit 2; }
command -v pigz >/dev/null || { log "needs pigz (apt-get install pigz)"; exit 2; }

scratch=.build-bench
build=(swift build -c release --static-swift-stdlib --scratch-path "$scratch")
log "building avt-loggen and avt-replay (release)"
"${build[@]}" --product avt-loggen >&2
"${build[@]}" --product avt-replay >&2
bin=$("${build[@]}" --show-bin-path)/avt-replay
loggen=$("${build[@]}" --show-bin-path)/avt-loggen

corpus="$scratch/corpus-$records-$files-s$seed"
if [[ ! -d $corpus ]] || ! ls "$corpus"/*.jsonl.gz >/dev/null 2>&1; then
    log "generating $records records in $files files into $corpus"
    rm -rf "$corpus" "$corpus.tmp"
    mkdir -p "$corpus.tmp"
    "$loggen" --records "$records" --seed "$seed" --files "$files" --out "$corpus.tmp" 2>/dev/null
    pigz -n -p "$(nproc)" "$corpus.tmp"/*.jsonl
    mv "$corpus.tmp" "$corpus"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/avt-shard-cost.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Runs a command; prints its CPU seconds (user + system).
cpu() {
    /usr/bin/time -f '%U %S' -o "$work/time" "$@" >/dev/null 2>&1 || (($? == 1))
    awk '{ printf "%.2f", $1 + $2 }' "$work/time"
}

log "one run"
one=$(cpu "$bin" --quiet --out "$work/one" "$corpus"/*.jsonl.gz)
printf '| run | partition | each shard (largest) | shards | merge | all | records per shard (largest) |\n'
printf '|---|---:|---:|---:|---:|---:|---:|\n'
printf '| one run | | | | | %s s (1.00x) | %d (100%%) |\n' "$one" "$records"
for n in "${counts[@]}"; do
    log "$n shards"
    rm -rf "$work/part" "$work"/shard-* "$work/merged"
    partition=$(cpu "$bin" partition --quiet --shards "$n" --out "$work/part" "$corpus"/*.jsonl.gz)
    largest=0 shards=0 most=0
    for ((k = 1; k <= n; k++)); do
        seconds=$(cpu "$bin" --quiet --shard "$k/$n" --out "$work/shard-$k" "$work/part/$k"/*)
        lines=$(cat "$work/part/$k"/* | wc -l)
        shards=$(awk -v a="$shards" -v b="$seconds" 'BEGIN { printf "%.2f", a + b }')
        largest=$(awk -v a="$largest" -v b="$seconds" 'BEGIN { printf "%.2f", (b > a ? b : a) }')
        ((lines > most)) && most=$lines
    done
    folders=()
    for ((k = 1; k <= n; k++)); do folders+=("$work/shard-$k"); done
    merge=$(cpu "$bin" merge --quiet --out "$work/merged" "${folders[@]}")
    for file in playbacks.csv vp_sessions.csv marconi_items.csv summary.csv metrics.influx; do
        cmp -s "$work/one/$file" "$work/merged/$file" || { log "$file differs from one run's"; exit 1; }
    done
    all=$(awk -v a="$partition" -v b="$shards" -v c="$merge" 'BEGIN { printf "%.2f", a + b + c }')
    printf '| %d shards | %s s | %s s (%.2fx) | %s s | %s s | %s s (%.2fx) | %d (%.1f%%) |\n' \
        "$n" "$partition" "$largest" "$(awk -v a="$largest" -v b="$one" 'BEGIN { print a / b }')" "$shards" \
        "$merge" "$all" "$(awk -v a="$all" -v b="$one" 'BEGIN { print a / b }')" "$most" \
        "$(awk -v a="$most" -v b="$records" 'BEGIN { print 100 * a / b }')"
done
