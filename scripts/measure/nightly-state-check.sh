#!/usr/bin/env bash
# Nightly runs over a month, for docs/time.md: the --state file must stay flat, and every row
# must be written the night it ends in.
#
#   scripts/measure/nightly-state-check.sh [--records N] [--nights N] [--always-on P] [--seed S]
#                                  [--flatness range|trend] [--work DIR] [AVT_REPLAY]
#
# - generates NIGHTS nights (default 30) of N records each (default 20,000; avt-loggen
#   --records N×NIGHTS --files 24×NIGHTS --always-on P --late 0, hourly files gzipped with
#   `pigz -n` or `gzip -n`): P per cent (default 10) of the devices of the first day send
#   records every 1 to 4 hours to the end, so their lives never end by the 12-hour idle gap
#   and are carried over night after night;
# - replays them night by night, each night's 24 files with `--state STATE --out OUT/nightN
#   --quiet`, then `--state STATE --finish` with no input, and once more all the files in one
#   run without a state;
# - prints a table, a row per night: the state file's size without its header (the inputs
#   consumed, reported apart: they grow by a night's files every night), the rows written (playbacks.csv,
#   vp_sessions.csv, marconi_items.csv), the lives and open rows run.json says were carried
#   over, the wall time and peak memory (/usr/bin/time);
# - fails (exit 1) when
#   - the state is not flat: its largest size over nights 5 to NIGHTS is more than 10% above
#     its smallest (--flatness range, the default); or, with --flatness trend, it grows (or
#     shrinks) from night 5 to the last by more than 10% of its mean, the lives carried being
#     equal (a least-squares fit of the size on the night and the lives carried). The lives
#     carried vary from night to night with the traffic (at 20,000 records a night, seed 42,
#     from 109 to 183 over nights 5 to 30; at 60,000, from 425 to 504), and a state that keeps
#     only what they need varies with them: the range sees that noise, the trend sees through
#     it what grows with the nights;
#   - a row is not written the night it is due: a row made final by a record (a playback's
#     End, Stop or Next: `last_ts`; a session's `end_ts`; a Marconi item's `last_ts`, the next
#     item's start or its error) the night of that record; a row ended by the idle gap
#     (`timed_out`, and an item whose `last_ts` is its player's last record) the first night
#     with a record more than the gap after its life's last record (docs/time.md: the life
#     ends then); a row still open at the end only by --finish;
#   - the rows of all the nights and --finish, sorted, are not those of the one run: a row
#     lost or written twice;
#   - a night does not exit 0 (every line replayed, none late).
#
# The log has no late records (--late 0): a record of one night arriving among the next
# night's records may be rejected there as late (docs/time.md), and the runs would then
# rightly differ from the one run. The binary is AVT_REPLAY, or the AVT_REPLAY environment
# variable, or .build/release/avt-replay; the generator $LOGGEN, or scripts/generate/loggen.sh
# release. With --work DIR the logs are kept there and reused by a later run with the same
# options. Not part of the tests: at the default size, under a minute with a release build
# whose state holds state machines (the generator's first release build takes minutes).
set -euo pipefail
here=$PWD
cd "$(dirname "$0")/../.."

usage() {
    echo "usage: scripts/measure/nightly-state-check.sh [--records N] [--nights N] [--always-on P] [--seed S]" \
        "[--flatness range|trend] [--work DIR] [AVT_REPLAY]" >&2
    exit 2
}
# absolute PATH: PATH as given on the command line, from the directory the script was run in.
absolute() { if [[ $1 == /* ]]; then echo "$1"; else echo "$here/$1"; fi; }

records=20000
nights=30
always_on=10
seed=42
flatness=range
work=
positional=()
while (($#)); do
    case "$1" in
    --records) records=${2:?}; shift 2 ;;
    --records=*) records=${1#*=}; shift ;;
    --nights) nights=${2:?}; shift 2 ;;
    --nights=*) nights=${1#*=}; shift ;;
    --always-on) always_on=${2:?}; shift 2 ;;
    --always-on=*) always_on=${1#*=}; shift ;;
    --seed) seed=${2:?}; shift 2 ;;
    --seed=*) seed=${1#*=}; shift ;;
    --flatness) flatness=${2:?}; shift 2 ;;
    --flatness=*) flatness=${1#*=}; shift ;;
    --work) work=$(absolute "${2:?}"); shift 2 ;;
    --work=*) work=$(absolute "${1#*=}"); shift ;;
    -h | --help) usage ;;
    -*) echo "unknown option $1" >&2; usage ;;
    *) positional+=("$1"); shift ;;
    esac
done
((${#positional[@]} <= 1)) || usage
[[ $records =~ ^[0-9]+$ && $nights =~ ^[0-9]+$ && $always_on =~ ^[0-9]+$ && $seed =~ ^[0-9]+$ ]] || usage
[[ $flatness == range || $flatness == trend ]] || usage
((nights >= 1 && nights <= 366)) || { echo "nightly-state-check: --nights must be from 1 to 366" >&2; exit 2; }
if ((${#positional[@]})); then
    bin=$(absolute "${positional[0]}")
elif [ -n "${AVT_REPLAY:-}" ]; then
    bin=$(absolute "$AVT_REPLAY")
else
    bin=.build/release/avt-replay
fi
if [ ! -x "$bin" ]; then
    echo "nightly-state-check: no avt-replay at $bin (swift build -c release --product avt-replay, or give its path)" >&2
    exit 2
fi
if [ -z "$work" ]; then
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
log() { echo "nightly-state-check: $*" >&2; }

# The logs, generated once for these options.
logs="$work/logs-r$records-n$nights-a$always_on-s$seed"
if [ ! -f "$logs/done" ]; then
    if [ -n "${LOGGEN:-}" ]; then loggen=$(absolute "$LOGGEN"); else loggen=$(scripts/generate/loggen.sh release); fi
    rm -rf "$logs"
    log "generating $nights nights of $records records ($((records * nights)) records, $((24 * nights)) hourly files, --always-on $always_on)"
    "$loggen" --records $((records * nights)) --files $((24 * nights)) --always-on "$always_on" --late 0 \
        --seed "$seed" --out "$logs" 2>"$work/loggen.txt"
    sed 's/^/  /' "$work/loggen.txt" >&2
    if command -v pigz >/dev/null; then pigz -n "$logs"/*.jsonl; else gzip -n "$logs"/*.jsonl; fi
    touch "$logs/done"
fi
mapfile -t files < <(find "$logs" -name 'avt-*.jsonl.gz' | LC_ALL=C sort)
((${#files[@]} == 24 * nights)) || { log "$logs has ${#files[@]} files, expected $((24 * nights))"; exit 1; }

# replay LABEL OUT ARGUMENTS...: one run of avt-replay; appends "LABEL status seconds KB" to runs.tsv.
replay() {
    local label=$1 out=$2
    shift 2
    local status=0
    /usr/bin/time -f "%e %M" -o "$work/time" "$bin" --out "$out" --quiet "$@" || status=$?
    echo "$label $status $(tail -n 1 "$work/time")" >>"$work/runs.tsv"
    if ((status >= 2)); then
        log "$label: avt-replay exited $status"
        exit 1
    fi
}

state="$work/state"
rm -rf "$work/out" "$state" "$state.previous" "$work/runs.tsv"
mkdir -p "$work/out"
: >"$work/sizes.tsv"
log "replaying night by night with $bin"
for ((night = 1; night <= nights; night++)); do
    replay "night$night" "$work/out/night$night" --state "$state" "${files[@]:$(((night - 1) * 24)):24}"
    echo "night$night $(stat -c %s "$state") $(head -n 1 "$state" | wc -c)" >>"$work/sizes.tsv"
    log "night $night: state $(stat -c %s "$state") bytes, $(tail -n 1 "$work/runs.tsv" | cut -d' ' -f3) s"
done
replay finish "$work/out/finish" --state "$state" --finish
[ ! -f "$state" ] || echo "finish $(stat -c %s "$state") $(head -n 1 "$state" | wc -c)" >>"$work/sizes.tsv"
log "replaying the $((24 * nights)) files in one run"
replay all "$work/out/all" "${files[@]}"

echo "nightly-state-check: $nights nights of $records records, --always-on $always_on, seed $seed, $bin"

python3 - "$work" "$logs" "$nights" "$flatness" <<'PY'
import csv, gzip, json, os, re, sys
from array import array
from bisect import bisect_left
from collections import Counter

work, logs, nights, flatness = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
gap = 12 * 3_600_000  # avt-replay's default --idle-gap
failures = []

# Every record's key and time, and the night whose files hold it. Generated lines begin with
# {"ts":N, and name their instrument, app or player before any attribute.
key_pattern = re.compile(rb'"(?:instrument|app|player)":"([^"]*)"')
times, nights_of = {}, {}  # key -> its records' times, in order, and their nights
errors = set()  # (player, ts) of the Marconi errors
clock = [0] * (nights + 1)  # the latest time replayed by the end of each night
for index, name in enumerate(sorted(name for name in os.listdir(logs) if name.endswith(".jsonl.gz"))):
    night = index // 24 + 1
    with gzip.open(os.path.join(logs, name), "rb") as lines:
        for line in lines:
            ts = int(line[6 : line.index(b",")])
            key = key_pattern.search(line).group(1).decode()
            if key not in times:
                times[key], nights_of[key] = array("q"), array("H")
            if times[key] and times[key][-1] >= ts:
                sys.exit(f"nightly-state-check: {name}: {key}'s records are not in time order")
            times[key].append(ts)
            if b'"event":"error"' in line:
                errors.add((key, ts))
            nights_of[key].append(night)
            clock[night] = max(clock[night], ts)
for night in range(1, nights + 1):
    clock[night] = max(clock[night], clock[night - 1])

def night_of(key, ts):
    """The night whose files hold the record of `key` at `ts`, or None."""
    series = times.get(key, array("q"))
    at = bisect_left(series, ts)
    return nights_of[key][at] if at < len(series) and series[at] == ts else None

def life_end(key, ts):
    """The last record of the life of `key` that holds `ts`: its records follow each other by at most the gap."""
    series = times.get(key, array("q"))
    at = bisect_left(series, ts)
    if at == len(series):
        return None
    while at + 1 < len(series) and series[at + 1] - series[at] <= gap:
        at += 1
    return series[at]

def gap_night(last):
    """The first night with a record more than the gap after `last`: the life ends then; 'finish' if none."""
    if last is None:
        return None
    for night in range(1, nights + 1):
        if clock[night] > last + gap:
            return night
    return "finish"

def read(folder, report):
    """The rows of a report, as dictionaries and as lines (no field of the generated logs holds a line break)."""
    with open(os.path.join(folder, report), encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    header = next(csv.reader(lines[:1]))
    return [dict(zip(header, row)) for row in csv.reader(lines[1:])], lines[1:]

def due(report, row):
    """The nights (1..nights, or 'finish') in which `row` may be written, why, and the night of its last record."""
    if report == "playbacks.csv":
        key, last = row["instrument"], int(row["last_ts"])
        if row["end_action"]:
            return {night_of(key, last)}, "its " + row["end_action"], night_of(key, last)
        if row["timed_out"] == "true":
            return {gap_night(life_end(key, last))}, "the idle gap", night_of(key, last)
        return {"finish"}, "open at the end", night_of(key, last)
    if report == "vp_sessions.csv":
        key = row["app"]
        if row["end_ts"]:
            return {night_of(key, int(row["end_ts"]))}, "its end, " + row["outcome"], night_of(key, int(row["end_ts"]))
        last = int(row["opened_ts"]) + int(row["duration_ms"])  # the app's last record
        if row["timed_out"] == "true":
            return {gap_night(life_end(key, last))}, "the idle gap", night_of(key, last)
        return {"finish"}, "open at the end", night_of(key, last)
    key, first, last = row["player"], int(row["first_ts"]), int(row["last_ts"])
    if (key, last) in item_starts and first != last:
        return {night_of(key, last)}, "the next item's start", night_of(key, last)
    if life_end(key, last) != last:
        return {night_of(key, last)}, "its end", night_of(key, last)
    if (key, last) in errors:  # an error that ended it, or the life's last record
        return {night_of(key, last), gap_night(last)}, "an error, or the idle gap", night_of(key, last)
    return {gap_night(last)}, "the idle gap", night_of(key, last)  # the player's last record

reports = ["playbacks.csv", "vp_sessions.csv", "marconi_items.csv"]
# Where items start: an item whose last_ts is another's first_ts ended with that one's start.
item_starts = {(row["player"], int(row["first_ts"])) for row in read(os.path.join(work, "out", "all"), reports[2])[0]}
runs = {}
with open(os.path.join(work, "runs.tsv")) as handle:
    for line in handle:
        label, status, seconds, kib = line.split()
        runs[label] = (int(status), float(seconds), int(kib))
# The state's size without its header, whose list of the inputs consumed (kept to refuse
# reruns, about 110 bytes an input) grows by a night's files every night: reported apart.
sizes, headers = {}, {}
with open(os.path.join(work, "sizes.tsv")) as handle:
    for line in handle:
        label, size, header = line.split()
        night = "finish" if label == "finish" else int(label[5:])
        sizes[night], headers[night] = int(size) - int(header), int(header)

print("| night | state bytes (lives) | rows | lives carried | open playbacks | open sessions | open items | seconds | peak MB |")
print("|---|---|---|---|---|---|---|---|---|")
union = {report: Counter() for report in reports}
late_rows, carried_rows, delayed, lives = 0, 0, Counter(), {}
first_column = {"playbacks.csv": ("instrument", "first_ts"), "vp_sessions.csv": ("app", "opened_ts"),
                "marconi_items.csv": ("player", "first_ts")}
examples = []
for label in [f"night{night}" for night in range(1, nights + 1)] + ["finish"]:
    folder = os.path.join(work, "out", label)
    written = "finish" if label == "finish" else int(label[5:])
    status, seconds, kib = runs[label]
    if status != 0:
        failures.append(f"{label}: avt-replay exited {status}, not 0")
    count = 0
    for report in reports:
        rows, lines = read(folder, report)
        union[report].update(lines)
        count += len(rows)
        for row, line in zip(rows, lines):
            allowed, why, last_night = due(report, row)
            if written not in allowed:
                delayed[report] += 1
                if len(examples) < 10:
                    shown = "/".join(str(night) for night in sorted(allowed, key=str))
                    examples.append(f"{report}: written by {label}, due by {shown} ({why}): {line[:160]}")
            elif written != "finish" and last_night != written:
                late_rows += 1
            key, first = first_column[report]
            first_night = night_of(row[key], int(row[first]))
            if written != "finish" and first_night is not None and first_night < written:
                carried_rows += 1
    carried = {}
    if label != "finish":
        with open(os.path.join(folder, "run.json")) as handle:
            carried = json.load(handle).get("carried", {})
        lives[written] = sum(carried.get(name, 0) for name in ("instruments", "appSessions", "players"))
    print(f"| {written} | {sizes.get(written, '')} | {count} | {lives.get(written, '')} "
          f"| {carried.get('openPlaybacks', '')} | {carried.get('openVPSessions', '')} "
          f"| {carried.get('openMarconiItems', '')} | {seconds:.2f} | {kib / 1000:.0f} |")
status, seconds, kib = runs["all"]
total = sum(len(read(os.path.join(work, "out", "all"), report)[1]) for report in reports)
print(f"| one run, {nights * 24} files | | {total} | | | | | {seconds:.2f} | {kib / 1000:.0f} |")
print()

# The state is flat from night 5 on.
if nights >= 6:
    steady = list(range(5, nights + 1))
    low = min(steady, key=lambda night: sizes[night])
    high = max(steady, key=lambda night: sizes[night])
    spread = 100 * (sizes[high] - sizes[low]) / max(sizes[low], 1)
    # The trend: size = a + b × lives carried + c × night, fitted by least squares; c × the
    # nights from 5 to the last, in per cent of the mean size, is what grows with the nights
    # at equal lives.
    count = len(steady)
    mean_size = sum(sizes[night] for night in steady) / count
    mean_lives = sum(lives[night] for night in steady) / count
    mean_night = sum(steady) / count
    s_ll = sum((lives[night] - mean_lives) ** 2 for night in steady)
    s_nn = sum((night - mean_night) ** 2 for night in steady)
    s_ln = sum((lives[night] - mean_lives) * (night - mean_night) for night in steady)
    s_ly = sum((lives[night] - mean_lives) * (sizes[night] - mean_size) for night in steady)
    s_ny = sum((night - mean_night) * (sizes[night] - mean_size) for night in steady)
    determinant = s_ll * s_nn - s_ln**2
    per_night = (s_ll * s_ny - s_ln * s_ly) / determinant if determinant > 0 else s_ny / max(s_nn, 1)
    trend = 100 * per_night * (nights - 5) / max(mean_size, 1)
    fewest, most = min(lives[night] for night in steady), max(lives[night] for night in steady)
    print(f"state over nights 5 to {nights}: from {sizes[low]} bytes (night {low}) to {sizes[high]} bytes "
          f"(night {high}), +{spread:.1f}%, while the lives carried went from {fewest} to {most} "
          f"(+{100 * (most - fewest) / max(fewest, 1):.1f}%); at equal lives it grows by {per_night:+.0f} bytes a "
          f"night, {trend:+.1f}% from night 5 to {nights}")
    print(f"inputs consumed (the header): {headers[5]} bytes on night 5, {headers[nights]} on night {nights}")
    if flatness == "range":
        measured, what = spread, f"largest {spread:.1f}% above smallest"
    else:
        measured, what = abs(trend), f"{trend:+.1f}% at equal lives"
    if measured <= 10:
        print(f"state: flat ({what}, at most 10%)")
    else:
        failures.append(f"the state is not flat over nights 5 to {nights}: {what}, more than 10%")
else:
    print(f"state: not checked for flatness ({nights} nights: nights 5 to {nights} are fewer than 2)")

# Every row written the night it is due.
rows_total = sum(sum(counter.values()) for counter in union.values())
if delayed:
    failures.append(f"{sum(delayed.values())} of {rows_total} rows not written the night they are due: "
                    + ", ".join(f"{count} in {report}" for report, count in sorted(delayed.items())))
    for example in examples:
        print("  " + example)
else:
    print(f"rows: all {rows_total} written the night they are due ({carried_rows} begun on an earlier night; "
          f"{late_rows} ended by the idle gap on a later night than their last record)")

# The nights and --finish write the rows of one run.
for report in reports:
    one = Counter(read(os.path.join(work, "out", "all"), report)[1])
    missing, extra = one - union[report], union[report] - one
    if missing or extra:
        failures.append(f"{report}: the nights and --finish miss {sum(missing.values())} rows of the one run "
                        f"and have {sum(extra.values())} rows it has not")
        for line in list(missing)[:3]:
            print(f"  {report}: only in the one run: {line[:160]}")
        for line in list(extra)[:3]:
            print(f"  {report}: only in the nights: {line[:160]}")
    else:
        print(f"{report}: the nights and --finish wrote the one run's {sum(one.values())} rows, each once")

if failures:
    for failure in failures:
        print(f"nightly-state-check: FAILED: {failure}", file=sys.stderr)
    sys.exit(1)
print("nightly-state-check: passed")
PY
