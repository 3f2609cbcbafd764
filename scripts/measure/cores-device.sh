#!/usr/bin/env bash
# Measures avt-replay's scaling on a many-core machine that has no Swift: run there from the
# project root, after ../shared/bench/device/bundle.sh packed .device/ here:
#
#   swift build -c release --product avt-replay; scripts/generate/loggen.sh release
#   ../shared/bench/device/bundle.sh .build/release/avt-replay .build/release/avt-loggen "$(command -v pigz)"
#   cp scripts/measure/thread-cpu.py .device/
#   (on the machine, carrying .device) scripts/measure/cores-device.sh OUT_DIR [ROUNDS] [RECORDS]
#
# Generates the benchmark day (avt-loggen, seed 42, 24 files, pigz -n), then writes to OUT_DIR:
# cpu-N.json (CPU per thread kind of one run with --threads N, N the cores and 1, and of a run
# reading only, cpu-read-N.json; scripts/measure/thread-cpu.py) and
# side.json (../shared/bench/device/side_by_side_cores.py: the default threads, --threads
# 1/2/4/8, reading only with the default and one thread, DuckDB's query at as many threads as
# cores, alternated rounds, medians; SIDE_RUNS='NAME=OPTION,OPTION ...' replaces the variants).
set -euo pipefail
out=$1 rounds=${2:-2} records=${3:-5000000}
mkdir -p "$out"
tar xJf .device/bundle.tar.xz -C /tmp
export PATH=/tmp/bundle/bin:$PATH LD_LIBRARY_PATH=/tmp/bundle/lib
python3 -m pip install -q --no-index --no-deps --target /tmp/py .device/wheels/duckdb-*.whl
export PYTHONPATH=/tmp/py
cores=$(nproc)
echo "cores: $cores; $(uname -r)"
corpus=/tmp/corpus
mkdir -p $corpus
start=$SECONDS
avt-loggen --records "$records" --seed 42 --files 24 --out $corpus 2>/dev/null
pigz -n -p "$cores" $corpus/*.jsonl
echo "corpus: $((SECONDS - start)) s, $(cat $corpus/*.jsonl.gz | wc -c) bytes"
profile() { # NAME OPTION...
    local name=$1; shift
    python3 .device/thread-cpu.py --json "$out/cpu-$name.json" -- \
        avt-replay --quiet --out "/tmp/cpu-$name" "$@" $corpus/*.jsonl.gz |
        python3 -c "import json,sys; d=json.load(sys.stdin); print('$name', d['wall_s'], {k: (v['cpu_s'], v['busiest_share_of_wall']) for k, v in d['threads'].items()})"
}
profile "$cores" --threads "$cores"
profile 1 --threads 1
profile "read-$cores" --threads "$cores" --shard 1/1000
python3 -c "import json; print('threads in run.json:', json.load(open('/tmp/cpu-$cores/run.json'))['threads'])"
python3 .device/side_by_side_cores.py "$(command -v avt-replay)" "$corpus/*.jsonl.gz" "$cores" "$rounds" "$out/side.json" -- \
    ${SIDE_RUNS:-t1=--threads,1 t2=--threads,2 t4=--threads,4 t8=--threads,8 read=--shard,1/1000 read_t1=--shard,1/1000,--threads,1}
