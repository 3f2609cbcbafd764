#!/usr/bin/env bash
# Installs avt-replay's man page and shell completions under PREFIX (default /usr/local):
#
#   scripts/install-cli-extras.sh [PREFIX]
#
# - the man page, generated from the command's own help by swift-argument-parser's
#   generate-manual plugin (a release build), to PREFIX/share/man/man1/avt-replay.1
#   (`man avt-replay`);
# - bash, zsh and fish completions, from `avt-replay --generate-completion-script`, to
#   PREFIX/share/bash-completion/completions/avt-replay, PREFIX/share/zsh/site-functions/_avt-replay
#   and PREFIX/share/fish/vendor_completions.d/avt-replay.fish, where those shells look.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-/usr/local}
swift build -c release --product avt-replay >&2
binary="$(swift build -c release --show-bin-path)/avt-replay"
# The page's date is the last commit's, not the day it was made: the same source, the same page.
swift package plugin generate-manual --date "$(git log -1 --format=%cs 2>/dev/null || echo 2026-01-01)" >&2
install -D -m 644 .build/plugins/GenerateManual/outputs/avt-replay/avt-replay.1 "$prefix/share/man/man1/avt-replay.1"
"$binary" --generate-completion-script bash | install -D -m 644 /dev/stdin \
    "$prefix/share/bash-completion/completions/avt-replay"
"$binary" --generate-completion-script zsh | install -D -m 644 /dev/stdin "$prefix/share/zsh/site-functions/_avt-replay"
"$binary" --generate-completion-script fish | install -D -m 644 /dev/stdin \
    "$prefix/share/fish/vendor_completions.d/avt-replay.fish"
echo "installed the man page and completions under $prefix" >&2
