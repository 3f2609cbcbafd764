#!/usr/bin/env bash
# Fuzzes the event-log reading code with libFuzzer for a bounded time (not run by CI or
# `swift test`):
#
#   scripts/checks/fuzz.sh [decoder|reader|state|all] [SECONDS]      (default: all, 60 s per target)
#
#   decoder  RecordDecoder (JSON through simdjson): Tools/Fuzz/DecoderFuzz.swift
#   reader   LineReader (plain and gzip input, line limits, refills): Tools/Fuzz/ReaderFuzz.swift
#   state    a --state file read back (RunState.load: checksums, header, open buckets, every
#            life through StateDecoder), and the restored lives ended: Tools/Fuzz/StateFuzz.swift
#
# Each target is built outside SwiftPM (the fuzz entry point must not be an executable
# target's renamed `main`): the CSimdjson shim with clang++ -fsanitize=fuzzer-no-link,address,
# EventModel as a module, then the EventLog sources and the entry file as one executable
# with swiftc -sanitize=fuzzer,address -parse-as-library. The state target's entry file is
# compiled with the ReplayApp sources (RunState is internal to them) against the modules
# ReplayApp depends on, which SwiftPM builds with the same sanitizers into $FUZZ_DIR/spm (the
# first time, about 5 minutes on 2 cores). Everything goes to
# $FUZZ_DIR (default .build-fuzz/, git-ignored): binaries, the growing corpus
# (seeded from Tools/Fuzz/corpus/<target>/, which is only read) and crash artifacts.
#
# Exits 1 when a target finds a crash (printing the artifact and the command that
# reproduces it), 2 on a usage or build error. Extra libFuzzer flags: FUZZ_FLAGS="-jobs=2 ...".
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

usage() {
    echo "usage: scripts/checks/fuzz.sh [decoder|reader|state|all] [SECONDS]" >&2
    exit 2
}

WHICH=${1:-all}
SECONDS_PER_TARGET=${2:-60}
case "$WHICH" in
decoder) TARGETS=(decoder) ;;
reader) TARGETS=(reader) ;;
state) TARGETS=(state) ;;
all) TARGETS=(decoder reader state) ;;
*) usage ;;
esac
[[ "$SECONDS_PER_TARGET" =~ ^[1-9][0-9]*$ ]] || usage

FUZZ_DIR=${FUZZ_DIR:-$ROOT/.build-fuzz}
BUILD=$FUZZ_DIR/build
mkdir -p "$BUILD"

# A clang++ that ships the libFuzzer runtime: the Swift toolchain's first.
CLANGXX=""
for candidate in "$(dirname "$(command -v swiftc)")/clang++" /opt/swift/usr/bin/clang++ "$(command -v clang++ || true)"; do
    [[ -n "$candidate" && -x "$candidate" ]] || continue
    runtime=$("$candidate" -print-file-name=libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null || true)
    resource=$("$candidate" -print-resource-dir 2>/dev/null || true)
    if [[ -f "$runtime" ]] || compgen -G "$resource/lib/*/libclang_rt.fuzzer_no_main*" >/dev/null; then
        CLANGXX=$candidate
        break
    fi
done
if [[ -z "$CLANGXX" ]]; then
    echo "fuzz.sh: no clang++ with the libFuzzer runtime (the Swift toolchain's clang++ has it)" >&2
    exit 2
fi
SWIFTC=${SWIFTC:-swiftc}

# The state target: ReplayApp's dependencies built by SwiftPM with the sanitizers, then the
# ReplayApp sources and the entry file as one module (named as SwiftPM names the package, for
# what the modules share as `package`), linked with every object ReplayApp needs.
build_state() {
    local spm=$FUZZ_DIR/spm binary=$BUILD/state-fuzz
    echo "fuzz.sh: building ReplayApp's dependencies with SwiftPM into $spm" >&2
    swift build --scratch-path "$spm" --target ReplayApp -Xswiftc -sanitize=fuzzer,address \
        -Xcc -fsanitize=fuzzer-no-link,address -Xcxx -fsanitize=fuzzer-no-link,address >&2
    local bin package
    bin=$(readlink -f "$spm/debug")
    package=$(grep -- '"-module-name","ReplayApp"' "$spm/debug.yaml" | grep -o -- '"-package-name","[^"]*"' |
        head -1 | cut -d'"' -f4)
    local maps=() map
    for map in "$bin"/*.build/module.modulemap "$spm"/checkouts/swift-numerics/Sources/_NumericsShims/include/module.modulemap; do
        maps+=(-Xcc -fmodule-map-file="$(readlink -f "$map")")
    done
    # The objects of every module but ReplayApp's and those it does not link (tests, tools, the CLI).
    local objects=()
    mapfile -d '' objects < <(find "$bin" -mindepth 2 -maxdepth 2 -name '*.o' -print0 |
        grep -z -v -E "/(ReplayApp|ReplayCLI|MetricsPush|ReplayTestSupport|CMallocTuning|avt_replay[A-Za-z]*|[A-Za-z]*Tests|generate_[a-z_]*|HistogramExample|ArgumentParser[A-Za-z]*|[A-Za-z_]*-tool)\.build/")
    echo "fuzz.sh: building $binary" >&2
    "$SWIFTC" -parse-as-library -module-name ReplayApp -package-name "$package" -sanitize=fuzzer,address -g -O \
        -wmo -c -I "$bin/Modules" -I Sources/CIsal -I Sources/CZlib "${maps[@]}" \
        Sources/ReplayApp/*.swift Tools/Fuzz/StateFuzz.swift -o "$BUILD/state.o"
    "$SWIFTC" -sanitize=fuzzer,address "$BUILD/state.o" "${objects[@]}" -use-ld=lld -lsimdjson -lisal -lz -lstdc++ \
        -o "$binary"
}

build() {
    local target=$1 entry binary
    if [[ "$target" == state ]]; then
        build_state
        return
    fi
    case "$target" in
    decoder) entry=Tools/Fuzz/DecoderFuzz.swift ;;
    reader) entry=Tools/Fuzz/ReaderFuzz.swift ;;
    esac
    binary=$BUILD/$target-fuzz

    # The C++ shim: instrumented for coverage and ASan, linked by swiftc below.
    local object=$BUILD/decoder.o
    if [[ ! -f "$object" || Sources/CSimdjson/decoder.cpp -nt "$object" || Sources/CSimdjson/include/CSimdjson.h -nt "$object" ]]; then
        echo "fuzz.sh: compiling CSimdjson with $CLANGXX" >&2
        "$CLANGXX" -std=c++17 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address \
            -I Sources/CSimdjson/include -c Sources/CSimdjson/decoder.cpp -o "$object"
    fi

    # A module map for CSimdjson pointing at its header (SwiftPM makes one on the fly).
    mkdir -p "$BUILD/CSimdjson"
    cat >"$BUILD/CSimdjson/module.modulemap" <<EOF
module CSimdjson {
    header "$ROOT/Sources/CSimdjson/include/CSimdjson.h"
    export *
}
EOF

    # EventModel, its own module (EventLog imports it). Both compilations name the package, so
    # that EventLog sees what EventModel shares as `package`.
    local model=$BUILD/EventModel
    mkdir -p "$model"
    if [[ ! -f "$model/EventModel.o" ]] || [[ -n "$(find Sources/EventModel -newer "$model/EventModel.o" -name '*.swift')" ]]; then
        echo "fuzz.sh: compiling EventModel" >&2
        "$SWIFTC" -parse-as-library -module-name EventModel -package-name avt_replay -sanitize=fuzzer,address -g -O \
            -wmo -emit-module -emit-module-path "$model/EventModel.swiftmodule" \
            -c Sources/EventModel/*.swift -o "$model/EventModel.o"
    fi

    # The EventLog sources and the entry point, one executable.
    echo "fuzz.sh: building $binary" >&2
    "$SWIFTC" -parse-as-library -module-name EventLog -package-name avt_replay -sanitize=fuzzer,address -g -O \
        -I "$model" -I Sources/CIsal -I Tools/Fuzz/CZlib -Xcc -fmodule-map-file="$BUILD/CSimdjson/module.modulemap" \
        Sources/EventLog/*.swift "$entry" "$model/EventModel.o" "$object" \
        -use-ld=lld -lsimdjson -lisal -lz -lstdc++ -o "$binary"
}

for target in "${TARGETS[@]}"; do
    build "$target" || {
        echo "fuzz.sh: building the $target fuzzer failed" >&2
        exit 2
    }
done

status=0
for target in "${TARGETS[@]}"; do
    corpus=$FUZZ_DIR/corpus/$target
    artifacts=$FUZZ_DIR/artifacts/$target/
    log=$FUZZ_DIR/$target.log
    mkdir -p "$corpus" "$artifacts"
    binary=$BUILD/$target-fuzz
    echo "fuzz.sh: fuzzing $target for $SECONDS_PER_TARGET s (log: $log)" >&2
    set +e
    # shellcheck disable=SC2086
    # No Swift backtracer: it would catch the harness's abort() before libFuzzer does.
    # A state's seeds are whole state files (up to 31 KB).
    max_len=4096
    [[ "$target" == state ]] && max_len=65536
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
        "$binary" -max_total_time="$SECONDS_PER_TARGET" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
        -dict=Tools/Fuzz/json.dict -print_final_stats=1 -artifact_prefix="$artifacts" \
        ${FUZZ_FLAGS:-} "$corpus" "Tools/Fuzz/corpus/$target" >"$log" 2>&1
    code=$?
    set -e
    rm -f /dev/shm/avt-replay-reader-fuzz-* /dev/shm/avt-replay-state-fuzz-*  # left behind only when a run crashed
    grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|stat::)' "$log" | sed "s/^/  $target: /" >&2 || true
    if ((code != 0)); then
        status=1
        echo "fuzz.sh: $target FAILED (libFuzzer exit $code); last lines of $log:" >&2
        grep -E 'ERROR|invariant|Fatal error|SUMMARY|Test unit written' "$log" | head -20 >&2 || tail -20 "$log" >&2
        for artifact in $(grep -oE 'Test unit written to [^ ]+' "$log" | awk '{print $5}'); do
            echo "fuzz.sh: crash artifact: $artifact" >&2
            echo "fuzz.sh: reproduce with: SWIFT_BACKTRACE=enable=no $binary $artifact" >&2
        done
    fi
done
exit $status
