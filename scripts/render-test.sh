#!/usr/bin/env bash
# Renders report.html in headless Chromium (Debian's `chromium`, from scripts/install-deps.sh) and
# checks it:
#   1. the report of samples/ must show every chart with every series in a screenshot
#      (scripts/render-check.py), and every number on it must be the one its CSV file gives,
#      with no reference to anything outside the page (scripts/page-check.py), as must the
#      report of the samples split by --group-by;
#   2. loaded in Chromium, the page must log nothing to the console, request nothing but
#      itself (Chromium's own update and sign-in requests aside; no name resolves, so nothing
#      leaves the machine), and have every section; its sorting script must sort;
#   3. the report of an empty log (charts without data) must fail the screenshot check, the
#      samples' report with its charts hidden too, and a page with a number changed, an image
#      from elsewhere, or a script error must fail the checks.
# With an argument, also copies the samples' screenshot there (docs/report.png is made so).
# Uses the debug build of avt-replay (`swift build`).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

render() { # render HTML PNG
    if ! timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --force-color-profile=srgb --hide-scrollbars \
        --user-data-dir="$work/profile" --screenshot="$2" --window-size=1200,1900 "file://$1" \
        >"$work/chromium.log" 2>&1 || [ ! -s "$2" ]; then
        cat "$work/chromium.log" >&2
        echo "render-test: chromium could not render $1" >&2
        exit 1
    fi
}

load() { # load HTML DOM: dumps the DOM of the loaded page; fails on a console message or a request
    rm -rf "$work/profile-load"
    if ! timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --user-data-dir="$work/profile-load" --enable-logging=stderr --v=1 \
        --host-resolver-rules="MAP * ~NOTFOUND" --virtual-time-budget=5000 \
        --dump-dom "file://$1" >"$2" 2>"$work/load.log" || [ ! -s "$2" ]; then
        tail -20 "$work/load.log" >&2
        echo "render-test: chromium could not load $1" >&2
        exit 1
    fi
    local problems=0
    if grep ':CONSOLE' "$work/load.log" >&2; then
        echo "render-test: $1 logged to the console" >&2
        problems=1
    fi
    # Every request but the page itself and Chromium's own (update, sign-in, dictionaries).
    if grep -o 'NotifyBeforeURLRequest: [^ ]*' "$work/load.log" | sed 's/^NotifyBeforeURLRequest: //' |
        grep -v -e "^file://$1\$" -e '^https\?://[^/]*\(google\.com\|googleapis\.com\|gvt1\.com\)/' >&2; then
        echo "render-test: $1 made the requests above" >&2
        problems=1
    fi
    return $problems
}

expect_failure() { # expect_failure WHAT MESSAGE COMMAND...: the command must fail, saying MESSAGE
    local what=$1 message=$2
    shift 2
    if "$@" 2>"$work/failure.out" >/dev/null; then
        echo "render-test: $what passed the check" >&2
        exit 1
    fi
    grep -q -- "$message" "$work/failure.out" || { cat "$work/failure.out" >&2; exit 1; }
}

replay="$(swift build --show-bin-path)/avt-replay"
"$replay" --quiet --out "$work/samples" samples/*.jsonl.gz
render "$work/samples/report.html" "$work/samples.png"
scripts/render-check.py "$work/samples/report.html" "$work/samples.png"
load "$work/samples/report.html" "$work/samples.dom"
# The sorting script, clicked: the worst playbacks by watch time twice, the value propositions
# by mean time to start once.
sed 's|</body>|<script>var w = document.querySelectorAll("#worst th")[5]; w.click(); w.click(); document.querySelectorAll("#value-propositions th")[4].click();</script></body>|' \
    "$work/samples/report.html" >"$work/samples/sorted.html"
load "$work/samples/sorted.html" "$work/sorted.dom"
scripts/page-check.py "$work/samples/report.html" --dom "$work/samples.dom" --sorted "$work/sorted.dom"
expect_failure "the page as loaded, unsorted," "is not in order" \
    scripts/page-check.py "$work/samples/report.html" --sorted "$work/samples.dom"

"$replay" --quiet --out "$work/grouped" --group-by system,title --bucket 5m samples/*.jsonl.gz
load "$work/grouped/report.html" "$work/grouped.dom"
scripts/page-check.py "$work/grouped/report.html" --dom "$work/grouped.dom"

# The hand-computed day (its summary.csv is checked against the hand's KPIs by KPIFixtureTests),
# and a generated day of 5-minute buckets, split by title.
"$replay" --quiet --out "$work/fixture" Tests/Fixtures/kpi-day.jsonl
load "$work/fixture/report.html" "$work/fixture.dom"
scripts/page-check.py "$work/fixture/report.html" --dom "$work/fixture.dom"
"$(scripts/loggen.sh)" --records 20000 --files 3 --seed 7 --out "$work/generated-logs" >/dev/null
"$replay" --quiet --out "$work/generated" --bucket 5m --group-by title "$work/generated-logs"/*.jsonl || true
load "$work/generated/report.html" "$work/generated.dom"
scripts/page-check.py "$work/generated/report.html" --dom "$work/generated.dom"

: >"$work/empty.jsonl"
"$replay" --quiet --out "$work/empty" "$work/empty.jsonl"
render "$work/empty/report.html" "$work/empty.png"
expect_failure "the report of an empty log, which must find no series," "has 0 pixels in the plot area" \
    scripts/render-check.py "$work/empty/report.html" "$work/empty.png"
load "$work/empty/report.html" "$work/empty.dom"

sed 's/<section id="trends">/<section id="trends" style="display: none">/; s/<section id="distributions">/<section id="distributions" style="display: none">/' \
    "$work/samples/report.html" >"$work/hidden.html"
render "$work/hidden.html" "$work/hidden.png"
expect_failure "a page with its charts hidden" "no pixel of its plot area" \
    scripts/render-check.py "$work/samples/report.html" "$work/hidden.png"

sed 's/data-col="vpf_pct">25.00</data-col="vpf_pct">25.01</' "$work/samples/report.html" >"$work/samples/changed.html"
expect_failure "a page with a number changed" "the page shows '25.01', the CSV gives '25.00'" \
    scripts/page-check.py "$work/samples/changed.html"
sed 's|</body>|<img src="http://avt-replay.invalid/pixel.png" alt=""></body>|' "$work/samples/report.html" \
    >"$work/samples/remote.html"
expect_failure "a page with an image from elsewhere" "refers to a resource" scripts/page-check.py "$work/samples/remote.html"
expect_failure "a page with an image from elsewhere" "http://avt-replay.invalid/pixel.png" \
    load "$work/samples/remote.html" "$work/remote.dom"
sed 's|</body>|<script>undefinedFunction();</script></body>|' "$work/samples/report.html" >"$work/samples/error.html"
expect_failure "a page with a script error" "logged to the console" load "$work/samples/error.html" "$work/error.dom"

if [ $# -gt 0 ]; then cp "$work/samples.png" "$1"; fi
echo "render-test: report.html renders every chart and series, its numbers are its CSV files', it loads nothing" \
    "and logs nothing, and sorts; empty and hidden charts, changed numbers, requests and errors are caught" >&2
