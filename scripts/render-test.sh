#!/usr/bin/env bash
# Renders report.html in headless Chromium (Debian's `chromium`, from scripts/install-deps.sh) and
# checks the screenshots with scripts/render-check.py:
#   1. the report of samples/ must show every chart with every series;
#   2. the report of an empty log (charts without data) must fail the check;
#   3. the samples' report with its charts hidden must fail the check.
# With an argument, also copies the samples' screenshot there (docs/report.png is made so).
# Uses the debug build of avt-replay (`swift build`).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

render() { # render HTML PNG
    if ! timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --force-color-profile=srgb --hide-scrollbars \
        --user-data-dir="$work/profile" --screenshot="$2" --window-size=1200,900 "file://$1" \
        >"$work/chromium.log" 2>&1 || [ ! -s "$2" ]; then
        cat "$work/chromium.log" >&2
        echo "render-test: chromium could not render $1" >&2
        exit 1
    fi
}

replay="$(swift build --show-bin-path)/avt-replay"
"$replay" --quiet --out "$work/samples" samples/*.jsonl.gz
render "$work/samples/report.html" "$work/samples.png"
scripts/render-check.py "$work/samples/report.html" "$work/samples.png"

: >"$work/empty.jsonl"
"$replay" --quiet --out "$work/empty" "$work/empty.jsonl"
render "$work/empty/report.html" "$work/empty.png"
if scripts/render-check.py "$work/empty/report.html" "$work/empty.png" 2>"$work/empty.out"; then
    echo "render-test: the report of an empty log passed the check, which must find no series" >&2
    exit 1
fi
grep -q "has 0 pixels in the plot area" "$work/empty.out" || { cat "$work/empty.out" >&2; exit 1; }

sed 's/<main class="charts">/<main class="charts" style="display: none">/' "$work/samples/report.html" \
    >"$work/hidden.html"
render "$work/hidden.html" "$work/hidden.png"
if scripts/render-check.py "$work/samples/report.html" "$work/hidden.png" 2>"$work/hidden.out"; then
    echo "render-test: a page with its charts hidden passed the check" >&2
    exit 1
fi
grep -q "no pixel of its plot area" "$work/hidden.out" || { cat "$work/hidden.out" >&2; exit 1; }

if [ $# -gt 0 ]; then cp "$work/samples.png" "$1"; fi
echo "render-test: report.html renders every chart and series; empty and hidden charts are caught" >&2
