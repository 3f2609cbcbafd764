#!/usr/bin/env bash
# Builds avt-loggen (an executable target of the package, not a product: `swift build` builds it
# beside avt-replay) and prints its path: what the test scripts and the checks run to generate
# event logs.
#
#   scripts/generate/loggen.sh [debug|release]      (default: debug)
set -euo pipefail
cd "$(dirname "$0")/../.."
configuration=${1:-debug}
swift build -c "$configuration" --product avt-loggen >&2
echo "$(swift build -c "$configuration" --show-bin-path)/avt-loggen"
