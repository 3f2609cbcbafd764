#!/usr/bin/env bash
# Builds the DocC documentation of the library's public API, one archive per module, into
# .build-docs/archives/<Module>.doccarchive (open one with `docc preview`, or serve it), and
# fails when DocC warns (a symbol link that leads nowhere, a doc comment that does not parse).
#
#   scripts/checks/docs.sh
#
# It extracts the symbol graphs of the package's debug build (building what is not built
# yet), then runs the toolchain's `docc convert` on each module's graphs: no plugin or network
# needed. Part of scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
modules=(EventModel OpenAVT ValueProposition Marconi Replay EventLog ReportEncoding ReplayCLI ReplayTestSupport)
# SwiftPM's symbol-graph extractor, on the modules as built (incremental after the first run).
# It also tries the package's synthesised test-runner modules, which it cannot load, and so
# fails: the graphs that matter are checked for one by one below.
swift package dump-symbol-graph --minimum-access-level public >&2 || true
graphs=$(swift build --show-bin-path)/../symbolgraph
rm -rf .build-docs/archives .build-docs/modules
mkdir -p .build-docs/archives .build-docs/modules
warnings=0
for module in "${modules[@]}"; do
    mkdir -p ".build-docs/modules/$module"
    cp "$graphs/$module".symbols.json ".build-docs/modules/$module"/
    cp "$graphs/$module"@*.symbols.json ".build-docs/modules/$module"/ 2>/dev/null || true
    docc convert --additional-symbol-graph-dir ".build-docs/modules/$module" --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.avt-replay.$module" \
        --output-path ".build-docs/archives/$module.doccarchive" >".build-docs/$module.log" 2>&1
    count=$(grep -c "warning:" ".build-docs/$module.log" || true)
    if [ "$count" -gt 0 ]; then
        grep "warning:" ".build-docs/$module.log" | sed "s|^|docs: $module: |" >&2
        warnings=$((warnings + count))
    fi
done
echo "docs: ${#modules[@]} archives in .build-docs/archives, $warnings warnings" >&2
[ "$warnings" -eq 0 ]
