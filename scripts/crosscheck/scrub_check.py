#!/usr/bin/env python3
"""ziosim's scrub against OpenZFS 2.1.11's, on the reference device.

For each configuration the libzpool harness (libzpool/, --scrub) writes a file,
syncs, and scrubs the pool (spa_scan, as zpool scrub); leafemu serves and logs
every leaf I/O. ziosim scrubs the same pool (`ziosim scrub`, profile
openzfs-2.1, the same device). Compared:

  * scrub bytes per leaf: the real code's scrub-class bytes (vdev_stat) against
    the bytes ziosim's disks read; they differ by the metadata ziosim does not
    model (the MOS, dnode and objset blocks: tens of KiB), so the error is
    taken against the mean leaf's bytes;
  * time: the real code's span of data scrub reads (its first to its last read
    of 192 KiB or more, larger than any metadata read: aggregated data columns
    or copies; the setup txg, the vdev reopen's 112 KiB label reads and the
    metadata reads before and after are not in it) against ziosim's scrub.

usage: scrub_check.py [--only NAME ...] [--json] [--out FILE]
traces/crosscheck/scrub.json is the committed run."""
from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import crosscheck as xc  # noqa: E402

DEVICE = "fixed:latency=4ms,bandwidth=150MB/s,lanes=1"
LEAF_SIZE = 4 << 30
DATA_READ = 192 << 10  # a read this large is an aggregate of data columns or copies

# name, harness --vdev, file size
CONFIGS = [
    ("mirror2", "mirror:2", 64 << 20),
    ("raidz2-5", "raidz2:5", 64 << 20),
    ("draid1-5", "draid1:5", 64 << 20),
    ("draid2-4d-1s-7", "draid2:4d:1s:7", 64 << 20),
]


def ziosim_pool(vdev):
    kind, _, n = vdev.rpartition(":")
    return f"{kind} {n}x{DEVICE},rotational=yes,capacity={LEAF_SIZE}"


def run_real(vdev, file_size, workdir):
    tools = xc.libzpool_tools()
    if tools is None:
        raise xc.UsageError("the libzpool harness is not built (needs libzpool5linux and libzfslinux-dev)")
    log = Path(workdir) / "leaf.csv"
    env = dict(os.environ, LD_PRELOAD=str(tools[1]), LEAFEMU_DEVICE=DEVICE, LEAFEMU_LOG=str(log))
    cmd = [str(tools[0]), "--dir", str(Path(workdir) / "pool"), "--vdev", vdev, "--file-size", str(file_size),
           "--leaf-size", str(LEAF_SIZE), "--rotational", "1", "--scrub"]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"harness failed: {' '.join(cmd)}\n{out.stderr[-2000:]}")
    res = json.loads(out.stdout)
    with open(log, newline="") as f:
        reads = [r for r in csv.DictReader(f) if r["op"] == "R"]
    data = [r for r in reads if int(r["size"]) >= DATA_READ]
    first = min(int(r["arrival_ns"]) for r in data)
    last = max(int(r["end_ns"]) for r in data)
    return {"elapsed_s": res["scrub"]["elapsed_s"], "data_span_s": (last - first) / 1e9,
            "issued_bytes": res["scrub"]["issued_bytes"],
            "scrub_bytes_per_leaf": [leaf["bytes_by_class"]["scrub"] for leaf in res["leaves"]]}


def run_ziosim(vdev, file_size):
    cmd = [xc.ziosim_bin(), "scrub", "--pool", ziosim_pool(vdev), "--files", "1", "--file-size", str(file_size),
           "--profile", "openzfs-2.1", "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"ziosim failed: {' '.join(cmd)}\n{out.stderr}")
    run = json.loads(out.stdout)["runs"][0]
    return {"elapsed_s": run["elapsed_s"], "issued_bytes": run["issued_bytes"],
            "scrub_bytes_per_leaf": [d["read_bytes"] for d in run["disks"]]}


def check(name, vdev, file_size):
    with tempfile.TemporaryDirectory(prefix="scrub-check-") as workdir:
        real = run_real(vdev, file_size, workdir)
    sim = run_ziosim(vdev, file_size)
    return {"name": name, "vdev": vdev, "file_size": file_size, "real": real, "ziosim": sim,
            "time_error": sim["elapsed_s"] / real["data_span_s"] - 1,
            "leaf_bytes_error": max(abs(s - r) for s, r in zip(sim["scrub_bytes_per_leaf"],
                                                              real["scrub_bytes_per_leaf"]))
            / (sum(real["scrub_bytes_per_leaf"]) / len(real["scrub_bytes_per_leaf"]))}


def print_table(results):
    print("| pool (64 MiB file) | real scrub s (its data reads) | ziosim s | error | scrub bytes per leaf, worst "
          "error (of the mean leaf) |")
    print("|---|---|---|---|---|")
    for r in results:
        print(f"| {r['vdev']} | {r['real']['elapsed_s']:.3f} ({r['real']['data_span_s']:.3f}) "
              f"| {r['ziosim']['elapsed_s']:.3f} | {r['time_error']:+.0%} | {r['leaf_bytes_error']:.1%} |")


if __name__ == "__main__":
    sys.exit(xc.run_configs("scrub_check", __doc__.splitlines()[0], CONFIGS, check, print_table))
