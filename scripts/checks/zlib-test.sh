#!/usr/bin/env bash
# The zlib gzip that stands in where ISA-L is absent (docs/testing.md):
# 1. the package without ISA-L (AVT_REPLAY_ZLIB=1, what Package.swift does where ISA-L's header
#    is absent) compiles: the two modules that choose a gzip library, in their own scratch
#    folder (.build-zlib);
# 2. the tests of gzip reading, bad input, the golden samples and the metric bodies run again
#    in the test build with AVT_REPLAY_GZIP=zlib, in process and in the binaries they start:
#    zlib gives the same entries, problems and reports as ISA-L.
# Run after `swift build --build-tests` (scripts/test.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
for target in EventLog MetricsPush; do
    AVT_REPLAY_ZLIB=1 swift build --scratch-path .build-zlib --target "$target" >&2
done
AVT_REPLAY_GZIP=zlib swift test --skip-build \
    --filter "EventLogTests|MetricsPushTests|SampleReplayTests|BadInputTests|CommandLineTests|EventTimeTests|GzipLibraryTests"
echo "zlib-test: the build without ISA-L compiles; zlib reads, rejects and reports as ISA-L" >&2
