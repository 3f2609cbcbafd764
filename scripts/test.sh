#!/usr/bin/env bash
# Runs the whole test suite: installs what it needs, builds, and runs every test: the
# format lint, the memory test, report.html rendered in headless Chromium (scripts/render-test.sh),
# the DocC documentation of the public API (scripts/docs.sh), the integration test against
# real InfluxDB and carbon (installed and run on loopback by
# scripts/metrics-servers.sh), the custom-hub sample package (scripts/custom-hub-test.sh), the
# replay's threads under ThreadSanitizer (scripts/tsan-test.sh), the zlib build that stands in
# where ISA-L is absent (scripts/zlib-test.sh), the Spark job in local mode (examples/spark/test.sh), and
# swift test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The log generator the tests and checks replay, from its own package (Tools/).
scripts/loggen.sh >/dev/null
swift format lint --strict -r Sources Tests Package.swift samples/custom-hub/Package.swift samples/custom-hub/Sources \
    Tools/Package.swift Tools/Sources
scripts/memory-test.sh
swift build --build-tests
scripts/docs.sh
scripts/render-test.sh
scripts/integration-test.sh
scripts/custom-hub-test.sh
scripts/tsan-test.sh
scripts/zlib-test.sh
examples/spark/test.sh
swift test --skip-build "$@"
