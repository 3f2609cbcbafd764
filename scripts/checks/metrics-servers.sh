# shellcheck shell=bash
# metrics-servers.sh -- throwaway InfluxDB 1.x + Graphite (carbon-cache + whisper) on loopback
# for CI on Debian 12, run as root, no systemd.  Source it, do not execute it:
#
#   . ./metrics-servers.sh
#   trap ms_stop_all EXIT          # always stop what we started
#   ms_stop_all                    # stop leftovers of an earlier run (only pids from our own pid files)
#   ms_install                     # apt-get, skipped when already installed
#   influx_start                   # -> http://127.0.0.1:$INFLUX_PORT, database "test" created
#   graphite_start                 # -> plaintext tcp 127.0.0.1:$CARBON_LINE_PORT
#   ... run tests ...
#   ms_stop_all
#
# Every step has a time limit; nothing here can hang for more than a few minutes.

MS_DIR="${MS_DIR:-/tmp/ci-metrics-servers}"       # all data, configs, logs, pid files
INFLUX_PORT="${INFLUX_PORT:-18086}"                 # HTTP API (/ping /write /query)
INFLUX_RPC_PORT="${INFLUX_RPC_PORT:-18088}"         # backup/restore RPC; cannot be disabled, keep on loopback
INFLUX_DB="${INFLUX_DB:-test}"
CARBON_LINE_PORT="${CARBON_LINE_PORT:-12003}"       # plaintext protocol "path value epoch\n" (TCP, and UDP if enabled)
CARBON_PICKLE_PORT="${CARBON_PICKLE_PORT:-12004}"   # pickle protocol (unused, but always opened)
CARBON_QUERY_PORT="${CARBON_QUERY_PORT:-17002}"     # carbonlink cache query (unused, but always opened)
CARBON_RETENTION="${CARBON_RETENTION:-1s:10y}"      # ONE archive: no down-sampling, no xFilesFactor surprises

ms_log() { echo "[metrics-servers] $*" >&2; }
ms_now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# true when something accepts TCP connections on 127.0.0.1:$1
ms_port_open() { timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

ms_install() {
  export DEBIAN_FRONTEND=noninteractive
  local need=()
  command -v influxd       >/dev/null 2>&1 || need+=(influxdb)
  command -v influx        >/dev/null 2>&1 || need+=(influxdb-client)
  command -v carbon-cache  >/dev/null 2>&1 || need+=(graphite-carbon)
  command -v whisper-fetch >/dev/null 2>&1 || need+=(python3-whisper)
  command -v curl          >/dev/null 2>&1 || need+=(curl)
  if [ "${#need[@]}" -eq 0 ]; then ms_log "packages already installed"; return 0; fi
  local t0 log="$MS_DIR/apt.log"; t0=$(ms_now_ms); mkdir -p "$MS_DIR"
  timeout 300 apt-get -o DPkg::Lock::Timeout=120 update -qq >"$log" 2>&1 \
    || { ms_log "apt-get update failed:"; tail -n 20 "$log" >&2; return 1; }
  timeout 600 apt-get -o DPkg::Lock::Timeout=120 install -y -qq --no-install-recommends "${need[@]}" >>"$log" 2>&1 \
    || { ms_log "apt-get install ${need[*]} failed:"; tail -n 20 "$log" >&2; return 1; }
  ms_log "installed ${need[*]} in $(( $(ms_now_ms) - t0 )) ms"
}

# ms_pidfile_live PIDFILE PATTERN: print the pid if PIDFILE names a live process whose command line
# contains PATTERN (guards against a stale pid file whose pid now belongs to something else)
ms_pidfile_live() {
  local pid
  pid=$(cat "$1" 2>/dev/null) && [ -n "$pid" ] || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$2" || return 1
  echo "$pid"
}

# ms_kill_pid PID [SECONDS]: SIGTERM, wait up to SECONDS (default 15), then SIGKILL
ms_kill_pid() {
  local pid="$1" secs="${2:-15}" i
  [ -n "$pid" ] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < secs * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  ms_log "pid $pid still alive ${secs}s after SIGTERM, sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
}

# ---------------------------------------------------------------- InfluxDB 1.x
influx_url() { echo "http://127.0.0.1:$INFLUX_PORT"; }

influx_start() {
  local d="$MS_DIR/influxdb" pid code i t0
  if pid=$(ms_pidfile_live "$d/influxd.pid" "influxd run -config $d/"); then
    ms_log "influxd already running (pid $pid)"; return 0
  fi
  for p in "$INFLUX_PORT" "$INFLUX_RPC_PORT"; do
    if ms_port_open "$p"; then ms_log "port $p is already in use, not starting influxd"; return 1; fi
  done
  rm -rf "$d"; mkdir -p "$d"
  cat > "$d/influxdb.conf" <<EOF
reporting-disabled = true
bind-address = "127.0.0.1:$INFLUX_RPC_PORT"
[meta]
  dir = "$d/meta"
[data]
  dir = "$d/data"
  wal-dir = "$d/wal"
  query-log-enabled = false
[monitor]
  store-enabled = false
[http]
  enabled = true
  bind-address = "127.0.0.1:$INFLUX_PORT"
  auth-enabled = false
  log-enabled = true
  pprof-enabled = false
[logging]
  level = "info"
  suppress-logo = true
EOF
  t0=$(ms_now_ms)
  influxd run -config "$d/influxdb.conf" </dev/null >"$d/influxd.log" 2>&1 &
  pid=$!
  echo "$pid" > "$d/influxd.pid"
  code=000
  for ((i = 0; i < 300; i++)); do                      # 30 s at most
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$(influx_url)/ping") || true
    [ "$code" = 204 ] && break
    if ! kill -0 "$pid" 2>/dev/null; then ms_log "influxd exited during start:"; tail -n 30 "$d/influxd.log" >&2; return 1; fi
    sleep 0.1
  done
  if [ "$code" != 204 ]; then ms_log "influxd: no 204 from /ping after 30 s"; tail -n 30 "$d/influxd.log" >&2; influx_stop; return 1; fi
  ms_log "influxd pid $pid answers /ping on $(influx_url) after $(( $(ms_now_ms) - t0 )) ms"
  curl -sS --fail --max-time 10 -XPOST "$(influx_url)/query" --data-urlencode "q=CREATE DATABASE \"$INFLUX_DB\"" >/dev/null \
    || { ms_log "CREATE DATABASE failed"; return 1; }
}

influx_stop() {
  local d="$MS_DIR/influxdb"
  local pid
  if pid=$(ms_pidfile_live "$d/influxd.pid" "influxd run -config $d/"); then ms_kill_pid "$pid" 15; fi
  rm -f "$d/influxd.pid"
}

# influx_write DB PRECISION < lines   -> prints "HTTP <code>" then the body (empty on 204)
influx_write() {
  curl -sS --max-time 30 -o "$MS_DIR/influx_write.body" -w 'HTTP %{http_code}\n' -XPOST \
    "$(influx_url)/write?db=$1&precision=${2:-ms}" --data-binary @-
  cat "$MS_DIR/influx_write.body"; echo
}
# influx_query DB 'SELECT ...'   -> JSON, times as epoch milliseconds
influx_query() {
  curl -sS --max-time 30 -G "$(influx_url)/query" --data-urlencode "db=$1" \
    --data-urlencode 'epoch=ms' --data-urlencode "q=$2"
}

# ---------------------------------------------------------------- Graphite (carbon-cache + whisper)
graphite_dir() { echo "$MS_DIR/graphite/storage/whisper"; }
# whisper file of an untagged metric path: a.b.c -> $WHISPER/a/b/c.wsp
graphite_wsp() { local m="${1#.}"; echo "$(graphite_dir)/${m//.//}.wsp"; }

graphite_start() {
  local d="$MS_DIR/graphite" pid i t0
  if pid=$(ms_pidfile_live "$d/carbon.pid" "carbon-cache --config=$d/"); then
    ms_log "carbon-cache already running (pid $pid)"; return 0
  fi
  for p in "$CARBON_LINE_PORT" "$CARBON_PICKLE_PORT" "$CARBON_QUERY_PORT"; do
    if ms_port_open "$p"; then ms_log "port $p is already in use, not starting carbon-cache"; return 1; fi
  done
  rm -rf "$d"; mkdir -p "$d/log" "$d/storage/whisper" "$d/storage/lists"
  cat > "$d/carbon.conf" <<EOF
[cache]
STORAGE_DIR = $d/storage/
LOCAL_DATA_DIR = $d/storage/whisper/
WHITELISTS_DIR = $d/storage/lists/
CONF_DIR = $d/
LOG_DIR = $d/log/
PID_DIR = $d/
USER =
DATABASE = whisper
ENABLE_LOGROTATION = False
MAX_CACHE_SIZE = inf
MAX_UPDATES_PER_SECOND = inf
MAX_CREATES_PER_MINUTE = inf
MIN_TIMESTAMP_RESOLUTION = 1
LINE_RECEIVER_INTERFACE = 127.0.0.1
LINE_RECEIVER_PORT = $CARBON_LINE_PORT
ENABLE_UDP_LISTENER = True
UDP_RECEIVER_INTERFACE = 127.0.0.1
UDP_RECEIVER_PORT = $CARBON_LINE_PORT
PICKLE_RECEIVER_INTERFACE = 127.0.0.1
PICKLE_RECEIVER_PORT = $CARBON_PICKLE_PORT
CACHE_QUERY_INTERFACE = 127.0.0.1
CACHE_QUERY_PORT = $CARBON_QUERY_PORT
LOG_UPDATES = True
LOG_CREATES = True
LOG_CACHE_HITS = False
LOG_CACHE_QUEUE_SORTS = False
LOG_LISTENER_CONN_SUCCESS = True
CACHE_WRITE_STRATEGY = sorted
WHISPER_AUTOFLUSH = True
WHISPER_SPARSE_CREATE = True
WHISPER_FALLOCATE_CREATE = False
ENABLE_TAGS = False
ENABLE_MANHOLE = False
CARBON_METRIC_INTERVAL = 0
EOF
  cat > "$d/storage-schemas.conf" <<EOF
[everything]
pattern = .*
retentions = $CARBON_RETENTION
EOF
  cat > "$d/storage-aggregation.conf" <<EOF
[everything]
pattern = .*
xFilesFactor = 0
aggregationMethod = last
EOF
  t0=$(ms_now_ms)
  # --nodaemon: stays our child, $! is its pid, all logs go to stdout -> carbon.log
  # (carbon refuses to start if ITS pidfile names a live process: keep ours in a different file)
  /usr/bin/carbon-cache --config="$d/carbon.conf" --pidfile="$d/twistd.pid" --nodaemon start \
    </dev/null >"$d/carbon.log" 2>&1 &
  pid=$!
  echo "$pid" > "$d/carbon.pid"
  for ((i = 0; i < 300; i++)); do                      # 30 s at most
    ms_port_open "$CARBON_LINE_PORT" && break
    if ! kill -0 "$pid" 2>/dev/null; then ms_log "carbon-cache exited during start:"; tail -n 30 "$d/carbon.log" >&2; return 1; fi
    sleep 0.1
  done
  if ! ms_port_open "$CARBON_LINE_PORT"; then ms_log "carbon-cache: port $CARBON_LINE_PORT not open after 30 s"; tail -n 30 "$d/carbon.log" >&2; graphite_stop; return 1; fi
  ms_log "carbon-cache pid $pid listens on 127.0.0.1:$CARBON_LINE_PORT after $(( $(ms_now_ms) - t0 )) ms"
}

# NOTE: points still in carbon's memory cache are LOST on stop; read them back (graphite_wait) first.
graphite_stop() {
  local d="$MS_DIR/graphite"
  local pid
  if pid=$(ms_pidfile_live "$d/carbon.pid" "carbon-cache --config=$d/"); then ms_kill_pid "$pid" 15; fi
  rm -f "$d/carbon.pid"
}

# graphite_send < lines   (plaintext "path value epoch\n"; the LAST LINE NEEDS ITS \n or it is dropped)
graphite_send() { timeout 10 bash -c "cat > /dev/tcp/127.0.0.1/$CARBON_LINE_PORT"; }

# graphite_fetch METRIC FROM UNTIL -> "epoch<TAB>value" lines for non-empty slots in (FROM, UNTIL]
graphite_fetch() {
  timeout 30 whisper-fetch --from "$2" --until "$3" "$(graphite_wsp "$1")" 2>/dev/null | awk '$2 != "None"'
}

# graphite_wait METRIC EPOCH EXPECTED [SECONDS]: poll until the point at EPOCH equals EXPECTED (numerically)
graphite_wait() {
  local m="$1" ts="$2" want="$3" secs="${4:-15}" i got
  for ((i = 0; i < secs * 5; i++)); do
    got=$(graphite_fetch "$m" $((ts - 1)) "$ts" | awk '{print $2}') || got=""
    [ -n "$got" ] && awk -v g="$got" -v w="$want" 'BEGIN { exit !(g + 0 == w + 0) }' && return 0
    sleep 0.2
  done
  ms_log "graphite: $m@$ts is '${got}', expected '$want' (after ${secs}s)"; return 1
}

ms_stop_all() {
  graphite_stop
  influx_stop
}
