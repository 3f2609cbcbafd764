#!/usr/bin/env bash
# A push to an InfluxDB that takes the connection and never answers (issue 51): each try must
# end after the documented 30 s, and the waiting must cost almost no processor time.
#
#   scripts/checks/fault-check.sh [--work DIR] [AVT_REPLAY]
#
# - builds avt-replay for release (unless AVT_REPLAY, a binary, is given);
# - starts a server on loopback that accepts every connection and never answers (python3);
# - runs `avt-replay --influx http://127.0.0.1:PORT/write?db=faultcheck --out DIR/out
#   samples/*.jsonl.gz` under `/usr/bin/time -v`;
# - prints the wall time, the user and system processor time, the exit status, the message and
#   the connections the server accepted;
# - fails (exit 1) when the run does not take three tries of 30 s (Pusher: 3 attempts, 0.2 s
#   then 0.4 s apart: 90.6 s and the replay; between 89 and 100 s is accepted), uses more than
#   2 s of processor time, does not exit 5 (the batch kept in the spool), does not say "timed
#   out after 30 s waiting for http://127.0.0.1:PORT/write?db=faultcheck", or the server did not
#   accept exactly 3 connections.
#
# Not run in CI: it takes a minute and a half, waiting.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=""
bin=""
while (($#)); do
    case "$1" in
        --work) work=$2; shift 2 ;;
        -h | --help) sed -n '2,/^$/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) bin=$1; shift ;;
    esac
done
own_work=0
if [ -z "$work" ]; then
    work=$(mktemp -d)
    own_work=1
fi
mkdir -p "$work"
server=""
stop_server() { if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi; }
cleanup() {
    stop_server
    if ((own_work)); then rm -rf "$work"; fi
}
trap cleanup EXIT
if [ -z "$bin" ]; then
    swift build -c release --product avt-replay >&2
    bin="$(swift build -c release --show-bin-path)/avt-replay"
fi

# The server: prints its port, then a line per connection it accepts; keeps them all open.
python3 -c '
import socket
server = socket.socket()
server.bind(("127.0.0.1", 0))
server.listen(16)
print(server.getsockname()[1], flush=True)
held = []
while True:
    connection, _ = server.accept()
    held.append(connection)
    print("accepted", flush=True)
' >"$work/server.txt" &
server=$!
while [ ! -s "$work/server.txt" ]; do
    kill -0 "$server" 2>/dev/null || { echo "fault-check: the server did not start" >&2; exit 1; }
    sleep 0.1
done
port=$(head -n 1 "$work/server.txt")
url="http://127.0.0.1:$port/write?db=faultcheck"

set +e
/usr/bin/time -v -o "$work/time.txt" "$bin" --quiet --out "$work/out" --influx "$url" samples/*.jsonl.gz \
    2>"$work/err.txt"
status=$?
set -e
stop_server

wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt" \
    | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }')
user=$(sed -n 's/.*User time (seconds): //p' "$work/time.txt")
system=$(sed -n 's/.*System time (seconds): //p' "$work/time.txt")
cpu=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.2f", u + s }')
connections=$(grep -c '^accepted$' "$work/server.txt" || true)
printf 'fault-check: %s against a server that never answers (%s)\n' "$("$bin" --version 2>/dev/null || echo avt-replay)" "$url"
printf '  wall %s s, processor %s s (user %s s, system %s s), exit %s, %s connections accepted\n' \
    "$wall" "$cpu" "$user" "$system" "$status" "$connections"
sed 's/^/  /' "$work/err.txt"

failed=0
fail() {
    echo "fault-check: FAILED: $*" >&2
    failed=1
}
awk -v w="$wall" 'BEGIN { exit !(w >= 89 && w <= 100) }' || fail "wall time $wall s, expected 3 tries of 30 s (89 to 100 s)"
awk -v c="$cpu" 'BEGIN { exit !(c <= 2) }' || fail "processor time $cpu s while waiting, expected near zero (at most 2 s)"
[ "$status" -eq 5 ] || fail "exit status $status, expected 5 (the batch kept in the spool)"
grep -qF "timed out after 30 s waiting for $url" "$work/err.txt" || fail "the message does not say it timed out after 30 s"
[ "$connections" -eq 3 ] || fail "$connections connections, expected 3 (one a try)"
exit "$failed"
