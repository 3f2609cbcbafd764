#!/usr/bin/env bash
# Installs avt-replay's man page and shell completions under PREFIX (default /usr/local),
# from the committed files under share/ (no Swift build needed):
#
#   scripts/install-cli-extras.sh [PREFIX]
#
# - the man page to PREFIX/share/man/man1/avt-replay.1 (`man avt-replay`);
# - bash, zsh and fish completions to PREFIX/share/bash-completion/completions/avt-replay,
#   PREFIX/share/zsh/site-functions/_avt-replay and
#   PREFIX/share/fish/vendor_completions.d/avt-replay.fish, where those shells look.
#
# The files are what the binary makes (`avt-replay --generate-completion-script SHELL`, and the
# page from `avt-replay --experimental-dump-help`): CLIExtrasTests checks that they still are,
# and `RECORD_GOLDEN=1 swift test --filter CLIExtrasTests` writes them again after a change
# of the command line.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-/usr/local}
for file in share/man/man1/avt-replay.1 share/bash-completion/completions/avt-replay \
    share/zsh/site-functions/_avt-replay share/fish/vendor_completions.d/avt-replay.fish; do
    install -D -m 644 "$file" "$prefix/$file"
done
echo "installed the man page and completions under $prefix" >&2
