#!/usr/bin/env bash
# Builds samples/custom-hub, a package that depends on this one by a tagged version, as another
# team's package would, and makes its own replay command (custom-replay: a hub that counts
# quality changes, a metricalc that adds TimeBetweenQualityChanges); replays samples/ with it
# and with avt-replay, and checks the custom attribute and metric and that every other output
# is avt-replay's (scripts/checks/custom-hub-check.py); then runs it night by night with --state, and
# legacy-replay, whose metricalc cannot keep its state (scripts/checks/custom-hub-nights.py).
#
# The version comes from a git repository of this working tree's files (tracked and untracked,
# not ignored), committed and tagged with the version in Sources/ReplayApp/Version.swift, in
# samples/custom-hub/.upstream/avt-replay: SwiftPM resolves `from: "<version>"` against it as
# against a remote, so this also checks that the package is usable as a versioned dependency
# (no unsafe flags in its products). The repository, and the sample's own build
# (samples/custom-hub/.build, which compiles this package a second time, in about a minute),
# are made again only when the files changed.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product avt-replay
upstream=samples/custom-hub/.upstream/avt-replay
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/ReplayApp/Version.swift)
fingerprint=$(git ls-files -z --cached --others --exclude-standard | sort -z | xargs -0 sha1sum 2>/dev/null | sha1sum)
if [ "$(cat samples/custom-hub/.upstream/fingerprint 2>/dev/null)" != "$fingerprint" ]; then
    # A new repository under the same tag: the sample's build, with SwiftPM's copies of the
    # old one, goes.
    rm -rf samples/custom-hub/.upstream samples/custom-hub/Package.resolved samples/custom-hub/.build
    mkdir -p "$upstream"
    git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
        [ -e "$file" ] && mkdir -p "$upstream/$(dirname "$file")" && cp -p "$file" "$upstream/$file"
    done
    (
        cd "$upstream"
        git init -q
        git add -A
        GIT_AUTHOR_NAME=avt-replay GIT_AUTHOR_EMAIL=ci@avt-replay.invalid GIT_AUTHOR_DATE=2026-01-01T00:00:00Z \
            GIT_COMMITTER_NAME=avt-replay GIT_COMMITTER_EMAIL=ci@avt-replay.invalid \
            GIT_COMMITTER_DATE=2026-01-01T00:00:00Z git commit -q -m "avt-replay $version"
        git tag "$version"
    )
    echo "$fingerprint" >samples/custom-hub/.upstream/fingerprint
fi
swift build --package-path samples/custom-hub
# SwiftPM refuses a versioned dependency from a remote whose products have unsafe flags (a
# local one like this is let through): the manifest, as read from the checkout, must have
# none, while the root package keeps its speed flags.
as_dependency=$(swift package --package-path samples/custom-hub/.build/checkouts/avt-replay dump-package)
as_root=$(swift package dump-package)
if [[ $as_dependency == *unsafeFlags* || $as_root != *unsafeFlags* ]]; then
    echo "custom-hub: avt-replay's manifest must have unsafe flags as the root package, none as a dependency" >&2
    exit 1
fi
standard="$(swift build --show-bin-path)/avt-replay"
custom="$(swift build --package-path samples/custom-hub --show-bin-path)/custom-replay"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
options=(--quiet --trace --trace-rejected --vp-duration open:complete --metrics events)
"$standard" "${options[@]}" --out "$work/standard" samples/*.jsonl.gz
"$custom" "${options[@]}" --out "$work/custom" samples/*.jsonl.gz
"$custom" --help > "$work/help.txt"
python3 scripts/checks/custom-hub-check.py "$work/standard" "$work/custom" "$work/help.txt"
legacy="$(swift build --package-path samples/custom-hub --show-bin-path)/legacy-replay"
python3 scripts/checks/custom-hub-nights.py "$custom" "$legacy" "$work/custom" "$work"
