#!/usr/bin/env bash
# Builds avt-replay with zlib instead of ISA-L (AVT_REPLAY_ZLIB=1, what Package.swift chooses
# where ISA-L is absent), in its own scratch folder (.build-zlib), checks that the binary links
# zlib and not ISA-L, and runs the tests of gzip reading, bad input, the golden samples and
# the metric bodies against it: the fallback gives the same entries, problems and reports.
set -euo pipefail
cd "$(dirname "$0")/.."
export AVT_REPLAY_ZLIB=1
swift build --scratch-path .build-zlib --build-tests >&2
binary="$(swift build --scratch-path .build-zlib --show-bin-path)/avt-replay"
libraries=$(ldd "$binary")
if [[ $libraries == *libisal* || $libraries != *libz.so* ]]; then
    echo "zlib-test: $binary links ISA-L, or not zlib" >&2
    exit 1
fi
swift test --scratch-path .build-zlib --skip-build \
    --filter "EventLogTests|MetricsPushTests|SampleReplayTests|BadInputTests|CommandLineTests|EventTimeTests"
echo "zlib-test: the zlib build reads, rejects and reports as the ISA-L one" >&2
