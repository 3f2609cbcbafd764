#!/usr/bin/env bash
# Renders report.html in headless Chromium (Debian's `chromium`, from scripts/install-deps.sh) and
# checks it:
#   1. the report of samples/ must show every chart with every series in a screenshot
#      (scripts/checks/render-check.py), and every number on it must be the one its CSV file gives,
#      with no reference to anything outside the page (scripts/checks/page-check.py), as must the
#      report of the samples split by --group-by;
#   2. loaded in Chromium, the page must log nothing to the console, request nothing but
#      itself (Chromium's own update and sign-in requests aside; no name resolves, so nothing
#      leaves the machine), and have every section; its sorting script must sort;
#   3. the report of an empty log (charts without data) must fail the screenshot check, the
#      samples' report with its charts hidden too, and a page with a number changed, an image
#      from elsewhere, or a script error must fail the checks;
#   4. every character of a page whose titles have emoji and CJK ideographs must be drawn with a
#      glyph, no box (render-check.py --glyphs, from a screenshot of them in the page's fonts); the
#      same screenshot with only DejaVu's fonts, and a title with an unassigned code point, must fail;
#   5. the generated day's page (lines, 5-minute buckets) must show every series of every chart,
#      the startup percentiles included, and its breakdown by title a floor of views.
# With an argument, also copies the samples' screenshot there (docs/report.png is made so).
# Uses the debug build of avt-replay (`swift build`).
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

render() { # render HTML PNG [WIDTH,HEIGHT]
    if ! timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --force-color-profile=srgb --hide-scrollbars \
        --user-data-dir="$work/profile" --screenshot="$2" --window-size="${3:-1200,1900}" "file://$1" \
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
scripts/checks/render-check.py "$work/samples/report.html" "$work/samples.png"
load "$work/samples/report.html" "$work/samples.dom"
# The sorting script, clicked: the worst playbacks by watch time twice, the value propositions
# by mean time to start once.
sed 's|</body>|<script>var w = document.querySelectorAll("#worst th")[5]; w.click(); w.click(); document.querySelectorAll("#value-propositions th")[4].click();</script></body>|' \
    "$work/samples/report.html" >"$work/samples/sorted.html"
load "$work/samples/sorted.html" "$work/sorted.dom"
scripts/checks/page-check.py "$work/samples/report.html" --dom "$work/samples.dom" --sorted "$work/sorted.dom"
expect_failure "the page as loaded, unsorted," "is not in order" \
    scripts/checks/page-check.py "$work/samples/report.html" --sorted "$work/samples.dom"

"$replay" --quiet --out "$work/grouped" --group-by system,title --bucket 5m samples/*.jsonl.gz
load "$work/grouped/report.html" "$work/grouped.dom"
scripts/checks/page-check.py "$work/grouped/report.html" --dom "$work/grouped.dom"

# The hand-computed day (its summary.csv is checked against the hand's KPIs by KPIFixtureTests),
# and a generated day of 5-minute buckets, split by title.
"$replay" --quiet --out "$work/fixture" Tests/Fixtures/kpi-day.jsonl
load "$work/fixture/report.html" "$work/fixture.dom"
scripts/checks/page-check.py "$work/fixture/report.html" --dom "$work/fixture.dom"
"$(scripts/generate/loggen.sh)" --records 20000 --files 3 --seed 7 --out "$work/generated-logs" >/dev/null
"$replay" --quiet --out "$work/generated" --bucket 5m --group-by title "$work/generated-logs"/*.jsonl || true
load "$work/generated/report.html" "$work/generated.dom"
scripts/checks/page-check.py "$work/generated/report.html" --dom "$work/generated.dom"
render "$work/generated/report.html" "$work/generated.png" 1200,2600
scripts/checks/render-check.py "$work/generated/report.html" "$work/generated.png"
grep -q '<tfoot><tr class="rest"><td class="text">other (' "$work/generated/report.html" ||
    { echo "render-test: the generated day's breakdown by title has no row for the values under the floor" >&2; exit 1; }

# Titles in emoji and CJK: each character of the page drawn with a glyph of some font.
glyphs() { # glyphs REPORT_HTML NAME: renders the page's characters; checks each has a glyph
    local size
    size=$(scripts/checks/render-check.py --glyph-page "$1" "$work/$2-glyphs.html")
    render "$work/$2-glyphs.html" "$work/$2-glyphs.png" "$size"
    scripts/checks/render-check.py --glyphs "$1" "$work/$2-glyphs.png"
}
mkdir -p "$work/unicode-logs"
for log in samples/*.jsonl.gz; do
    zcat "$log" | sed -e 's/"title":"Live match"/"title":"ライブ 東京 🎬⚽ Live match"/' \
        -e 's/"title":"Episode 42"/"title":"第42話 夜のドライブ 🌃🎞️ Episode 42"/' >"$work/unicode-logs/$(basename "$log" .gz)"
done
"$replay" --quiet --out "$work/unicode" --group-by title --breakdown-min-views 1 "$work/unicode-logs"/*.jsonl
grep -q '東京 🎬⚽ Live match' "$work/unicode/report.html" && grep -q '第42話 夜のドライブ 🌃🎞️' "$work/unicode/report.html" ||
    { echo "render-test: the titles in emoji and CJK are not on the page" >&2; exit 1; }
render "$work/unicode/report.html" "$work/unicode.png"
scripts/checks/render-check.py "$work/unicode/report.html" "$work/unicode.png"
glyphs "$work/unicode/report.html" unicode
FONTCONFIG_FILE="$work/dejavu-only.conf"
printf '<?xml version="1.0"?>\n<fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>%s</cachedir></fontconfig>\n' \
    "$work/fontconfig-cache" >"$FONTCONFIG_FILE"
export FONTCONFIG_FILE
rm -rf "$work/profile"
expect_failure "the emoji and CJK titles with only DejaVu's fonts" "(CJK UNIFIED IDEOGRAPH-6771) is drawn as the missing-glyph box" \
    glyphs "$work/unicode/report.html" dejavu
unset FONTCONFIG_FILE
rm -rf "$work/profile"
sed 's/Live match/Live \xcd\xb8 match/' "$work/unicode/report.html" >"$work/unicode/unassigned.html"
expect_failure "a title with an unassigned code point" "U+0378" glyphs "$work/unicode/unassigned.html" unassigned

: >"$work/empty.jsonl"
"$replay" --quiet --out "$work/empty" "$work/empty.jsonl"
render "$work/empty/report.html" "$work/empty.png"
expect_failure "the report of an empty log, which must find no series," "has 0 pixels in the plot area" \
    scripts/checks/render-check.py "$work/empty/report.html" "$work/empty.png"
load "$work/empty/report.html" "$work/empty.dom"

sed 's/<section id="trends">/<section id="trends" style="display: none">/; s/<section id="distributions">/<section id="distributions" style="display: none">/' \
    "$work/samples/report.html" >"$work/hidden.html"
render "$work/hidden.html" "$work/hidden.png"
expect_failure "a page with its charts hidden" "no pixel of its plot area" \
    scripts/checks/render-check.py "$work/samples/report.html" "$work/hidden.png"

sed 's/data-col="vpf_pct">25.00</data-col="vpf_pct">25.01</' "$work/samples/report.html" >"$work/samples/changed.html"
expect_failure "a page with a number changed" "the page shows '25.01', the CSV gives '25.00'" \
    scripts/checks/page-check.py "$work/samples/changed.html"
sed 's|</body>|<img src="http://avt-replay.invalid/pixel.png" alt=""></body>|' "$work/samples/report.html" \
    >"$work/samples/remote.html"
expect_failure "a page with an image from elsewhere" "refers to a resource" scripts/checks/page-check.py "$work/samples/remote.html"
expect_failure "a page with an image from elsewhere" "http://avt-replay.invalid/pixel.png" \
    load "$work/samples/remote.html" "$work/remote.dom"
sed 's|</body>|<script>undefinedFunction();</script></body>|' "$work/samples/report.html" >"$work/samples/error.html"
expect_failure "a page with a script error" "logged to the console" load "$work/samples/error.html" "$work/error.dom"

if [ $# -gt 0 ]; then cp "$work/samples.png" "$1"; fi
if [ -n "${RENDER_TEST_KEEP:-}" ]; then mkdir -p "$RENDER_TEST_KEEP" && cp "$work"/*.png "$RENDER_TEST_KEEP"/; fi
echo "render-test: report.html renders every chart and series, its numbers are its CSV files' in people's units," \
    "every character has a glyph, it loads nothing and logs nothing, and sorts; empty and hidden charts, changed" \
    "numbers, missing glyphs, requests and errors are caught" >&2
