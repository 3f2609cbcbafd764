"""Replays event logs on a Spark cluster: N shards as N Spark tasks, then one merge.

    replay_shards.py --binary PATH --shards N --out DIR [--master URL] [--stage DIR]
                     -- [avt-replay options] FILE...

Everything after `--` goes to every shard as it is: the replay options (the same for all
shards, as `avt-replay merge` requires) and the input files, which every task reads whole
(each shard replays the sessions whose id hashes to it, but needs every record to keep the
same clock as an unsharded run). Each task runs

    avt-replay --quiet --shard K/N --out <task-local folder> [options] FILE...

and hands back its report folder; the driver then runs

    avt-replay merge --out DIR <the N shard folders>

whose reports are byte for byte those of one `avt-replay [options] FILE...`.

The binary is `--binary` where that path exists (local mode, or installed on every node),
or else the file of that name shipped with `spark-submit --files` (SparkFiles). Without
`--stage`, each task's reports travel back to the driver as the task's result (bounded by
`spark.driver.maxResultSize`); with `--stage DIR` on storage the driver and the executors
share, each task writes its reports to DIR/shard-K and only the path travels.

The job exits with the merge's status: 0, or 1 when some input lines were rejected (see
rejects.jsonl); a shard that fails otherwise fails its task, which Spark retries (a shard's
output depends only on its input, so a retry writes the same bytes).
"""

import argparse
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
    parser.add_argument("--shards", type=int, required=True, help="N: the number of shards and tasks")
    parser.add_argument("--out", required=True, help="where the merged reports go (on the driver)")
    parser.add_argument("--master", help="the Spark master when not run by spark-submit, e.g. local[4]")
    parser.add_argument("--stage", help="a folder shared by the driver and the executors for the shards' reports")
    options = parser.parse_args(argv[:split])
    if options.shards < 1:
        parser.error("--shards must be at least 1")
    replay_arguments = argv[split + 1 :]
    if not replay_arguments:
        parser.error("give avt-replay's input files after --")
    return options, replay_arguments


def executable(binary):
    """The avt-replay binary on this node: the path itself, or the copy Spark shipped."""
    path = binary if os.path.isfile(binary) else SparkFiles.get(os.path.basename(binary))
    mode = os.stat(path).st_mode
    if not mode & stat.S_IXUSR:
        os.chmod(path, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def run_shard(index, shards, binary, replay_arguments, stage):
    """One Spark task: replays shard `index` of `shards` and returns its reports.

    Returns (index, folder, None) when the reports were written to the shared `stage`, or
    (index, None, {file name: bytes}) otherwise.
    """
    target = os.path.join(stage, "shard-%d" % index) if stage else None
    work = tempfile.mkdtemp(prefix="avt-replay-shard-%d-" % index, dir=stage)
    # The reports go into a folder inside the task's own, with avt-replay's workspace beside
    # them (.reports.avt-replay/), so that removing `work` leaves nothing behind.
    out = os.path.join(work, "reports")
    try:
        command = [executable(binary), "--quiet", "--shard", "%d/%d" % (index, shards), "--out", out]
        result = subprocess.run(command + replay_arguments, capture_output=True, text=True)
        if result.returncode not in WRITTEN:
            raise RuntimeError(
                "shard %d/%d: avt-replay exited %d: %s" % (index, shards, result.returncode, result.stderr.strip())
            )
        if target:
            # A retried task replaces what an earlier attempt left: the same bytes.
            shutil.rmtree(target, ignore_errors=True)
            os.rename(out, target)
            return index, target, None
        files = {}
        for name in sorted(os.listdir(out)):
            path = os.path.join(out, name)
            if os.path.isfile(path):
                with open(path, "rb") as handle:
                    files[name] = handle.read()
        return index, None, files
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv):
    options, replay_arguments = parse(argv)
    builder = SparkSession.builder.appName("avt-replay %d shards" % options.shards)
    if options.master:
        builder = builder.master(options.master)
    spark = builder.getOrCreate()
    binary, shards, stage = options.binary, options.shards, options.stage
    if stage:
        os.makedirs(stage, exist_ok=True)
    try:
        driver_binary = executable(binary)
        results = (
            spark.sparkContext.parallelize(range(1, shards + 1), shards)
            .map(lambda index: run_shard(index, shards, binary, replay_arguments, stage))
            .collect()
        )
    finally:
        spark.stop()

    collected = tempfile.mkdtemp(prefix="avt-replay-shards-")
    try:
        folders = []
        for index, folder, files in sorted(results, key=lambda result: result[0]):
            if folder is None:
                folder = os.path.join(collected, "shard-%d" % index)
                os.makedirs(folder)
                for name, content in files.items():
                    with open(os.path.join(folder, name), "wb") as handle:
                        handle.write(content)
            folders.append(folder)
        merge = subprocess.run([driver_binary, "merge", "--quiet", "--out", options.out] + folders)
    finally:
        shutil.rmtree(collected, ignore_errors=True)
    if merge.returncode not in WRITTEN:
        sys.exit("replay_shards.py: avt-replay merge exited %d" % merge.returncode)
    return merge.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
