#!/usr/bin/env bash
# Builds avt-loggen (the Tools package, which compiles avt-replay's libraries on its own) and
# prints its path: what the test scripts and the benchmark run to generate event logs.
#
#   scripts/loggen.sh [debug|release]      (default: debug)
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=${1:-debug}
swift build --package-path Tools -c "$configuration" --product avt-loggen >&2
echo "$(swift build --package-path Tools -c "$configuration" --show-bin-path)/avt-loggen"
