#!/usr/bin/env python3
"""Runs a command and prints the CPU seconds of each of its threads by name (`avt-read`,
`avt-engine1`, `avt-decode1`, `avt-write`, the process's own for the calling thread), summed per
kind, beside the wall time: which thread the others wait on. Reads /proc every 20 ms, so a
thread that ends between two readings counts up to its last one.

    scripts/measure/thread-cpu.py [--json OUT.json] -- COMMAND [ARG...]"""
import json, os, re, subprocess, sys, time

args = sys.argv[1:]
out = None
if args[:1] == ["--json"]:
    out, args = args[1], args[2:]
if args[:1] == ["--"]:
    args = args[1:]
if not args:
    sys.exit(__doc__)
tick = os.sysconf("SC_CLK_TCK")
seen = {}  # tid -> (name, cpu seconds)
start = time.perf_counter()
process = subprocess.Popen(args, stdout=subprocess.DEVNULL)
while process.poll() is None:
    try:
        for tid in os.listdir(f"/proc/{process.pid}/task"):
            try:
                with open(f"/proc/{process.pid}/task/{tid}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            name = stat[stat.index("(") + 1 : stat.rindex(")")]
            fields = stat[stat.rindex(")") + 2 :].split()
            seen[tid] = (name, (int(fields[11]) + int(fields[12])) / tick)
    except OSError:
        pass
    time.sleep(0.02)
wall = time.perf_counter() - start
kinds = {}
for name, cpu in seen.values():
    kind = re.sub(r"\d+$", "", name)
    total, most, count = kinds.get(kind, (0.0, 0.0, 0))
    kinds[kind] = (total + cpu, max(most, cpu), count + 1)
result = {
    "command": args, "exit": process.returncode, "wall_s": round(wall, 3),
    "threads": {k: {"count": c, "cpu_s": round(t, 2), "busiest_cpu_s": round(m, 2),
                    "busiest_share_of_wall": round(m / wall, 3)} for k, (t, m, c) in sorted(kinds.items())},
}
print(json.dumps(result, indent=1))
if out:
    json.dump(result, open(out, "w"), indent=1)
