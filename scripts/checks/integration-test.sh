#!/usr/bin/env bash
# Pushes the samples' metrics to real InfluxDB 1.x and carbon on loopback (installed, started
# and stopped by scripts/checks/metrics-servers.sh) and reads them back; then stops InfluxDB in the
# middle, checks the spool, restarts it, flushes, and finds every point exactly once; and
# pushes two nights with --state and finds what one run over both would have pushed.
# Uses the debug build of `swift build`. Carbon writes to disk asynchronously, so reading the
# Graphite points back polls whisper for at most 30 s (scripts/checks/integration-check.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/checks/metrics-servers.sh
. scripts/checks/metrics-servers.sh
# Stand-ins for InfluxDB 2.x started below, stopped with the servers whatever happens.
fakes=()
stop_all() {
    ms_stop_all
    if ((${#fakes[@]})); then kill "${fakes[@]}" 2>/dev/null || true; fi
}
trap stop_all EXIT
ms_stop_all
ms_install
influx_start
graphite_start
bin="$(swift build --show-bin-path)/avt-replay"
work=$(mktemp -d)
influx="$(influx_url)/write?db=$INFLUX_DB"
graphite="127.0.0.1:$CARBON_LINE_PORT"
passed=0
failed=0
check() {
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "integration: FAILED: $*" >&2; fi
}
status_is() { [ "$1" -eq "$2" ]; }
# replay ERRFILE ARGS...: runs avt-replay, its standard error into ERRFILE, its exit status into $status
replay() {
    local err="$1"
    shift
    set +e
    "$bin" "$@" 2> "$err"
    status=$?
    set -e
}

# 1. Both servers up: everything delivered, and the servers hold exactly the files' points.
replay "$work/a.err" --quiet --metrics events --out "$work/a" --influx "$influx" --graphite "$graphite" samples/*.jsonl.gz
check status_is "$status" 0
check python3 scripts/checks/integration-check.py influx "$(influx_url)" "$INFLUX_DB" "$work/a/metrics.influx"
check /usr/bin/python3 scripts/checks/integration-check.py graphite "$(graphite_dir)" "$work/a/metrics.graphite"
check test ! -d "$work/a.spool"

# 2. InfluxDB down: the batches go to the spool, exit 5; back up: flush delivers them once.
influx_stop
replay "$work/b.err" --quiet --out "$work/b" --influx "$influx" samples/*.jsonl.gz
check status_is "$status" 5
check grep -q "kept in $work/b.spool" "$work/b.err"
check grep -q "the server was unreachable: " "$work/b.err"
check test -n "$(ls "$work/b.spool"/*.influx 2>/dev/null)"
# Down, and the spool cannot be written (its folder is under a file): the batches are lost,
# exit 7, and said so.
touch "$work/not-a-folder"
replay "$work/lost.err" --quiet --out "$work/lost" --influx "$influx" --spool "$work/not-a-folder/spool" samples/*.jsonl.gz
check status_is "$status" 7
check grep -q "LOST" "$work/lost.err"
check grep -q "cannot keep a batch in" "$work/lost.err"
# Down, and the spool's disk is full (a full 64 KiB tmpfs, where mounting is allowed): lost, exit 7.
mkdir -p "$work/full"
if mount -t tmpfs -o size=64k tmpfs "$work/full" 2>/dev/null; then
    dd if=/dev/zero of="$work/full/filler" bs=4k count=16 2>/dev/null || true
    replay "$work/full.err" --quiet --out "$work/fullrun" --influx "$influx" --spool "$work/full/spool" samples/*.jsonl.gz
    check status_is "$status" 7
    check grep -q "LOST" "$work/full.err"
    umount "$work/full"
else
    echo "integration: no tmpfs can be mounted here: the full-disk spool is not checked" >&2
fi
influx_start
replay "$work/flush.err" flush --spool "$work/b.spool" --influx "$influx"
check status_is "$status" 0
check test -z "$(ls "$work/b.spool"/*.influx 2>/dev/null)"
check python3 scripts/checks/integration-check.py influx "$(influx_url)" "$INFLUX_DB" "$work/b/metrics.influx"
# Flushing an empty spool sends nothing twice.
"$bin" flush --quiet --spool "$work/b.spool" --influx "$influx"
check python3 scripts/checks/integration-check.py influx "$(influx_url)" "$INFLUX_DB" "$work/b/metrics.influx"

# 2b. A write URL without a database is a usage error before any work; a database that does
#     not exist yet: its 404 is reported and the batches kept, and once it exists, flush
#     delivers them, every point once.
replay "$work/nodb.err" --quiet --out "$work/nodb" --influx "$(influx_url)/write" samples/*.jsonl.gz
check status_is "$status" 2
check test ! -d "$work/nodb"
later_db=avt_created_later
replay "$work/missing.err" --quiet --out "$work/missing" --influx "$(influx_url)/write?db=$later_db" samples/*.jsonl.gz
check status_is "$status" 5
check grep -q "database not found" "$work/missing.err"
check test -n "$(ls "$work/missing.spool"/*.influx 2>/dev/null)"
curl -sS --max-time 30 -XPOST "$(influx_url)/query" --data-urlencode "q=CREATE DATABASE $later_db" >/dev/null
replay "$work/flush2.err" flush --spool "$work/missing.spool" --influx "$(influx_url)/write?db=$later_db"
check status_is "$status" 0
check test -z "$(ls "$work/missing.spool"/*.influx 2>/dev/null)"
check python3 scripts/checks/integration-check.py influx "$(influx_url)" "$later_db" "$work/missing/metrics.influx"

# 3. A field type conflict: InfluxDB refuses the batch's StartTime lines and keeps the rest;
#    the refusal is reported with those lines, and the batch is kept in the spool.
influx_stop
influx_start
printf 'avt_openavt,tracker=0 StartTime=1.5,instrument="conflict" 1763622000000000000\n' | influx_write "$INFLUX_DB" ns >/dev/null
replay "$work/c.err" --quiet --metrics events --out "$work/c" --influx "$influx" samples/*.jsonl.gz
check status_is "$status" 5
check grep -q 'field type conflict' "$work/c.err"
check grep -q '^  avt_openavt,tracker=.*StartTime=' "$work/c.err"
check test -n "$(ls "$work/c.spool"/*.influx 2>/dev/null)"
plays=$(grep -c ' NumPlays=' "$work/c/metrics.influx")
stored=$(influx_query "$INFLUX_DB" 'SELECT count("NumPlays") FROM avt_openavt' \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["results"][0]["series"][0]["values"][0][1])')
check test "$plays" -eq "$stored"

# 3b. InfluxDB 2.x's API (/api/v2/write, org, bucket, a token from the environment or a file,
#     gzip bodies), against scripts/checks/influx2-fake.py: no InfluxDB 2.x server can be installed
#     here. Every line arrives once; a wrong token is refused, and the batches kept.
v2_port=18087
python3 scripts/checks/influx2-fake.py "$v2_port" s3cret acme avt "$work/v2.lines" &
fakes+=($!)
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$v2_port/" && break; sleep 0.1; done
v2_url="http://127.0.0.1:$v2_port/api/v2/write?org=acme&bucket=avt"
set +e
AVT_REPLAY_INFLUX_SECRET=s3cret "$bin" --quiet --out "$work/v2" --influx "$v2_url" samples/*.jsonl.gz 2> "$work/v2.err"
status=$?
set -e
check status_is "$status" 0
check cmp <(sort "$work/v2/metrics.influx") <(sort "$work/v2.lines")
printf 'wrong\n' > "$work/wrong-token"
replay "$work/v2bad.err" --quiet --out "$work/v2bad" --influx "$v2_url" --influx-secret-file "$work/wrong-token" samples/*.jsonl.gz
check status_is "$status" 5
check grep -q "HTTP 401" "$work/v2bad.err"
check test -n "$(ls "$work/v2bad.spool"/*.influx 2>/dev/null)"
printf 's3cret\n' > "$work/token"
replay "$work/v2flush.err" flush --spool "$work/v2bad.spool" --influx "$v2_url" --influx-secret-file "$work/token"
check status_is "$status" 0
check cmp <(sort "$work/v2/metrics.influx" "$work/v2bad/metrics.influx") <(sort "$work/v2.lines")
# A server that closes the connection in the middle of a batch: the batch is sent again, and
# every line arrives once.
python3 scripts/checks/influx2-fake.py $((v2_port + 10)) s3cret acme avt "$work/v2close.lines" close-first &
fakes+=($!)
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$((v2_port + 10))/" && break; sleep 0.1; done
set +e
AVT_REPLAY_INFLUX_SECRET=s3cret "$bin" --quiet --out "$work/v2close" \
    --influx "http://127.0.0.1:$((v2_port + 10))/api/v2/write?org=acme&bucket=avt" samples/*.jsonl.gz 2> "$work/v2close.err"
status=$?
set -e
check status_is "$status" 0
check cmp <(sort "$work/v2close/metrics.influx") <(sort "$work/v2close.lines")
# A token in the URL is refused before any work.
replay "$work/v2url.err" --quiet --out "$work/v2url" --influx "$v2_url&token=s3cret" samples/*.jsonl.gz
check status_is "$status" 2

# 3c. --metrics aggregates: only the aggregates are pushed, a bounded number of series; the
#     servers hold exactly the files' points.
aggs_db=avt_aggregates
curl -sS --max-time 30 -XPOST "$(influx_url)/query" --data-urlencode "q=CREATE DATABASE $aggs_db" >/dev/null
replay "$work/aggs.err" --quiet --metrics aggregates --bucket 5m --prefix aggs --out "$work/aggs" \
    --influx "$(influx_url)/write?db=$aggs_db" --graphite "$graphite" samples/*.jsonl.gz
check status_is "$status" 0
check test -z "$(grep -v aggregates "$work/aggs/metrics.influx")"
check python3 scripts/checks/integration-check.py influx "$(influx_url)" "$aggs_db" "$work/aggs/metrics.influx"
check /usr/bin/python3 scripts/checks/integration-check.py graphite "$(graphite_dir)" "$work/aggs/metrics.graphite"

# 3d. --metrics playbacks: a point per report row in InfluxDB (device ids as fields, the
#     group as a tag), the aggregates in Graphite; every point stored, none merged with another.
rows_db=avt_rows
curl -sS --max-time 30 -XPOST "$(influx_url)/query" --data-urlencode "q=CREATE DATABASE $rows_db" >/dev/null
replay "$work/rows.err" --quiet --metrics playbacks --group-by title --prefix rows --out "$work/rows" \
    --influx "$(influx_url)/write?db=$rows_db" --graphite "$graphite" samples/*.jsonl.gz
check status_is "$status" 0
rows=$(($(wc -l < "$work/rows/playbacks.csv") + $(wc -l < "$work/rows/vp_sessions.csv") \
    + $(wc -l < "$work/rows/marconi_items.csv") - 3))
check test "$(wc -l < "$work/rows/metrics.influx")" -eq "$rows"
check python3 scripts/checks/integration-check.py influx "$(influx_url)" "$rows_db" "$work/rows/metrics.influx"
check /usr/bin/python3 scripts/checks/integration-check.py graphite "$(graphite_dir)" "$work/rows/metrics.graphite"

# 4. Two nights with --state, pushed as they run: InfluxDB and carbon then hold what one run
#    over both nights pushes (a bucket still open after night 1 is pushed partial, then whole).
nights_db=avt_two_nights
curl -sS --max-time 30 -XPOST "$(influx_url)/query" --data-urlencode "q=CREATE DATABASE $nights_db" >/dev/null
nights=(--quiet --aggregate --bucket 5m --idle-gap 10m --prefix nights)
push=(--influx "$(influx_url)/write?db=$nights_db" --graphite "$graphite")
replay "$work/n1.err" "${nights[@]}" "${push[@]}" --out "$work/n1" --state "$work/n.state" samples/avt-2025112007.jsonl.gz
check status_is "$status" 0
check grep -q ',true$' "$work/n1/aggregates.csv"
replay "$work/n2.err" "${nights[@]}" "${push[@]}" --out "$work/n2" --state "$work/n.state" --finish \
    samples/avt-2025112008.jsonl.gz
check status_is "$status" 0
replay "$work/whole.err" "${nights[@]}" --out "$work/whole" samples/*.jsonl.gz
check status_is "$status" 0
check python3 scripts/checks/integration-check.py influx "$(influx_url)" "$nights_db" "$work/whole/metrics.influx"
check /usr/bin/python3 scripts/checks/integration-check.py graphite "$(graphite_dir)" "$work/whole/metrics.graphite"

rm -rf "$work"
echo "integration: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
