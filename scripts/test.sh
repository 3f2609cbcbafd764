#!/usr/bin/env bash
# Runs the whole test suite: installs what it needs, lints (the format, and every import
# declared in Package.swift: scripts/checks/import-check.py), builds the release binaries and
# the tests once and runs them (swift test, the in-process tests in the debug build, the
# spawned ones on the release binaries: AVT_REPLAY_BINARIES) first, then the slower suites,
# each reusing what was built before it: the gzip tests again with zlib in the same build
# (scripts/checks/zlib-test.sh, which also compiles the package without ISA-L), the DocC
# documentation of the public API (scripts/checks/docs.sh), report.html rendered in headless
# Chromium (scripts/checks/render-test.sh), the integration test against real InfluxDB and
# carbon (installed and run on loopback by scripts/checks/metrics-servers.sh), the custom-hub
# sample package (scripts/checks/custom-hub-test.sh), the replay's threads under
# ThreadSanitizer (scripts/checks/tsan-test.sh), the memory test (a release build) and the
# Spark job in local mode on the release build (examples/spark/test.sh --release). Arguments
# go to swift test (e.g. --filter).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift format lint --strict -r Sources Tests Package.swift samples/custom-hub/Package.swift samples/custom-hub/Sources
scripts/checks/import-check.py
# The release build first: its avt-replay and avt-loggen are what the tests spawn (a debug
# binary costs some ten times the CPU) and what the memory test measures.
swift build -c release --explicit-target-dependency-import-check error
swift build --build-tests --explicit-target-dependency-import-check error
AVT_REPLAY_BINARIES=$(swift build -c release --show-bin-path)
export AVT_REPLAY_BINARIES
swift test --skip-build "$@"
scripts/checks/zlib-test.sh
scripts/checks/docs.sh
scripts/checks/render-test.sh
scripts/checks/integration-test.sh
scripts/checks/custom-hub-test.sh
scripts/checks/tsan-test.sh
scripts/checks/memory-test.sh
examples/spark/test.sh --release
