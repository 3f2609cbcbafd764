#!/usr/bin/env bash
# Times avt-replay against zcat, pigz and DuckDB on the same generated corpus, and prints
# the results as a Markdown table (standard output; progress goes to standard error).
#
#   scripts/measure/benchmark.sh [--rounds N] [--one-core] [--seed S] [--baseline BIN] RECORDS [FILES]
#
# - generates RECORDS records (avt-loggen, seed 42 unless --seed; ~80% avt, ~10% vp and
#   app, ~10% marconi) in FILES hourly files (default 24), compressed with `pigz -n` (no
#   name or time, so the same bytes every time), cached in .build-bench/corpus-RECORDS-FILES-sSEED
#   and reused while it is there;
# - runs N rounds (default 3), each tool once a round, the order rotating from round to
#   round: `avt-replay --quiet --out TMP FILES` (the full replay, every report written,
#   with the default threads: the cores) and the same with `--threads 1`, both also with
#   `--shard 1/1000` (reading only: every line inflated, parsed, checked and packed, a
#   thousandth of the sessions merged and replayed), `zcat FILES > /dev/null`,
#   `pigz -dc FILES > /dev/null`, DuckDB (with as many threads as the cores, as avt-replay) reading the same .jsonl.gz files
#   with explicit columns and a GROUP BY instrument, and the DuckDB sessionization query an
#   analyst would write for the playback rows (window functions; the script named by
#   $BENCH_PEER, ../shared/bench/duckdb_sessions.py by default, when it is there), the same
#   query in ClickHouse through chDB (chdb_sessions.py beside it, when it is there), and the
#   reading floor (floor/floor.cpp beside it, built with g++: ISA-L inflating and simdjson
#   parsing every line, one thread, nothing else), all with the same threads;
# - with --baseline BIN, also the avt-replay binary BIN (another build, e.g. the previous
#   release), full and reading only, and this avt-replay with `--metrics events` (every
#   event's metrics in metrics.influx and metrics.graphite, the output of builds before
#   `--metrics aggregates` became the default), in the same rounds;
# - measures each with /usr/bin/time (wall seconds, user and system CPU seconds, max RSS),
#   and prints the median wall time, records/s, MB/s of uncompressed JSON, the median CPU
#   time and the least (the measure that holds on a shared machine, where one run varies by
#   up to a quarter), the largest max RSS, and the time relative to DuckDB's;
# - with --one-core, also times avt-replay (full and reading only) and zcat pinned to CPU 0
#   (`taskset -c 0`).
#
# The files are in the page cache (they were just written or read), so this measures
# decompression, parsing and replay, not the disk. A benchmark, not a test: nothing in the
# test suite measures time.
set -euo pipefail
cd "$(dirname "$0")/../.."

usage() {
    echo "usage: scripts/measure/benchmark.sh [--rounds N] [--one-core] [--seed S] [--baseline BIN] RECORDS [FILES]" >&2
    exit 2
}

rounds=3
one_core=0
baseline=
peer=${BENCH_PEER:-../shared/bench/duckdb_sessions.py}
chdb_peer=$(dirname "$peer")/chdb_sessions.py
floor_source=$(dirname "$peer")/floor/floor.cpp
seed=42
positional=()
while (($#)); do
    case "$1" in
    --rounds) rounds=${2:?}; shift 2 ;;
    --rounds=*) rounds=${1#*=}; shift ;;
    --seed) seed=${2:?}; shift 2 ;;
    --seed=*) seed=${1#*=}; shift ;;
    --one-core) one_core=1; shift ;;
    --baseline) baseline=${2:?}; shift 2 ;;
    --baseline=*) baseline=${1#*=}; shift ;;
    -h | --help) usage ;;
    -*) echo "unknown option $1" >&2; usage ;;
    *) positional+=("$1"); shift ;;
    esac
done
((${#positional[@]} >= 1 && ${#positional[@]} <= 2)) || usage
records=${positional[0]}
files=${positional[1]:-24}
[[ $records =~ ^[0-9]+$ && $files =~ ^[0-9]+$ && $rounds =~ ^[1-9][0-9]*$ && $seed =~ ^[0-9]+$ ]] || usage

log() { echo "benchmark: $*" >&2; }

# --- Dependencies -------------------------------------------------------------------------
as_root() { if ((EUID == 0)); then "$@"; else sudo "$@"; fi; }
missing=()
command -v pigz >/dev/null || missing+=(pigz)
[[ -x /usr/bin/time ]] || missing+=(time)
if ((one_core)); then command -v taskset >/dev/null || missing+=(util-linux); fi
# The static Swift runtime links Foundation's networking, which needs libcurl's headers.
dpkg-query -W -f='${Status}' libcurl4-openssl-dev 2>/dev/null | grep -q "install ok installed" ||
    missing+=(libcurl4-openssl-dev)
if ((${#missing[@]})); then
    log "installing ${missing[*]} (apt-get)"
    as_root apt-get update -qq >&2
    as_root apt-get install -y -qq "${missing[@]}" >&2
fi
if ! python3 -c 'import duckdb' 2>/dev/null; then
    log "installing duckdb (pip)"
    python3 -m pip install --quiet duckdb >&2
fi
if [[ -f $chdb_peer ]] && ! python3 -c 'import chdb' 2>/dev/null; then
    log "installing chdb (pip)"
    python3 -m pip install --quiet chdb >&2
fi
if [[ -f $floor_source ]]; then
    command -v g++ >/dev/null || { log "installing g++ (apt-get)"; as_root apt-get install -y -qq g++ >&2; }
fi

# --- Build --------------------------------------------------------------------------------
scratch=.build-bench
# With the Swift runtime and Foundation linked in (`--static-swift-stdlib`), as for deployment
# (docs/performance.md): start-up links fewer libraries, and the runtime's entry points
# (every retain and release) are direct calls instead of calls through the PLT.
build=(swift build -c release --static-swift-stdlib --scratch-path "$scratch")
log "building avt-loggen and avt-replay (${build[*]:2})"
"${build[@]}" --product avt-loggen >&2
"${build[@]}" --product avt-replay >&2
bin=$("${build[@]}" --show-bin-path)
loggen=$bin/avt-loggen
floor=""
if [[ -f $floor_source ]]; then
    floor="$scratch/avt-floor"
    if [[ ! -x $floor || $floor_source -nt $floor ]]; then
        log "building the reading floor ($floor_source)"
        g++ -O3 -march=native -std=c++17 "$floor_source" -o "$floor" -lisal -lsimdjson >&2
    fi
fi

# --- Corpus -------------------------------------------------------------------------------
corpus="$scratch/corpus-$records-$files-s$seed"
if [[ ! -f $corpus/corpus.info ]]; then
    log "generating $records records in $files files into $corpus"
    rm -rf "$corpus" "$corpus.tmp"
    mkdir -p "$corpus.tmp"
    "$loggen" --records "$records" --seed "$seed" --files "$files" --out "$corpus.tmp" 2>"$corpus.tmp/loggen.txt"
    cat "$corpus.tmp/loggen.txt" >&2
    uncompressed=$(cat "$corpus.tmp"/*.jsonl | wc -c)
    pigz -n -p "$(nproc)" "$corpus.tmp"/*.jsonl
    compressed=$(cat "$corpus.tmp"/*.jsonl.gz | wc -c)
    {
        echo "records=$records"
        echo "files=$files"
        echo "seed=$seed"
        echo "uncompressed=$uncompressed"
        echo "compressed=$compressed"
        echo "sha256=$(cat "$corpus.tmp"/*.jsonl.gz | sha256sum | cut -d' ' -f1)"
    } >"$corpus.tmp/corpus.info"
    mv "$corpus.tmp" "$corpus"
else
    log "reusing $corpus"
fi
# shellcheck disable=SC1091
source "$corpus/corpus.info"
if [[ -z ${uncompressed:-} || -z ${compressed:-} ]]; then
    # A corpus cached without its sizes: measured again, and kept.
    uncompressed=$(zcat "$corpus"/*.jsonl.gz | wc -c)
    compressed=$(cat "$corpus"/*.jsonl.gz | wc -c)
    printf 'uncompressed=%s\ncompressed=%s\n' "$uncompressed" "$compressed" >>"$corpus/corpus.info"
fi
inputs=("$corpus"/*.jsonl.gz)

# --- The tools ----------------------------------------------------------------------------
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# DuckDB: explicit columns, so that it does not sample the files to infer a schema. Records
# of other types (vp, app, marconi) have no `instrument` (or `tracker`, `action`): a column
# missing from a record is NULL, not an error, so they all fall in the NULL group, and the
# query checks that every line was read. `ignore_errors` is not needed (and not set: a
# malformed line would then be skipped silently); `format='newline_delimited'` reads one
# record per line, as avt-replay does.
cat >"$work/duckdb_query.py" <<'EOF'
import sys
import duckdb

threads, expected = int(sys.argv[1]), int(sys.argv[2])
files = sys.argv[3:]
con = duckdb.connect()
con.execute(f"SET threads = {threads}")
listing = "[" + ", ".join("'" + f.replace("'", "''") + "'" for f in files) + "]"
rows, groups, total = con.execute(f"""
    SELECT count(*), count(instrument), sum(n) FROM (
        SELECT instrument, count(*) AS n, min(ts) AS first_ts, max(ts) AS last_ts,
               count(DISTINCT tracker) AS trackers, count(action) AS actions
        FROM read_json({listing},
                       format = 'newline_delimited',
                       compression = 'gzip',
                       columns = {{ts: 'BIGINT', type: 'VARCHAR', instrument: 'VARCHAR',
                                   tracker: 'INTEGER', action: 'VARCHAR'}})
        GROUP BY instrument)
""").fetchone()
if total != expected:
    sys.exit(f"duckdb: read {total} records, expected {expected}")
print(f"duckdb {duckdb.__version__}: {groups} instruments (+ the NULL group: vp, app, marconi), {total} records", file=sys.stderr)
EOF

# Runs one tool under /usr/bin/time, which writes "wall-seconds max-RSS-KiB user-seconds
# system-seconds" to $work/time.
timed() { /usr/bin/time -f "%e %M %U %S" -o "$work/time" "$@"; }
run() {
    case "$1" in
    avt_replay) rm -rf "$work/out"; timed "$bin/avt-replay" --quiet --out "$work/out" "${inputs[@]}" ;;
    avt_read) rm -rf "$work/out"; timed "$bin/avt-replay" --quiet --shard 1/1000 --out "$work/out" "${inputs[@]}" ;;
    zcat) timed zcat "${inputs[@]}" >/dev/null ;;
    pigz) timed pigz -dc "${inputs[@]}" >/dev/null ;;
    duckdb) timed python3 "$work/duckdb_query.py" "$threads" "$records" "${inputs[@]}" ;;
    duckdb_sessions) timed python3 "$peer" "$threads" "$corpus/*.jsonl.gz" "$work/sessions.csv" ;;
    chdb_sessions) timed python3 "$chdb_peer" "$threads" "$corpus/*.jsonl.gz" "$work/sessions-chdb.csv" ;;
    floor) timed "$floor" "${inputs[@]}" >/dev/null ;;
    avt_replay_t1) rm -rf "$work/out"; timed "$bin/avt-replay" --quiet --threads 1 --out "$work/out" "${inputs[@]}" ;;
    avt_read_t1)
        rm -rf "$work/out"
        timed "$bin/avt-replay" --quiet --threads 1 --shard 1/1000 --out "$work/out" "${inputs[@]}"
        ;;
    baseline) rm -rf "$work/out"; timed "$baseline" --quiet --out "$work/out" "${inputs[@]}" ;;
    baseline_read) rm -rf "$work/out"; timed "$baseline" --quiet --shard 1/1000 --out "$work/out" "${inputs[@]}" ;;
    avt_events) rm -rf "$work/out"; timed "$bin/avt-replay" --quiet --metrics events --out "$work/out" "${inputs[@]}" ;;
    avt_replay_1) rm -rf "$work/out"; timed taskset -c 0 "$bin/avt-replay" --quiet --out "$work/out" "${inputs[@]}" ;;
    avt_read_1)
        rm -rf "$work/out"
        timed taskset -c 0 "$bin/avt-replay" --quiet --shard 1/1000 --out "$work/out" "${inputs[@]}"
        ;;
    zcat_1) timed taskset -c 0 zcat "${inputs[@]}" >/dev/null ;;
    esac
}

# avt-replay and DuckDB get the same threads: the cores (avt-replay's default).
threads=$(nproc)
tools=(avt_replay avt_replay_t1 avt_read avt_read_t1 zcat pigz duckdb)
[[ -f $peer ]] && tools+=(duckdb_sessions)
[[ -f $chdb_peer ]] && tools+=(chdb_sessions)
[[ -n $floor ]] && tools+=(floor)
[[ -n $baseline ]] && tools+=(baseline baseline_read avt_events)
((one_core)) && tools+=(avt_replay_1 avt_read_1 zcat_1)
declare -A label=(
    [avt_replay]="\`avt-replay --quiet --out DIR\` ($threads threads, the default)"
    [avt_replay_t1]='`avt-replay --threads 1`'
    [avt_read]="reading only: \`avt-replay --shard 1/1000\` ($threads threads)"
    [avt_read_t1]='reading only, `--threads 1`'
    [zcat]='`zcat > /dev/null`'
    [pigz]='`pigz -dc > /dev/null`'
    [duckdb]="DuckDB, $threads threads, \`GROUP BY instrument\`"
    [duckdb_sessions]="DuckDB, $threads threads, sessionization query (playback rows)"
    [chdb_sessions]="chDB (ClickHouse), $threads threads, the same query"
    [floor]='the reading floor (ISA-L + simdjson, 1 thread)'
    [baseline]="baseline \`$baseline\`"
    [baseline_read]="baseline, reading only (\`--shard 1/1000\`)"
    [avt_events]='`avt-replay --metrics events` (every event'"'"'s metrics, as the baseline writes them)'
    [avt_replay_1]='`avt-replay` on one core (`taskset -c 0`)'
    [avt_read_1]='reading only on one core (`taskset -c 0`)'
    [zcat_1]='`zcat` on one core (`taskset -c 0`)'
)

: >"$work/results"
count=${#tools[@]}
for ((round = 0; round < rounds; round++)); do
    for ((k = 0; k < count; k++)); do
        tool=${tools[$(((k + round) % count))]}
        status=0
        run "$tool" || status=$?
        read -r seconds kilobytes user system < <(tail -n 1 "$work/time")
        log "round $((round + 1))/$rounds: $tool ${seconds} s, max RSS $((kilobytes / 1024)) MiB$( ((status)) && echo ", EXIT STATUS $status")"
        if ((status)); then
            echo "benchmark: $tool failed (exit $status); its times are not reported" >&2
            tail -n 5 "$work/time" >&2 || true
            exit 1
        fi
        echo "$tool $seconds $kilobytes $user $system" >>"$work/results"
    done
done

# Where avt-replay's CPU goes: one more run (not timed) with each thread's CPU read from /proc
# by its name: avt-decodeN (inflate, parse, decode), avt-read (the merge, dealing the records),
# avt-engineN (the replay and the hand-overs), avt-write (encoding and writing the reports),
# and the process's own thread (merging the engines' reports, noting problems).
log "one more run of avt-replay, each thread's CPU counted (scripts/measure/thread-cpu.py)"
rm -rf "$work/out"
python3 scripts/measure/thread-cpu.py --json "$work/threads.json" -- "$bin/avt-replay" --quiet --out "$work/out" \
    "${inputs[@]}" >/dev/null

# Allocations per record: jemalloc's own count of allocation requests (`nrequests` of all
# arenas, printed at exit with MALLOC_CONF=stats_print:true), for the full run and for reading
# only, divided by the records.
allocations() {
    rm -rf "$work/out"
    MALLOC_CONF=stats_print:true "$bin/avt-replay" --quiet --out "$work/out" "$@" "${inputs[@]}" 2>&1 >/dev/null |
        awk '$1 == "total:" && !done { print $7; done = 1 }'
}
log "two more runs of avt-replay, counting allocations (jemalloc's statistics)"
allocations_full=$(allocations)
allocations_read=$(allocations --shard 1/1000)

# --- The table ----------------------------------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
memory=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
versions="$(swift --version 2>/dev/null | head -n 1 | sed 's/ (.*//'); $(gzip --version | head -n 1); $(pigz --version 2>&1); DuckDB $(python3 -c 'import duckdb; print(duckdb.__version__)')"
[[ -f $chdb_peer ]] && versions+="; chDB $(python3 -c 'import chdb; print(chdb.__version__)')"
for tool in "${tools[@]}"; do echo "$tool=${label[$tool]}"; done >"$work/labels"
python3 - "$work/results" "$work/labels" "$records" "$files" "$uncompressed" "$compressed" "$rounds" \
    "$(nproc)" "$cpu" "$memory" "$versions" "$seed" <<'EOF'
import statistics
import sys

results, labels, records, files, uncompressed, compressed, rounds, cores, cpu, memory, versions, seed = sys.argv[1:]
records, uncompressed, compressed, rounds = int(records), int(uncompressed), int(compressed), int(rounds)
order, names = [], {}
for line in open(labels):
    key, _, text = line.rstrip("\n").partition("=")
    order.append(key)
    names[key] = text
times, cpu_times, rss = {}, {}, {}
for line in open(results):
    tool, seconds, kilobytes, user, system = line.split()
    times.setdefault(tool, []).append(float(seconds))
    cpu_times.setdefault(tool, []).append(float(user) + float(system))
    rss[tool] = max(rss.get(tool, 0), int(kilobytes))
median = {tool: statistics.median(values) for tool, values in times.items()}
median_cpu = {tool: statistics.median(values) for tool, values in cpu_times.items()}
# On a shared machine one run varies by up to a quarter: the least CPU of the rounds is the
# measure that holds from one benchmark to the next.
least_cpu = {tool: min(values) for tool, values in cpu_times.items()}
duck = median["duckdb"]
# The faster of the two queries an analyst would write, and the floor's CPU.
queries = [median[tool] for tool in ("duckdb_sessions", "chdb_sessions") if tool in median]
sessions = min(queries) if queries else None
floor_cpu = median_cpu.get("floor")

print(f"Machine: {cores} cores (`nproc`), {cpu}, {memory}; {versions}.")
print()
print(f"Corpus: `avt-loggen --records {records} --seed {seed} --files {files}`, `pigz -n`: "
      f"{uncompressed / 1e6:,.0f} MB of JSON ({uncompressed / records:.0f} bytes a record), "
      f"{compressed / 1e6:,.1f} MB compressed. Median of {rounds} round{'s' if rounds > 1 else ''} "
      f"(each tool once a round, in rotating order); memory is the largest max RSS.")
print()
extra = " time vs the faster sessionization query |" if sessions else ""
extra += " CPU vs the floor's |" if floor_cpu else ""
print("| tool | wall time (median) | records/s | MB/s (uncompressed) | CPU time, user + system (median) "
      "| CPU time (least) | CPU per record | peak memory (max RSS) | time vs DuckDB |" + extra)
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if sessions else "") + ("---:|" if floor_cpu else ""))
for tool in order:
    seconds = median[tool]
    ratio = f" {seconds / sessions:.2f}× |" if sessions else ""
    ratio += f" {median_cpu[tool] / floor_cpu:.2f}× |" if floor_cpu else ""
    print(f"| {names[tool]} | {seconds:.2f} s | {records / seconds:,.0f} | {uncompressed / 1e6 / seconds:,.0f} "
          f"| {median_cpu[tool]:.2f} s | {least_cpu[tool]:.2f} s | {median_cpu[tool] / records * 1e6:.2f} µs "
          f"| {rss[tool] / 1024:,.0f} MiB "
          f"| {seconds / duck:.2f}× |{ratio}")
EOF
python3 - "$work/threads.json" "$records" "$allocations_full" "$allocations_read" <<'EOF'
import json
import sys

threads = json.load(open(sys.argv[1]))["threads"]
records = int(sys.argv[2])
full, reading = (int(value) if value else None for value in sys.argv[3:5])
stage = {"avt-decode": "inflate, parse, decode", "avt-read": "merge, deal", "avt-engine": "replay, hand over",
         "avt-write": "encode, write", "avt-free": "free the reports written"}
print()
print("Where the default run's CPU goes (one more run, each thread's CPU by its name):")
print()
print("| thread | what it does | threads | CPU | CPU per record |")
print("|---|---|---:|---:|---:|")
for name, thread in sorted(threads.items(), key=lambda item: -item[1]["cpu_s"]):
    print(f"| `{name}` | {stage.get(name, 'merge reports, note problems')} | {thread['count']} "
          f"| {thread['cpu_s']:.2f} s | {thread['cpu_s'] / records * 1e6:.2f} µs |")
if full is not None and reading is not None:
    print()
    print(f"Allocations (jemalloc's `nrequests`, the whole run): {full / records:.2f} a record for the default run, "
          f"{reading / records:.2f} for reading only (`--shard 1/1000`).")
EOF
