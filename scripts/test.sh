#!/usr/bin/env bash
# Runs the whole test suite: installs what it needs, builds, and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift format lint --strict -r Sources Tests Package.swift
scripts/memory-test.sh
swift build --build-tests
swift test --skip-build "$@"
