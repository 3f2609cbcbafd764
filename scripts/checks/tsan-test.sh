#!/usr/bin/env bash
# The replay's threads under ThreadSanitizer: builds avt-replay with --sanitize=thread and
# replays the samples and generated logs with it, with --threads 1 (one reading, one
# replaying and one writing thread) and --threads 4 (four replay engines), failing on any data
# race TSan reports; the reports must be those of the usual build, byte for byte (run.json,
# which holds the time and memory, aside). Guards the unchecked-Sendable hand-overs between
# the threads (BoundedQueue, ThreadBox, the pipeline, BlockDecoding's schedule).
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build --sanitize=thread --scratch-path .build-tsan --product avt-replay >/dev/null
swift build --product avt-replay >/dev/null
tsan=$(swift build --sanitize=thread --scratch-path .build-tsan --show-bin-path)/avt-replay
bin=$(swift build --show-bin-path)
"$(scripts/generate/loggen.sh)" --records 20000 --files 3 --late 25 --layout hosts:3 --out "$work/logs" 2>/dev/null
# Hourly files are read one after the other: the next is streamed ahead while one is merged.
"$(scripts/generate/loggen.sh)" --records 20000 --files 4 --out "$work/hourly" 2>/dev/null
passed=0
failed=0
for run in "samples 1" "samples 4" "$work/logs 1" "$work/logs 4" "$work/hourly 4"; do
    input=${run% *}
    files=("$input"/*.jsonl*)
    args=(--quiet --trace --aggregate --threads "${run##* }")
    "$bin/avt-replay" "${args[@]}" --out "$work/plain" "${files[@]}" || true
    status=0
    TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$tsan" "${args[@]}" --out "$work/tsan" "${files[@]}" \
        2>"$work/tsan.err" || status=$?
    if ((status == 66)) || grep -q 'ThreadSanitizer' "$work/tsan.err"; then
        echo "tsan: data race replaying $input with --threads ${run##* }:" >&2
        head -n 40 "$work/tsan.err" >&2
        failed=$((failed + 1))
    elif ! diff -rq -x run.json "$work/plain" "$work/tsan" >/dev/null; then
        echo "tsan: the instrumented build's reports of $input with --threads ${run##* } differ" >&2
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
    rm -rf "$work/plain" "$work/tsan"
done
echo "tsan: $passed passed, $failed failed"
((failed == 0))
