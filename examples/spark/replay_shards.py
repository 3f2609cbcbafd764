"""Replays event logs on a Spark cluster: Spark reads the files, moves every line to the
task of its shard, each task replays one shard, and the driver merges them.

    replay_shards.py --binary PATH --shards N --out DIR [--master URL] [--stage DIR]
                     [--state-dir DIR [--previous-merge DIR]] -- [avt-replay options] FILE...

Everything after `--` is avt-replay's: the replay options (the same for every shard, as
`avt-replay merge` requires) and the input files. The job, in three steps:

1. Each input file is read by a task of its own, in parallel across the executors: the task
   runs `avt-replay partition --shards N` on it, which tells each line's shard (the hash of
   its instrument, app or player, docs/sharding.md) and the place of a late record in the
   stream. Every line, with its file's rank and its line number, becomes a Spark record
   keyed by (shard, rank, line).
2. Spark's shuffle moves the records to the N tasks of the shards
   (`repartitionAndSortWithinPartitions`, partitioned by shard, sorted by rank and line).
   Task K writes shard K's part files and the partition's `partition.json` (the layout of
   `avt-replay partition`, whose manifest the driver made from the first step's), and runs
   `avt-replay --quiet --shard K/N --out <folder> [options] <part files>`: it reads only its
   own records.
3. The driver runs `avt-replay merge --out DIR <the N shard folders>`, whose reports are byte
   for byte those of one `avt-replay [options] FILE...`.

The input files and the binary must be readable at the same paths on every node (a shared
file system), or the binary shipped with `spark-submit --files` (SparkFiles). Without
`--stage`, each shard's reports travel back to the driver as its task's result (bounded by
`spark.driver.maxResultSize`); with `--stage DIR` on storage the driver and the executors
share, they are written to DIR/shard-K and only the path travels.

A nightly job gives `--state-dir DIR` (on storage the executors share): shard K then replays
with `--state DIR/shard-K.state`, its own state file, night after night with the same N, and
from the second night `--previous-merge` the merged reports of the night before (the driver
reads their `merge.state` and ships it to every shard task; docs/sharding.md, "Nightly runs,
sharded").

The job exits with the merge's status: 0, or 1 when some input lines were rejected (see
rejects.jsonl); a step that fails otherwise fails its task, which Spark retries (every step's
output depends only on its input, so a retry writes the same bytes).
"""

import argparse
import itertools
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

from pyspark import SparkFiles
from pyspark.sql import SparkSession

# avt-replay's exit statuses for "reports written": every line replayed, or some rejected.
WRITTEN = (0, 1)


def parse(argv):
    """Splits the command line at `--`: the job's options, then avt-replay's arguments."""
    if "--" not in argv:
        sys.exit("replay_shards.py: put the avt-replay options and files after --")
    split = argv.index("--")
    parser = argparse.ArgumentParser(prog="replay_shards.py", description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True, help="avt-replay, on every node or shipped with --files")
    parser.add_argument("--shards", type=int, required=True, help="N: the number of shards and of their tasks")
    parser.add_argument("--out", required=True, help="where the merged reports go (on the driver)")
    parser.add_argument("--master", help="the Spark master when not run by spark-submit, e.g. local[4]")
    parser.add_argument("--stage", help="a folder shared by the driver and the executors for the shards' reports")
    parser.add_argument("--state-dir", help="a shared folder of the shards' state files (shard-K.state), for nightly runs")
    parser.add_argument("--previous-merge", help="with --state-dir: the merged reports of the night before (on the driver)")
    options = parser.parse_args(argv[:split])
    if options.shards < 1:
        parser.error("--shards must be at least 1")
    if options.previous_merge and not options.state_dir:
        parser.error("--previous-merge goes with --state-dir")
    replay_options, files = split_replay_arguments(argv[split + 1 :])
    if option_value(replay_options, "--previous-merge") is not None:
        parser.error("give --previous-merge before --: the driver ships it to the shards")
    if not files:
        parser.error("give avt-replay's input files after --")
    return options, replay_options, files


# avt-replay's options that take a value: what is not an option or such a value is a file.
VALUED = {
    "--out", "--state", "--since", "--until", "--max-lateness", "--max-late", "--max-rejects", "--idle-gap",
    "--bucket", "--group-by", "--prefix", "--metrics", "--ts-unit", "--threads", "--vp-duration", "--middleware",
    "--breakdown-min-views", "--session-timeout", "--influx", "--graphite", "--spool", "--tag", "--previous-merge",
}


def split_replay_arguments(arguments):
    """avt-replay's options, and its input files."""
    options, files, index = [], [], 0
    while index < len(arguments):
        argument = arguments[index]
        if argument.startswith("-") and argument != "-":
            options.append(argument)
            if argument in VALUED and index + 1 < len(arguments):
                options.append(arguments[index + 1])
                index += 1
        else:
            files.append(argument)
        index += 1
    return options, files


def option_value(options, name):
    """The value of `name` among avt-replay's options (`--name value` or `--name=value`)."""
    for index, option in enumerate(options):
        if option == name and index + 1 < len(options):
            return options[index + 1]
        if option.startswith(name + "="):
            return option[len(name) + 1 :]
    return None


def replay_order(files):
    """The files in avt-replay's replay order: by file name, then by path (UTF-8 bytes)."""
    return sorted(dict.fromkeys(files), key=lambda path: (os.path.basename(path).encode(), path.encode()))


def executable(binary):
    """The avt-replay binary on this node: the path itself, or the copy Spark shipped."""
    path = binary if os.path.isfile(binary) else SparkFiles.get(os.path.basename(binary))
    mode = os.stat(path).st_mode
    if not mode & stat.S_IXUSR:
        os.chmod(path, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def split_file(rank, path, shards, binary, partition_options):
    """Step 1, a task per file: yields ("input", rank, manifest) once, then
    ((shard, rank, line), part line) for every line of the file."""
    work = tempfile.mkdtemp(prefix="avt-replay-split-%d-" % rank)
    try:
        out = os.path.join(work, "partition")
        command = [executable(binary), "partition", "--quiet", "--shards", str(shards), "--out", out]
        result = subprocess.run(command + partition_options + [path], capture_output=True, text=True)
        if result.returncode not in WRITTEN:
            raise RuntimeError("%s: avt-replay partition exited %d: %s" % (path, result.returncode, result.stderr))
        with open(os.path.join(out, "partition.json")) as handle:
            yield ("input", rank, json.load(handle))
        for shard in range(1, shards + 1):
            with open(os.path.join(out, str(shard), "00000.part"), "rb") as handle:
                for part_line in handle:
                    number = int(part_line[: len(part_line) - len(part_line.lstrip(b"0123456789"))])
                    yield ((shard, rank, number), part_line)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def replay_shard(lines, shards, binary, manifest, replay_options, stage, state_dir=None, previous_merge=None):
    """Step 2, a task per shard: writes the shard's part files from its lines (sorted by rank
    and line), replays them (with the bytes of the night before's merge.state, if any), and
    yields (shard, folder, None) when the reports were written to `stage`, or
    (shard, None, {file name: bytes})."""
    lines = iter(lines)
    first = next(lines, None)
    if first is None:
        return
    shard = first[0][0]
    work = tempfile.mkdtemp(prefix="avt-replay-shard-%d-" % shard, dir=stage)
    try:
        folder = os.path.join(work, "partition", str(shard))
        os.makedirs(folder)
        with open(os.path.join(work, "partition", "partition.json"), "w") as handle:
            json.dump(manifest, handle, sort_keys=True, separators=(",", ":"))
        handles = [open(os.path.join(folder, "%05d.part" % rank), "wb") for rank in range(len(manifest["inputs"]))]
        try:
            for (_, rank, _), part_line in itertools.chain([first], lines):
                if part_line is not None:
                    handles[rank].write(part_line)
        finally:
            for handle in handles:
                handle.close()
        parts = [os.path.join(folder, "%05d.part" % rank) for rank in range(len(manifest["inputs"]))]
        out = os.path.join(work, "reports")
        command = [executable(binary), "--quiet", "--shard", "%d/%d" % (shard, shards), "--out", out]
        if state_dir:
            command += ["--state", os.path.join(state_dir, "shard-%d.state" % shard)]
        if previous_merge is not None:
            previous = os.path.join(work, "previous-merge")
            os.makedirs(previous)
            with open(os.path.join(previous, "merge.state"), "wb") as handle:
                handle.write(previous_merge)
            command += ["--previous-merge", previous]
        result = subprocess.run(command + replay_options + parts, capture_output=True, text=True)
        if result.returncode not in WRITTEN:
            raise RuntimeError(
                "shard %d/%d: avt-replay exited %d: %s" % (shard, shards, result.returncode, result.stderr.strip())
            )
        target = os.path.join(stage, "shard-%d" % shard) if stage else None
        if target:
            # A retried task replaces what an earlier attempt left: the same bytes.
            shutil.rmtree(target, ignore_errors=True)
            os.rename(out, target)
            yield shard, target, None
            return
        files = {}
        for name in sorted(os.listdir(out)):
            path = os.path.join(out, name)
            if os.path.isfile(path):
                with open(path, "rb") as handle:
                    files[name] = handle.read()
        yield shard, None, files
    finally:
        shutil.rmtree(work, ignore_errors=True)


def partition_manifest(inputs, shards, partition_options):
    """partition.json of the whole input, from each file's own (in rank order)."""
    manifest = {
        "format": "avt-replay partition",
        "version": 2,
        "shards": shards,
        "inputs": [],
        "problems": [],
    }
    for rank, own in inputs:
        # The version of the binary that split the files, which the shards check.
        manifest["version"] = own["version"]
        manifest["maxLateness"] = own["maxLateness"]
        manifest["timestampUnit"] = own["timestampUnit"]
        manifest["inputs"] += own["inputs"]
        manifest["problems"] += own["problems"]
        if own.get("end") is not None:
            manifest["end"] = max(manifest.get("end", own["end"]), own["end"])
        if own.get("start") is not None:
            manifest["start"] = min(manifest.get("start", own["start"]), own["start"])
    return manifest


def main(argv):
    options, replay_options, files = parse(argv)
    files = replay_order(files)
    shards, binary, stage, state_dir = options.shards, options.binary, options.stage, options.state_dir
    previous_merge = None
    if options.previous_merge:
        with open(os.path.join(options.previous_merge, "merge.state"), "rb") as handle:
            previous_merge = handle.read()
    partition_options = []
    for name in ("--max-lateness", "--ts-unit"):
        value = option_value(replay_options, name)
        if value is not None:
            partition_options += [name, value]
    builder = SparkSession.builder.appName("avt-replay %d shards" % shards)
    if options.master:
        builder = builder.master(options.master)
    spark = builder.getOrCreate()
    if stage:
        os.makedirs(stage, exist_ok=True)
    if state_dir:
        os.makedirs(state_dir, exist_ok=True)
    try:
        driver_binary = executable(binary)
        context = spark.sparkContext
        split = (
            context.parallelize(list(enumerate(files)), len(files))
            .flatMap(lambda item: split_file(item[0], item[1], shards, binary, partition_options))
            .persist()
        )
        inputs = sorted(
            ((record[1], record[2]) for record in split.filter(lambda record: record[0] == "input").collect()),
            key=lambda item: item[0],
        )
        manifest = partition_manifest(inputs, shards, partition_options)
        results = (
            split.filter(lambda record: record[0] != "input")
            .repartitionAndSortWithinPartitions(shards, lambda key: key[0] - 1)
            .mapPartitions(
                lambda lines: replay_shard(
                    lines, shards, binary, manifest, replay_options, stage, state_dir, previous_merge
                )
            )
            .collect()
        )
    finally:
        spark.stop()

    given = {result[0] for result in results}
    missing = [shard for shard in range(1, shards + 1) if shard not in given]
    collected = tempfile.mkdtemp(prefix="avt-replay-shards-")
    try:
        folders = []
        for shard in missing:
            # A shard with no line at all: its reports are those of an empty folder of parts.
            folder = os.path.join(collected, "empty-%d" % shard)
            results.append(
                (
                    shard,
                    None,
                    empty_shard(
                        folder, shard, shards, driver_binary, manifest, replay_options, state_dir, previous_merge
                    ),
                )
            )
        for shard, folder, shard_files in sorted(results, key=lambda result: result[0]):
            if folder is None:
                folder = os.path.join(collected, "shard-%d" % shard)
                os.makedirs(folder)
                for name, content in shard_files.items():
                    with open(os.path.join(folder, name), "wb") as handle:
                        handle.write(content)
            folders.append(folder)
        merge = subprocess.run([driver_binary, "merge", "--quiet", "--out", options.out] + folders)
    finally:
        shutil.rmtree(collected, ignore_errors=True)
    if merge.returncode not in WRITTEN:
        sys.exit("replay_shards.py: avt-replay merge exited %d" % merge.returncode)
    return merge.returncode


def empty_shard(work, shard, shards, binary, manifest, replay_options, state_dir, previous_merge):
    """The reports of a shard with no line, replayed on the driver."""
    os.makedirs(work)
    replayed = list(
        replay_shard(
            [((shard, 0, 0), None)], shards, binary, manifest, replay_options, None, state_dir, previous_merge
        )
    )
    return replayed[0][2]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
