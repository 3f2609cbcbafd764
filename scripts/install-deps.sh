#!/usr/bin/env bash
# Installs the Debian packages avt-replay builds and tests with, when they are missing.
# Safe to run again: it does nothing when everything is there.
set -euo pipefail

# libjemalloc-dev: avt-replay links jemalloc as its allocator (Package.swift).
# libcurl4-openssl-dev: InfluxDB's requests go through libcurl (MetricsPush/CurlPost.swift).
# chromium and fonts-dejavu-core render report.html for scripts/checks/render-test.sh; fonts-noto-color-emoji
# and fonts-noto-cjk give it glyphs for titles in emoji and Chinese, Japanese or Korean, which the
# test checks are drawn (no box).
packages=(libisal-dev zlib1g-dev libsimdjson-dev libjemalloc-dev libcurl4-openssl-dev time chromium fonts-dejavu-core
    fonts-noto-color-emoji fonts-noto-cjk)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
# A Java runtime (Debian's default-jre-headless, unless one is there) runs Spark (pyspark, below)
# for examples/spark/test.sh.
command -v java >/dev/null || missing+=(default-jre-headless)
if ((${#missing[@]})); then
    echo "install-deps: installing ${missing[*]}" >&2
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# pyspark (from PyPI) runs examples/spark/replay_shards.py in Spark's local mode in the tests.
if ! python3 -c 'import pyspark' 2>/dev/null; then
    echo "install-deps: installing pyspark (pip)" >&2
    python3 -m pip install --quiet pyspark >&2
fi
