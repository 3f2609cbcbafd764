#!/usr/bin/env bash
# The reports of generated days as SHA-256 digests: the bytes a change of the replay core must
# keep. Replays generated logs (two seeds; hourly, per-host and with pauses: gaps in the
# devices' traffic) with a matrix of options (the defaults, --trace --trace-rejected,
# --group-by with --aggregate, each --metrics grain, --hub core, --threads 1, value-proposition
# middlewares, --since/--until with a short --idle-gap, three nights with --state and then
# --finish, three shards merged, a device whose clock is 13 hours off), and
# digests every report file of each (not run.json, which holds the run's duration).
#
#   scripts/checks/golden-days.sh [--record] [BIN]
#
# Without --record it compares with Tests/Golden/days.sha256 and lists every case and file that
# differs (exit 1); with --record it writes that file. BIN: the avt-replay to run (default: a
# release build of this checkout). A check, not a test: scripts/test.sh does not run it (it
# takes a minute of replays after the release builds); docs/testing.md says when to.
set -euo pipefail
cd "$(dirname "$0")/../.."
record=0
if [ "${1:-}" = "--record" ]; then
    record=1
    shift
fi
if [ $# -gt 0 ]; then
    bin=$1
else
    swift build -c release --product avt-replay >&2
    bin="$(swift build -c release --show-bin-path)/avt-replay"
fi
loggen=$(scripts/generate/loggen.sh release)
golden=Tests/Golden/days.sha256
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
records=100000
hours=30

# digest CASE FOLDER: one line per report file of FOLDER, "CASE/FILE SHA256".
digest() {
    local name=$1 folder=$2
    (cd "$folder" && find . -maxdepth 1 -type f ! -name run.json -printf '%f\n' | LC_ALL=C sort |
        while read -r file; do echo "$name/$file $(sha256sum "$file" | cut -d' ' -f1)"; done) >>"$work/digests"
}

# replay CASE OPTIONS... -- FILES...: one run into its own folder; exit 0 or 1 (rejects) only.
replay() {
    local name=$1
    shift
    local status=0
    "$bin" --quiet --out "$work/out/$name" "$@" 2>"$work/$name.err" || status=$?
    if ((status > 1)); then
        echo "golden-days: $name exited $status:" >&2
        cat "$work/$name.err" >&2
        exit 2
    fi
    digest "$name" "$work/out/$name"
}

mkdir -p "$work/out"
for seed in 1 2; do
    for layout in hourly hosts:3 pauses; do
        logs="$work/logs-$seed-${layout%%:*}"
        case $layout in
        pauses) options=(--pauses 20 --pause-length 45 --always-on 10) ;;
        *) options=(--layout "$layout") ;;
        esac
        "$loggen" --records "$records" --seed "$seed" --files "$hours" --out "$logs" "${options[@]}" 2>/dev/null
        files=("$logs"/*.jsonl)
        base="s$seed-${layout%%:*}"
        replay "$base-default" "${files[@]}"
        replay "$base-trace" --trace --trace-rejected "${files[@]}"
        replay "$base-grouped" --group-by title,system --aggregate --bucket 15m "${files[@]}"
        replay "$base-events" --metrics events "${files[@]}"
        replay "$base-playbacks" --metrics playbacks --hub core "${files[@]}"
        replay "$base-threads1" --threads 1 --trace "${files[@]}"
        replay "$base-vp" --vp-duration open:complete --vp-middleware metrics=skip-name:debugScreen \
            --tentacles value-proposition "${files[@]}"
        replay "$base-window" --since 2025-11-20T06:00:00Z --until 2025-11-21T01:30:00Z --idle-gap 2h "${files[@]}"
        # Three nights of the hourly files, then the series' end.
        if [ "$layout" != "hosts:3" ]; then
            state="$work/$base.state"
            third=$((${#files[@]} / 3))
            replay "$base-night1" --state "$state" --metrics events "${files[@]:0:third}"
            replay "$base-night2" --state "$state" --metrics events "${files[@]:third:third}"
            replay "$base-night3" --state "$state" --metrics events "${files[@]:$((2 * third))}"
            replay "$base-finish" --state "$state" --metrics events --finish
        fi
        # Three shards, merged.
        shards=()
        for shard in 1 2 3; do
            "$bin" --quiet --shard "$shard/3" --trace --out "$work/shard-$base-$shard" "${files[@]}" 2>/dev/null ||
                (($? <= 1))
            shards+=("$work/shard-$base-$shard")
        done
        "$bin" merge --quiet --out "$work/out/$base-merged" "${shards[@]}"
        digest "$base-merged" "$work/out/$base-merged"
    done
done
# One device 13 hours ahead and one behind, in the first seed's hourly log.
skewed="$work/logs-skewed"
mkdir -p "$skewed"
cp "$work"/logs-1-hourly/*.jsonl "$skewed/"
python3 - "$skewed" <<'EOF'
import json, os, sys
folder = sys.argv[1]
files = sorted(os.listdir(folder))
for name, shift in ((files[5], 13 * 3600_000), (files[9], -13 * 3600_000)):
    path = os.path.join(folder, name)
    lines = open(path).read().splitlines()
    key = json.loads(lines[len(lines) // 2]).get("instrument")
    out = []
    for line in lines:
        record = json.loads(line)
        if key is not None and record.get("instrument") == key:
            record["ts"] += shift
            line = json.dumps(record, separators=(",", ":"))
        out.append(line)
    open(path, "w").write("\n".join(out) + "\n")
EOF
replay "skewed" --trace "$skewed"/*.jsonl

if ((record)); then
    cp "$work/digests" "$golden"
    echo "golden-days: $(wc -l <"$golden") digests written to $golden" >&2
    exit 0
fi
if diff <(cut -d' ' -f1,2 "$golden") "$work/digests" >"$work/diff"; then
    echo "golden-days: every one of $(wc -l <"$golden") report files is as recorded" >&2
else
    echo "golden-days: these report files differ from $golden (< recorded, > now):" >&2
    cat "$work/diff" >&2
    exit 1
fi
